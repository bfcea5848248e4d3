import type { PublishedPrice } from "../domain/dataset.js";
import { type Dimension, dimensionKey } from "../domain/dimension.js";
import type { SourceId } from "../domain/observation.js";
import type { ResolvedListing, UnmatchedListing } from "./identity/resolve.js";

/**
 * What this run's payloads still hold (issue 24 §5, T175). Pure.
 *
 * A price of the last version that is not published now went for one of three reasons: its
 * listings are gone from their sources (`absent`: the market moved), a source still lists it but
 * identity could not place the listing (`unplaced`: churn, such as a founding listing gone), or a
 * source still lists it with that price but the guards quarantined the row (`placed`). Only the
 * first is a removal.
 */
export type Whereabouts = "placed" | "unplaced" | "absent";

/** Qualifiers that say where a price is served; a collapsed region row (T76) matches any of them. */
const WHERE = new Set(["region", "backend"]);

export class ListedIndex {
  readonly #dimensions = new Set<string>();
  readonly #unplaced = new Set<string>();
  /** `source|seller|model` of every placed listing → the context window it states now (issue 52 §3). */
  readonly #listings = new Map<string, number | null>();
  /** `modelId|channel|seller` → the fresh sources that list the offer now (issue 52 §3, T495). */
  readonly #offers = new Map<string, Set<SourceId>>();

  /**
   * @param resolved every listing identity placed this run, with all its prices (before the guards)
   * @param unmatched every listing it could not place
   * @param fresh the sources that ran and parsed in this run (their listings are this run's own);
   *   without it every placed listing counts as listed now
   */
  constructor(
    resolved: readonly ResolvedListing[],
    unmatched: readonly UnmatchedListing[],
    fresh?: ReadonlySet<SourceId>,
  ) {
    for (const r of resolved) {
      this.#listings.set(listingKey(r.source, r.seller, r.listing.model), r.listing.contextWindow);
      if (!fresh || fresh.has(r.source)) {
        const offer = offerKey(r);
        this.#offers.set(offer, (this.#offers.get(offer) ?? new Set()).add(r.source));
      }
      for (const p of r.listing.prices) {
        const dimension = { ...p.dimension, qualifiers: { ...p.dimension.qualifiers, ...r.qualifiers } };
        // (under the seller the price is published under, as `whereListed` reads it: T325)
        this.#dimensions.add(`${listingKey(r.source, r.seller, r.listing.model)}|${placeKey(dimension)}`);
      }
    }
    for (const u of unmatched) this.#unplaced.add(listingKey(u.source, u.seller, u.model));
  }

  /** Where the listings behind `price` (a price of an earlier version) are in this run's payloads. */
  whereListed(price: PublishedPrice): Whereabouts {
    let unplaced = false;
    const dimension = placeKey(price);
    for (const o of price.observations) {
      if (o.listing === undefined) continue;
      const listing = listingKey(o.source, price.seller, o.listing);
      if (this.#dimensions.has(`${listing}|${dimension}`)) return "placed";
      if (this.#unplaced.has(listing)) unplaced = true;
    }
    return unplaced ? "unplaced" : "absent";
  }

  /**
   * The fresh sources that list `price`'s offer (its model under its channel and seller) now, whatever
   * dimensions they state for it (issue 52 §3, T495).
   */
  offeredBy(price: Pick<PublishedPrice, "modelId" | "channel" | "seller">): ReadonlySet<SourceId> {
    return this.#offers.get(offerKey(price)) ?? new Set();
  }

  /**
   * Whether `source` still lists its listing `model` under `seller` now (with any prices), and the
   * context window (tokens) it states for it: undefined when the listing is gone.
   */
  listingNow(source: SourceId, seller: string, model: string): { readonly contextWindow: number | null } | undefined {
    const key = listingKey(source, seller, model);
    return this.#listings.has(key) ? { contextWindow: this.#listings.get(key) ?? null } : undefined;
  }
}

function offerKey(p: Pick<PublishedPrice, "modelId" | "channel" | "seller">): string {
  return `${p.modelId}|${p.channel}|${p.seller}`;
}

function listingKey(source: SourceId, seller: string, model: string): string {
  return `${source}|${seller}|${model}`;
}

function placeKey(d: Dimension): string {
  const qualifiers = Object.fromEntries(Object.entries(d.qualifiers).filter(([k]) => !WHERE.has(k)));
  return dimensionKey({ ...d, qualifiers });
}
