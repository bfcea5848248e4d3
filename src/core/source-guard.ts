import { dimensionKey } from "../domain/dimension.js";
import type { Listing } from "../domain/observation.js";

/**
 * A source checked against its own last good run (issue 26 §1, T190–T192), before anything of
 * its payload is used. Pure: two parses in, at most one failure out.
 *
 * The unit is the *priced row*: one price of a listing with an amount above 0, keyed by seller,
 * model (as the source spells it) and dimension. Rows of 0 are left out, so an upstream that stops
 * spelling out its zeros (OpenRouter, February 2026: 2216 → 943 rows, every lost row a 0) is no
 * disappearance, and a price that drops to 0 counts as gone.
 *
 * A maker is the maker the listing names (`makerHint`), else its seller: one maker's prices moving
 * together in one source is a market move (issue 24 relies on it: DeepSeek cutting several prices
 * at once); everything a source lists moving together is a fault.
 */

/** Names of the guards, in the order they are checked; the first that fails is reported. */
export const GUARD_NAMES = [
  "empty",
  "row-drop",
  "model-drop",
  "model-flood",
  "schema-change",
  "maker-spread",
  "unit-change",
  "scale-shift",
  // The source's announcements (issue 47 §1, T424, T425; `announcement-guard.ts`).
  "announcement-flood",
  "announcement-flip",
] as const;
export type GuardName = (typeof GUARD_NAMES)[number];

/** The bounds of the guards (T190–T192); {@link DEFAULT_GUARD_BOUNDS} holds the defaults. */
export interface GuardBounds {
  /** Largest share (0–1) of the last good run's priced rows, and of its models, that may be gone (`INGEST_MAX_ROW_DROP`). */
  readonly maxDrop: number;
  /**
   * Largest number of priced models new since the last good run, as a share of that run's priced
   * models (T261): beyond it, and at least {@link minFlood} new models, the payload is a flood.
   */
  readonly maxGrowth: number;
  /** Fewest new priced models that can make a flood (a small source doubling is no fault). */
  readonly minFlood: number;
  /** A maker is hit when it lost at least this share of its priced rows. */
  readonly makerLoss: number;
  /** Largest share of the rows of makers with {@link minRows} rows that hit makers may hold (at least two hit). */
  readonly maxSpread: number;
  /** Largest share of the matched amounts that may move by one common factor (when more than one maker's). */
  readonly maxShift: number;
  /** Largest share of the matched rows that may change unit, denomination or currency. */
  readonly maxUnitChange: number;
  /** A dimension class holding at least this share of the priced rows may not vanish. */
  readonly minDimensionShare: number;
  /** Fewest rows behind a judgement: a maker, a dimension class, the matched rows of a source. */
  readonly minRows: number;
}

/** The defaults, set against the bundled history (T191: its largest real figures in the comment of each). */
export const DEFAULT_GUARD_BOUNDS: GuardBounds = {
  maxDrop: 0.25, // real: 11.0 % of rows (OpenRouter 2026-04), 12.1 % of models (models.dev 2026-01)
  maxGrowth: 1, // real: +89.0 % of models (models.dev 2025-08, a month apart; live runs are hours apart)
  minFlood: 100, // real: +1107 models at most, 46.3 % (models.dev 2026-04)
  makerLoss: 0.2,
  maxSpread: 0.5, // real: 24 % (OpenRouter 2026-04, 5 of 19 makers)
  maxShift: 0.5, // real: 3.8 % (OpenRouter 2026-01, ×0.8 over 5 makers)
  maxUnitChange: 0.25, // real: 0.15 % (LiteLLM 2026-01)
  minDimensionShare: 0.1, // real: no class of 10 rows or more ever vanished
  minRows: 10,
};

/** Why a payload failed: the guard, its figure (a share 0–1, or the factor of a shift) and the detail. */
export interface GuardFailure {
  readonly guard: GuardName;
  readonly figure: number;
  /** What was measured and the bound it passed, without the source id (see {@link guardMessage}). */
  readonly detail: string;
}

