import Big from "big.js";
import type { ApiCostEstimate } from "../catalogue/schemas.js";
import { roundAmount } from "../domain/amount.js";

/**
 * What `tariff cost <file>` reports (issue 29 §4, T216–T217, T345) and the exact sums it is
 * gathered in: totals per group (model, channel, day) and the records or parts left out, per reason.
 */

/** Totals of one group (a model, a channel, a day): records priced and amount per currency or credit. */
export interface GroupTotal {
  readonly records: number;
  /** `USD` → amount; credits under `credits (XXX)`. */
  readonly totals: Readonly<Record<string, number>>;
}

/**
 * Records left out (or parts of records left out) for one reason (T345): how many, every line, and
 * the value left out — the tokens (calls for web searches) nothing prices, and what the records'
 * priced lines come to, which the totals do not hold.
 */
export interface ReasonGroup {
  /** Names the model, channel and the missing price dimension (its label, D27); no day (T345). */
  readonly reason: string;
  readonly count: number;
  /** Every line, in file order (T345: all of them, not the first few). */
  readonly lines: readonly number[];
  /** The labels of the price dimensions no source publishes, when that is the reason (e.g. `Input (batch, cache write)`). */
  readonly missing: readonly string[];
  /** Tokens no price reaches, summed over the records. */
  readonly unpricedTokens: number;
  /** Calls no price reaches (web searches, hosted tool calls, grounding queries), summed over the records. */
  readonly unpricedCalls: number;
  /** What the same records' priced lines come to, per currency (credits apart), left out of the totals. */
  readonly pricedPart: Readonly<Record<string, number>>;
  /** First and last day of the records, `YYYY-MM-DD`; null when no record had a readable time. */
  readonly days: readonly [string, string] | null;
}

/** What a run found. */
export interface CostLogReport {
  readonly records: number;
  readonly priced: number;
  readonly unpriced: number;
  /** Unpriced records per reason, with every line of each (T345). */
  readonly problems: readonly ReasonGroup[];
  /** Priced records with a part no price rule reaches, which their totals leave out (T300). */
  readonly partlyPriced: number;
  /** The parts left out, per reason, with every line of each (T300, T345). */
  readonly unpricedParts: readonly ReasonGroup[];
  readonly asModel: string | null;
  readonly totals: Readonly<Record<string, number>>;
  readonly byModel: Readonly<Record<string, GroupTotal>>;
  readonly byChannel: Readonly<Record<string, GroupTotal>>;
  readonly byDay: Readonly<Record<string, GroupTotal>>;
  /** The dataset versions the records were priced at, with their record counts. */
  readonly versions: Readonly<Record<string, number>>;
  /**
   * Records of a dated snapshot billed at its undated name's prices (T347), per
   * `<snapshot> as <undated> (<tier>)`, with their count.
   */
  readonly pricedAsUndated: Readonly<Record<string, number>>;
}

/** The records of one reason as they are gathered (see {@link ReasonGroup}). */
interface Gathering {
  count: number;
  readonly lines: number[];
  missing: readonly string[];
  tokens: number;
  calls: number;
  readonly value: Totals;
  first: string | null;
  last: string | null;
}

/** Unpriced parts (T300) that count calls, not tokens: hosted tool calls, server tools, grounding queries. */
export const CALL_PARTS = /_call\]$|^server_tool_use\.|webSearchQueries$/;

/** The tokens (or calls) of an estimate's missing lines that `which` selects. */
export function missingCount(e: ApiCostEstimate, which: (l: ApiCostEstimate["lines"][number]) => boolean): number {
  return e.lines.filter((l) => l.status === "missing" && which(l)).reduce((n, l) => n + l.tokens, 0);
}

/** Records (or parts) gathered per reason, every line kept (T345). */
export class ReasonGroups {
  readonly #groups = new Map<string, Gathering>();

  add(
    reason: string,
    line: number,
    what: {
      day?: string;
      tokens?: number;
      calls?: number;
      missing?: readonly string[];
      estimate?: ApiCostEstimate;
    } = {},
  ): void {
    let g = this.#groups.get(reason);
    if (!g) {
      g = {
        count: 0,
        lines: [],
        missing: what.missing ?? [],
        tokens: 0,
        calls: 0,
        value: new Totals(),
        first: null,
        last: null,
      };
      this.#groups.set(reason, g);
    }
    g.count++;
    g.lines.push(line);
    g.tokens += what.tokens ?? 0;
    g.calls += what.calls ?? 0;
    if (what.estimate) g.value.add(what.estimate);
    if (what.day !== undefined) {
      if (g.first === null || what.day < g.first) g.first = what.day;
      if (g.last === null || what.day > g.last) g.last = what.day;
    }
  }

  /** The groups, most records first (then in the order their first record came). */
  result(): ReasonGroup[] {
    return [...this.#groups]
      .sort(([, a], [, b]) => b.count - a.count)
      .map(([reason, g]) => ({
        reason,
        count: g.count,
        lines: g.lines,
        missing: [...g.missing],
        unpricedTokens: g.tokens,
        unpricedCalls: g.calls,
        pricedPart: g.value.result().totals,
        days: g.first === null || g.last === null ? null : [g.first, g.last],
      }));
  }
}

/** Exact sums per currency (money) or credit denomination, rounded only when reported (D7). */
export class Totals {
  #records = 0;
  readonly #sums = new Map<string, Big>();

  add(e: ApiCostEstimate): void {
    this.#records++;
    for (const t of e.partialTotals) {
      const key = t.denomination === "credit" ? `credits (${t.currency})` : t.currency;
      // The line costs, not the rounded total, are summed: the total of a month is exact.
      const exact = e.lines
        .filter((l) => l.denomination === t.denomination && l.currency === t.currency && l.cost !== null)
        .reduce(
          (sum, l) =>
            sum.plus(
              // A per-call fee's cost is exact as given (T304); token lines are recomputed unrounded.
              l.usage === "webSearchRequests"
                ? new Big(String(l.cost))
                : new Big(l.tokens).times(String(l.amount)).div(1_000_000),
            ),
          new Big(0),
        );
      this.#sums.set(key, (this.#sums.get(key) ?? new Big(0)).plus(exact));
    }
  }

  result(): GroupTotal {
    return {
      records: this.#records,
      totals: Object.fromEntries(
        [...this.#sums].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, roundAmount(v)]),
      ),
    };
  }
}
