import { amountsAgree } from "../domain/amount.js";
import type { Dataset } from "../domain/dataset.js";
import { dimensionKey } from "../domain/dimension.js";
import type { Listing, PriceObservation, SourceId } from "../domain/observation.js";

/**
 * A maker's page that moves a price against every aggregator waits for the next fetch (issue 46 §4,
 * T467). Pure. The maker's word wins at once when it moves a price the market also moves, and when
 * it prices something no aggregator states; but a page that moves a price more than
 * {@link PENDING_MOVE_FACTOR} away from EVERY aggregator's amount of it is how a broken page (columns
 * rotated, a future row read as today's) would reach users at the highest confidence. Such a move is
 * held: the price keeps the amount of the page's last good copy and carries the new one as `pending`
 * (`{amount, since}`, stored with the source's listings and shown on the price's evidence and the
 * price, never as its amount). The next fetch that states the same amount publishes it; one that
 * states the old amount again drops the pending move; another amount starts a new one.
 *
 * "Every aggregator" is the amounts the other sources gave the price in the previous published
 * version (each observation but the page's own): the market the page moves against.
 */

/** A move further than this factor from every aggregator's amount waits for the next fetch. */
export const PENDING_MOVE_FACTOR = 1.5;

/** The held listings and one label per held price (`/sources`, `pending move: …`). */
export interface HeldMoves {
  readonly listings: Listing[];
  readonly moves: string[];
}

const keyOf = (seller: string, model: string, p: Pick<PriceObservation, "dimension" | "unit">) =>
  `${seller}\u0000${model}\u0000${dimensionKey(p.dimension)}\u0000${p.unit}`;

/** How far apart two amounts are, as a factor ≥ 1 (a price of 0 against any other is infinitely far). */
function factorApart(a: number, b: number): number {
  if (a === b) return 1;
  if (a <= 0 || b <= 0) return Number.POSITIVE_INFINITY;
  return Math.max(a / b, b / a);
}

/** The other sources' amounts of each price the page stated in the previous version, by the page's listing key. */
function aggregatorAmounts(previous: Dataset | null, source: SourceId): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const p of previous?.prices ?? []) {
    const own = p.observations.find((o) => o.source === source && o.listing !== undefined);
    if (!own?.listing) continue;
    const others = p.observations.filter((o) => o.source !== source).map((o) => o.amount);
    if (others.length > 0) out.set(keyOf(p.seller, own.listing, { dimension: p, unit: p.unit }), others);
  }
  return out;
}

/**
 * The last good copy's listings when the page answers that it has not changed (304 Not Modified):
 * the same copy again is the next fetch stating each held move, which is published now (T467).
 */
export function confirmPending(carried: readonly Listing[]): { listings: Listing[]; confirmed: number } {
  let confirmed = 0;
  const listings = carried.map((l) => {
    if (!l.prices.some((p) => p.pending)) return l;
    const prices = l.prices.map((p) => {
      if (!p.pending) return p;
      confirmed += 1;
      const { pending, validity: _then, ...rest } = p;
      return { ...rest, amount: pending.amount };
    });
    return { ...l, prices };
  });
  return { listings, confirmed };
}

/**
 * Holds the page's moves against every aggregator (see the module comment).
 * @param listings the page's listings parsed now (after its guards)
 * @param carried its last good copy's listings (null on its first run: nothing is held)
 * @param runTime the run's ISO time, the `since` of a new pending move
 */
export function holdPendingMoves(
  source: SourceId,
  listings: readonly Listing[],
  carried: readonly Listing[] | null,
  previous: Dataset | null,
  runTime: string,
): HeldMoves {
  if (!carried) return { listings: [...listings], moves: [] };
  const before = new Map<string, PriceObservation>();
  for (const l of carried) for (const p of l.prices) before.set(keyOf(l.seller, l.model, p), p);
  const market = aggregatorAmounts(previous, source);
  const moves: string[] = [];
  const held = listings.map((l) => {
    let changed = false;
    const prices = l.prices.map((p) => {
      const then = before.get(keyOf(l.seller, l.model, p));
      if (!then || amountsAgree(then.amount, p.amount)) return p; // new, or not moved
      if (then.pending && amountsAgree(then.pending.amount, p.amount)) return p; // the next fetch agrees
      const others = market.get(keyOf(l.seller, l.model, p)) ?? [];
      if (others.length === 0 || others.some((a) => factorApart(a, p.amount) <= PENDING_MOVE_FACTOR)) return p;
      changed = true;
      moves.push(
        `pending move: ${l.seller}/${l.model} ${dimensionKey(p.dimension)} ${then.amount} → ${p.amount} ` +
          `(every aggregator states ${[...new Set(others)].join(", ")}); published once the next fetch states it too`,
      );
      const { validity: _now, pending: _was, ...rest } = p;
      return {
        ...rest,
        amount: then.amount,
        ...(then.validity ? { validity: then.validity } : {}),
        pending: { amount: p.amount, since: runTime },
      };
    });
    return changed ? { ...l, prices } : l;
  });
  return { listings: held, moves };
}