/** The last good parse a payload is checked against, and when it was observed. */
export interface LastGoodRun {
  readonly listings: readonly Listing[];
  readonly observedAt: string;
}

interface Row {
  readonly maker: string;
  readonly model: string;
  readonly amount: number;
  readonly unit: string;
  readonly dimensionClass: string;
}

/** Priced rows by key (seller, model, dimension); the first of duplicate keys wins. */
function pricedRows(listings: readonly Listing[]): Map<string, Row> {
  const rows = new Map<string, Row>();
  for (const l of listings) {
    const maker = l.makerHint ?? l.seller;
    const model = `${l.seller}\u0000${l.model}`;
    for (const p of l.prices) {
      if (!(p.amount > 0)) continue;
      const key = `${model}\u0000${dimensionKey(p.dimension)}`;
      if (rows.has(key)) continue;
      const d = p.dimension;
      rows.set(key, {
        maker,
        model,
        amount: p.amount,
        unit: `${p.unit}|${p.denomination}|${p.currency}`,
        dimensionClass: `${d.direction}/${d.modality}/${d.cache}/${d.tier}`,
      });
    }
  }
  return rows;
}

const pct = (share: number) => `${(share * 100).toFixed(1)} %`;
const bound = (share: number) => `${Math.round(share * 100)} %`;

/**
 * Checks a parse against the source's last good run (issue 26 §1).
 * @param next the listings parsed from this run's payload
 * @param last the last good run, or null on a source's first run (then only `empty` applies)
 * @returns the first guard that fails, or null when the payload may be used
 */
export function checkAgainstLastGood(
  next: readonly Listing[],
  last: LastGoodRun | null,
  bounds: GuardBounds = DEFAULT_GUARD_BOUNDS,
): GuardFailure | null {
  const rowsNow = next.reduce((n, l) => n + l.prices.length, 0);
  const rowsBefore = last ? last.listings.reduce((n, l) => n + l.prices.length, 0) : 0;
  if (rowsNow === 0)
    return { guard: "empty", figure: 0, detail: `empty payload, 0 price rows (the last good run had ${rowsBefore})` };
  if (!last) return null;
  // A listing its source said retired by the last good run (`retiresOn`, Mistral's retired models'
  // files, dropped from its docs a month later: issue 48) is not a row lost by this one.
  const lastDay = last.observedAt.slice(0, 10);
  const before = pricedRows(last.listings.filter((l) => !(l.retiresOn && l.retiresOn <= lastDay)));
  const now = pricedRows(next);
  if (before.size === 0) return null;
  return (
    disappearance(before, now, bounds) ??
    flood(before, now, bounds) ??
    schemaChange(before, now, bounds) ??
    makerSpread(before, now, bounds) ??
    unitOrScale(before, now, bounds)
  );
}

/**
 * The share of `before` (keys with their maker) gone from `now`, and that share once the maker that
 * lost most is set aside (the share itself when the source names one maker only).
 */
function goneShares(
  before: Map<string, string>,
  now: ReadonlySet<string>,
): { gone: number; share: number; rest: number } {
  const makers = new Map<string, { all: number; gone: number }>();
  let gone = 0;
  for (const [key, maker] of before) {
    const m = makers.get(maker) ?? { all: 0, gone: 0 };
    m.all += 1;
    if (!now.has(key)) {
      m.gone += 1;
      gone += 1;
    }
    makers.set(maker, m);
  }
  const share = gone / before.size;
  if (makers.size < 2) return { gone, share, rest: share };
  let top = { all: 0, gone: -1 };
  for (const m of makers.values()) if (m.gone > top.gone) top = m;
  return { gone, share, rest: (gone - top.gone) / (before.size - top.all) };
}

/**
 * `row-drop` and `model-drop`: too much of the last good run is gone — beyond the bound in all, and
 * still beyond it once the maker that lost most is set aside (one maker leaving or reshaping its
 * line in a source is the market; in a source that names one maker, that maker is everything).
 */
