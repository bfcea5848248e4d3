import type { PublishedPrice } from "../domain/dataset.js";
import { dimensionKey } from "../domain/dimension.js";

/**
 * Listings that moved (T87). Pure.
 *
 * A source's listing (its own spelling of a model, for one seller) can land on another model from
 * one run to the next when identity learns more (the maker starts listing `qwen3-vl-30b-a3b-instruct`
 * and every reseller's `Qwen3-VL-30B-A3B-Instruct` follows it). The seller did not stop selling:
 * the old model's price is no `price_removed`, and it is not served on as a graced price either.
 */

/** Where each fresh source listing backs a dimension: `source|seller|listing|dimension` → model ids. */
export type ListingIndex = ReadonlyMap<string, ReadonlySet<string>>;

/** Indexes the fresh observations of `prices` by source, seller, listing and dimension. */
export function indexListings(prices: readonly PublishedPrice[]): ListingIndex {
  const index = new Map<string, Set<string>>();
  for (const p of prices) {
    const dim = dimensionKey(p);
    for (const o of p.observations) {
      if (!o.fresh || o.listing === undefined) continue;
      const key = `${o.source}|${p.seller}|${o.listing}|${dim}`;
      const models = index.get(key) ?? new Set<string>();
      models.add(p.modelId);
      index.set(key, models);
    }
  }
  return index;
}

/**
 * The model another of `then`'s listings backs now for the same seller and dimension, or null when
 * none of its listings moved. `then` is a price of an earlier run (its observations as they were
 * last seen, fresh or carried).
 */
export function movedTo(then: PublishedPrice, now: ListingIndex): string | null {
  const dim = dimensionKey(then);
  for (const o of then.observations) {
    if (o.listing === undefined) continue;
    const models = now.get(`${o.source}|${then.seller}|${o.listing}|${dim}`);
    if (!models) continue;
    for (const m of models) if (m !== then.modelId) return m;
  }
  return null;
}
