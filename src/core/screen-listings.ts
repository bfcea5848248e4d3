import { amountsAgree } from "../domain/amount.js";
import { priceKey } from "../domain/dataset.js";
import { dimensionKey } from "../domain/dimension.js";
import type { PriceObservation, SourceId } from "../domain/observation.js";
import { planKind } from "../domain/sellers.js";
import { coherentMoves } from "./coherent-moves.js";
import { copiedPrices } from "./copied-prices.js";
import type { ResolvedListing } from "./identity/resolve.js";
import { OUTLIER_FACTOR, type RejectReason, type ScreenRow, screenRows, tallyRejections } from "./plausibility.js";
import type { PriorPrice } from "./reconcile.js";

/**
 * Applies the plausibility guards (`plausibility.ts`, T73/T74) to resolved listings before
 * reconciliation: every price row is judged, quarantined rows are dropped from their listing.
 */

/** Rejected rows of one source: total and per reason. */
export interface SourceRejections {
  readonly total: number;
  readonly byReason: Readonly<Partial<Record<RejectReason, number>>>;
}

/** What {@link screenListings} returns. */
export interface ScreenResult {
  /** The input listings with quarantined prices removed (same order; a listing may be left with none). */
  readonly kept: ResolvedListing[];
  /** Rejections per source (sources without any are absent). */
  readonly rejected: ReadonlyMap<SourceId, SourceRejections>;
  /** The statements that moved coherently in this run, as `priceKey|source` (T170; empty without a prior). */
  readonly coherent: ReadonlySet<string>;
}

/** An id ending in the word `free` (`…:free`, `…-free`, `openrouter/free`): the source says it costs nothing (T74). */
const FREE_SPELLING = /\bfree$/i;

/**
 * True when the source says this listing is free: OpenRouter-style `:free` variants and free tiers,
 * and a listing the source states free in its own words (`statesFree`: a maker's page, T434).
 */
export function saysFree(r: ResolvedListing): boolean {
  return (
    r.listing.statesFree === true ||
    r.qualifiers.variant === "free" ||
    FREE_SPELLING.test(r.listing.model) ||
    /\(free\)/i.test(r.listing.name ?? "")
  );
}

/** The row the guards judge for one price of a resolved listing (spelling qualifiers merged). */
export function screenRowOf(r: ResolvedListing, p: PriceObservation, listing: number, fresh = true): ScreenRow {
  return {
    source: r.source,
    listing,
    modelId: r.modelId,
    channel: r.channel,
    seller: r.seller,
    dimension: { ...p.dimension, qualifiers: { ...p.dimension.qualifiers, ...r.qualifiers } },
    amount: p.amount,
    unit: p.unit,
    denomination: p.denomination,
    currency: p.currency,
    saysFree: saysFree(r),
    plan: planKind(r.listing.seller) !== null,
    fresh,
    ...(p.thresholdDerived ? { thresholdDerived: true } : {}),
  };
}

/** The published price a row votes in, keyed as reconciliation keys it (`priceKey`). */
function rowKey(r: ScreenRow): string {
  return priceKey(
    { modelId: r.modelId, channel: r.channel, seller: r.seller, unit: r.unit, ...r.dimension },
    dimensionKey(r.dimension),
  );
}

/**
 * Marks the rows whose source shows fresh evidence of a market move (T171, {@link ScreenRow.moved}):
 * a coherent move made now from last run's published amount (maker-wide or corroborated,
 * `coherent-moves.ts`), or one made in an earlier run that the source still states (`movedFrom`). A
 * move made now that rescales the source's whole listing by one factor of {@link OUTLIER_FACTOR} or
 * more is a unit slip, not a market move.
 */
export function markMovers(
  rows: readonly ScreenRow[],
  prior: ReadonlyMap<string, PriorPrice>,
): { rows: ScreenRow[]; coherent: Set<string> } {
  const keys = rows.map(rowKey);
  const coherent = coherentMoves(
    rows.map((r, i) => ({ ...r, key: keys[i]! })),
    prior,
  );
  const factorsOf = new Map<number, number[]>();
  const then = rows.map((r, i) => {
    const published = prior.get(keys[i]!);
    const previous = published?.observations?.find((o) => o.source === r.source);
    if (!published || !previous || !(previous.amount > 0) || !(r.amount > 0)) return null;
    factorsOf.set(r.listing, [...(factorsOf.get(r.listing) ?? []), r.amount / previous.amount]);
    return { published, previous };
  });
  const marked = rows.map((r, i) => {
    const t = then[i];
    if (!t) return r;
    if (amountsAgree(t.previous.amount, r.amount))
      return t.previous.movedFrom !== undefined ? { ...r, moved: true } : r;
    if (!amountsAgree(t.previous.amount, t.published.amount) || !coherent.has(`${keys[i]}|${r.source}`)) return r;
    const factor = r.amount / t.previous.amount;
    const factors = factorsOf.get(r.listing) ?? [];
    const slip =
      factors.length >= 2 &&
      (factor >= OUTLIER_FACTOR || factor <= 1 / OUTLIER_FACTOR) &&
      factors.every((f) => Math.abs(f / factor - 1) <= 0.005);
    return slip ? r : { ...r, moved: true };
  });
  return { rows: marked, coherent };
}

/**
 * Judges every price of `resolved`; negative amounts never reach here (adapters skip them).
 * @param fresh the sources that ran in this run (all when omitted); the others' rows are carried
 * @param prior last run's published prices by `priceKey`, for the evidence of market moves (T171)
 */
export function screenListings(
  resolved: readonly ResolvedListing[],
  fresh?: ReadonlySet<SourceId>,
  prior?: ReadonlyMap<string, PriorPrice>,
): ScreenResult {
  const rows: ScreenRow[] = [];
  const owner: [number, number][] = [];
  // A price copied from a sibling model (T365) is no evidence: it is dropped before any guard sees it.
  const copied = copiedPrices(resolved);
  const copiedBySource = new Map<SourceId, number>();
  const dropped = new Map<number, Set<number>>();
  resolved.forEach((r, li) => {
    r.listing.prices.forEach((p, pi) => {
      if (copied.has(`${li}#${pi}`)) {
        copiedBySource.set(r.source, (copiedBySource.get(r.source) ?? 0) + 1);
        dropped.set(li, (dropped.get(li) ?? new Set<number>()).add(pi));
        return;
      }
      rows.push(screenRowOf(r, p, li, fresh?.has(r.source) ?? true));
      owner.push([li, pi]);
    });
  });
  const movers = prior ? markMovers(rows, prior) : { rows, coherent: new Set<string>() };
  const verdicts = screenRows(movers.rows);
  verdicts.forEach((v, i) => {
    if (v === null) return;
    const [li, pi] = owner[i]!;
    const set = dropped.get(li) ?? new Set<number>();
    set.add(pi);
    dropped.set(li, set);
  });
  const kept = resolved.map((r, li) => {
    const drop = dropped.get(li);
    return drop ? { ...r, listing: { ...r.listing, prices: r.listing.prices.filter((_, pi) => !drop.has(pi)) } } : r;
  });
  const rejected = new Map<SourceId, SourceRejections>();
  const tally = tallyRejections(rows, verdicts);
  for (const [source, n] of copiedBySource) tally.set(source, { ...(tally.get(source) ?? {}), copied_price: n });
  for (const [source, byReason] of tally) {
    const total = Object.values(byReason).reduce((n, c) => n + (c ?? 0), 0);
    rejected.set(source, { total, byReason });
  }
  return { kept, rejected, coherent: movers.coherent };
}