function disappearance(before: Map<string, Row>, now: Map<string, Row>, b: GuardBounds): GuardFailure | null {
  const modelsBefore = new Map([...before.values()].map((r) => [r.model, r.maker]));
  const checks = [
    {
      guard: "row-drop",
      what: "priced rows",
      size: before.size,
      gone: goneShares(new Map([...before].map(([key, row]) => [key, row.maker])), new Set(now.keys())),
    },
    {
      guard: "model-drop",
      what: "priced models",
      size: modelsBefore.size,
      gone: goneShares(modelsBefore, new Set([...now.values()].map((r) => r.model))),
    },
  ] as const;
  for (const { guard, what, size, gone } of checks)
    if (gone.share > b.maxDrop && gone.rest > b.maxDrop)
      return {
        guard,
        figure: gone.share,
        detail:
          `${gone.gone} of ${size} ${what} of the last good run are gone ` +
          `(-${pct(gone.share)}, more than the allowed ${bound(b.maxDrop)})`,
      };
  return null;
}

/**
 * `model-flood` (issue 33 §5, T261), a disappearance the other way round: the source names far more
 * priced models than its last good run — more than {@link GuardBounds.maxGrowth} of that run's
 * models new, and at least {@link GuardBounds.minFlood} of them. No maker is set aside: a flood
 * of invented models is one "maker" as easily as many, and a real one is accepted by hand
 * (`--accept`), as a real mass removal is.
 */
function flood(before: Map<string, Row>, now: Map<string, Row>, b: GuardBounds): GuardFailure | null {
  const modelsBefore = new Set([...before.values()].map((r) => r.model));
  const added = new Set([...now.values()].map((r) => r.model).filter((m) => !modelsBefore.has(m))).size;
  const share = added / modelsBefore.size;
  if (added < b.minFlood || share <= b.maxGrowth) return null;
  return {
    guard: "model-flood",
    figure: share,
    detail:
      `${added} priced models are new against the ${modelsBefore.size} of the last good run ` +
      `(+${pct(share)}, more than the allowed ${bound(b.maxGrowth)})`,
  };
}

/**
 * `maker-spread`, the per-maker view of a disappearance: losses under the total bound but spread
 * over the source — at least {@link MIN_SPREAD_MAKERS} makers (of {@link GuardBounds.minRows} rows
 * or more) each lost {@link GuardBounds.makerLoss} of their rows, and together they held more than
 * {@link GuardBounds.maxSpread} of those makers' rows. A maker or two leaving a source is the market.
 */
function makerSpread(before: Map<string, Row>, now: Map<string, Row>, b: GuardBounds): GuardFailure | null {
  const makers = new Map<string, { rows: number; gone: number }>();
  for (const [key, row] of before) {
    const m = makers.get(row.maker) ?? { rows: 0, gone: 0 };
    m.rows += 1;
    if (!now.has(key)) m.gone += 1;
    makers.set(row.maker, m);
  }
  const judged = [...makers.values()].filter((m) => m.rows >= b.minRows);
  const hit = judged.filter((m) => m.gone >= m.rows * b.makerLoss);
  const judgedRows = judged.reduce((n, m) => n + m.rows, 0);
  const hitRows = hit.reduce((n, m) => n + m.rows, 0);
  if (hit.length < MIN_SPREAD_MAKERS || judgedRows === 0) return null;
  const share = hitRows / judgedRows;
  if (share <= b.maxSpread) return null;
  return {
    guard: "maker-spread",
    figure: share,
    detail:
      `${hit.length} of ${judged.length} makers each lost ${bound(b.makerLoss)} or more of their priced rows, ` +
      `together ${pct(share)} of those makers' rows (more than the allowed ${bound(b.maxSpread)})`,
  };
}

/** Fewest makers a loss must hit to count as spread over the source. */
const MIN_SPREAD_MAKERS = 3;

/**
 * `schema-change`: a whole class of dimensions (direction, modality, cache, tier) the source priced
 * for more than one maker is gone (a renamed or dropped field).
 */
