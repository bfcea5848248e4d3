import type { StatedValidity } from "../../domain/dated-price.js";
import type { DatedQualifier } from "./model-cell.js";

/**
 * Dated rows of one price table read as one model's price and its validity (issue 46 §2, T407).
 * Pure. A maker writes an introductory price as two rows — "Claude X through D" at one price, "Claude
 * X starting D+1" at another — or adds a future row above the standing one. On the page's day
 * (`today`, the payload's date):
 *
 * - the row in force is the model's price: the latest "from" row already started, else a row whose
 *   "until" day is still ahead, else the undated row;
 * - the earliest "from" row still ahead is its announced successor: each price of the row in force
 *   gets `validity: {until: that day, next}` (`next` the successor's amount of that field, null when
 *   the successor states none), and a field priced alike gets no end (T335);
 * - an "until" row with no successor ends with `next: null`;
 * - a row that ended ("through" a past day) is history and read no more;
 * - a model with only future rows has no price today: its rows are unmatched ("priced only from D"),
 *   never today's price.
 */

/** One table row after its model cell was read: the models it names, its qualifier and its amounts by field. */
export interface DatedRow<F extends string> {
  readonly ids: readonly string[];
  readonly dated: DatedQualifier | null;
  readonly amounts: Partial<Record<F, string>>;
  /** The row's model cell as text, for the unmatched report. */
  readonly label: string;
}

/** A field's price today, as written, and its stated end when the page dates it. */
export interface DatedAmount {
  readonly amount: string;
  readonly validity?: StatedValidity;
}

/** A table's rows resolved per model id. */
export interface ResolvedRows<F extends string> {
  /** Model id → field → price today (model ids in the order the page first names them). */
  readonly prices: Map<string, Partial<Record<F, DatedAmount>>>;
  /** Rows that give no price today, with why (counted in `/sources`). */
  readonly unmatched: readonly { readonly label: string; readonly reason: string }[];
}

/**
 * Resolves a table's rows for `today` (YYYY-MM-DD), see the module comment.
 */
export function resolveDatedRows<F extends string>(rows: readonly DatedRow<F>[], today: string): ResolvedRows<F> {
  const byId = new Map<string, DatedRow<F>[]>();
  for (const row of rows)
    for (const id of row.ids) {
      const list = byId.get(id) ?? [];
      list.push(row);
      byId.set(id, list);
    }
  const prices = new Map<string, Partial<Record<F, DatedAmount>>>();
  const unmatched: { label: string; reason: string }[] = [];
  for (const [id, list] of byId) {
    const started = list
      .filter((r) => r.dated?.kind === "from" && r.dated.day <= today)
      .sort((a, b) => ((a.dated?.day ?? "") < (b.dated?.day ?? "") ? 1 : -1));
    const ending = list.filter((r) => r.dated?.kind === "until" && r.dated.day > today);
    const undated = list.filter((r) => r.dated === null);
    const ahead = list
      .filter((r) => r.dated?.kind === "from" && r.dated.day > today)
      .sort((a, b) => ((a.dated?.day ?? "") < (b.dated?.day ?? "") ? -1 : 1));
    const current = started[0] ?? ending[0] ?? undated[0];
    if (!current) {
      for (const r of list)
        unmatched.push({
          label: r.label,
          reason:
            r.dated?.kind === "from"
              ? `priced only from ${r.dated.day}, after the page's day`
              : `its price ended before ${r.dated?.day}`,
        });
      continue;
    }
    for (const r of [...started.slice(1), ...ending, ...undated].filter((r) => r !== current))
      if (r.dated === null || r.dated.kind === "until")
        unmatched.push({ label: r.label, reason: `a second row for ${id} in the table` });
    const successor = ahead[0];
    const until =
      current.dated?.kind === "until"
        ? successor?.dated && successor.dated.day < current.dated.day
          ? successor.dated.day
          : current.dated.day
        : successor?.dated?.day;
    const fields: Partial<Record<F, DatedAmount>> = {};
    for (const field of Object.keys(current.amounts) as F[]) {
      const amount = current.amounts[field] as string;
      if (until === undefined) {
        fields[field] = { amount };
        continue;
      }
      const next = successor?.amounts[field];
      fields[field] =
        next !== undefined && Number(next) === Number(amount)
          ? { amount }
          : { amount, validity: { until, next: next === undefined ? null : Number(next) } };
    }
    prices.set(id, fields);
  }
  return { prices, unmatched };
}
