import type { PriceObservation, SourceId } from "../domain/observation.js";
import { planKind } from "../domain/sellers.js";
import type { ResolvedListing } from "./identity/resolve.js";
import { type RejectReason, type ScreenRow, screenRows, tallyRejections } from "./plausibility.js";

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
}

/** An id ending in the word `free` (`…:free`, `…-free`, `openrouter/free`): the source says it costs nothing (T74). */
const FREE_SPELLING = /\bfree$/i;

/** True when the source says this listing is free: OpenRouter-style `:free` variants and free tiers. */
export function saysFree(r: ResolvedListing): boolean {
  return (
    r.qualifiers.variant === "free" || FREE_SPELLING.test(r.listing.model) || /\(free\)/i.test(r.listing.name ?? "")
  );
}

/** The row the guards judge for one price of a resolved listing (spelling qualifiers merged). */
export function screenRowOf(r: ResolvedListing, p: PriceObservation, listing: number, fresh = true): ScreenRow {
  return {
    source: r.source,
    listing,
    modelId: r.modelId,
    channel: r.channel,
    seller: r.listing.seller,
    dimension: { ...p.dimension, qualifiers: { ...p.dimension.qualifiers, ...r.qualifiers } },
    amount: p.amount,
    unit: p.unit,
    denomination: p.denomination,
    currency: p.currency,
    saysFree: saysFree(r),
    plan: planKind(r.listing.seller) !== null,
    fresh,
  };
}

/**
 * Judges every price of `resolved`; negative amounts never reach here (adapters skip them).
 * @param fresh the sources that ran in this run (all when omitted); the others' rows are carried
 */
export function screenListings(resolved: readonly ResolvedListing[], fresh?: ReadonlySet<SourceId>): ScreenResult {
  const rows: ScreenRow[] = [];
  const owner: [number, number][] = [];
  resolved.forEach((r, li) => {
    r.listing.prices.forEach((p, pi) => {
      rows.push(screenRowOf(r, p, li, fresh?.has(r.source) ?? true));
      owner.push([li, pi]);
    });
  });
  const verdicts = screenRows(rows);
  const dropped = new Map<number, Set<number>>();
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
  for (const [source, byReason] of tallyRejections(rows, verdicts)) {
    const total = Object.values(byReason).reduce((n, c) => n + (c ?? 0), 0);
    rejected.set(source, { total, byReason });
  }
  return { kept, rejected };
}