function schemaChange(before: Map<string, Row>, now: Map<string, Row>, b: GuardBounds): GuardFailure | null {
  const classesNow = new Set([...now.values()].map((r) => r.dimensionClass));
  const classes = new Map<string, { rows: number; makers: Set<string> }>();
  const makers = new Set<string>();
  for (const r of before.values()) {
    const c = classes.get(r.dimensionClass) ?? { rows: 0, makers: new Set<string>() };
    c.rows += 1;
    c.makers.add(r.maker);
    classes.set(r.dimensionClass, c);
    makers.add(r.maker);
  }
  for (const [cls, { rows, makers: priced }] of classes) {
    const share = rows / before.size;
    if (rows < b.minRows || share < b.minDimensionShare || classesNow.has(cls)) continue;
    // A class only one maker priced goes with that maker (unless it is all the source names).
    if (priced.size === 1 && makers.size > 1) continue;
    return {
      guard: "schema-change",
      figure: share,
      detail:
        `no price of the dimension class ${cls} any more: ${rows} priced rows (${pct(share)}) ` +
        `in the last good run, 0 now`,
    };
  }
  return null;
}

/** `unit-change` and `scale-shift`, over the rows priced in both runs. */
function unitOrScale(before: Map<string, Row>, now: Map<string, Row>, b: GuardBounds): GuardFailure | null {
  let matched = 0;
  let unitChanged = 0;
  const makersMatched = new Set<string>();
  const makersUnitChanged = new Set<string>();
  const factors = new Map<number, { rows: number; makers: Set<string> }>();
  for (const [key, old] of before) {
    const row = now.get(key);
    if (!row) continue;
    matched += 1;
    makersMatched.add(row.maker);
    if (row.unit !== old.unit) {
      unitChanged += 1;
      makersUnitChanged.add(row.maker);
      continue;
    }
    const ratio = row.amount / old.amount;
    if (Math.abs(ratio - 1) < 0.005) continue;
    const factor = Number(ratio.toPrecision(3));
    const f = factors.get(factor) ?? { rows: 0, makers: new Set<string>() };
    f.rows += 1;
    f.makers.add(row.maker);
    factors.set(factor, f);
  }
  if (matched < b.minRows) return null;
  // As with amounts: one maker's prices changing unit together is that maker's change.
  const unitShare = unitChanged / matched;
  if (unitShare > b.maxUnitChange && (makersUnitChanged.size > 1 || makersMatched.size === 1))
    return {
      guard: "unit-change",
      figure: unitShare,
      detail:
        `${unitChanged} of ${matched} rows priced in both runs (${pct(unitShare)}) changed unit, denomination ` +
        `or currency (more than the allowed ${bound(b.maxUnitChange)})`,
    };
  let top: [number, { rows: number; makers: Set<string> }] | null = null;
  for (const entry of factors) if (!top || entry[1].rows > top[1].rows) top = entry;
  if (!top) return null;
  const [factor, group] = top;
  const share = group.rows / matched;
  // One maker's prices moving together is a market move, unless that maker is all the source lists.
  const oneMakersMove = group.makers.size === 1 && makersMatched.size > 1;
  if (share <= b.maxShift || oneMakersMove) return null;
  const makers = group.makers.size === 1 ? "its only maker" : `across ${group.makers.size} makers`;
  return {
    guard: "scale-shift",
    figure: factor,
    detail:
      `${group.rows} of ${matched} amounts (${pct(share)}) moved by one factor ×${factor} against the last ` +
      `good run, ${makers} (more than the allowed ${bound(b.maxShift)}; only one maker's prices may move together)`,
  };
}

/**
 * The `lastError` message of a guard failure (T193): `<source>: guard <name>: <detail> (last good
 * run <time>)` — the guard, its figure and the bound, never a URL.
 */
export function guardMessage(source: string, failure: GuardFailure, lastGoodAt: string | null): string {
  const since = lastGoodAt ? ` (last good run ${lastGoodAt})` : "";
  return `${source}: guard ${failure.guard}: ${failure.detail}${since}`;
}
