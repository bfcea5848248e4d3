import type { PublishedPrice } from "../domain/dataset.js";
import type { SourceId } from "../domain/observation.js";
import type { ListedIndex } from "./listed-index.js";

/**
 * A removal needs the listing gone, not one recorder's copy of it (issue 52 §3, T495). Pure.
 *
 * A price of the last version that no source states now is held, not removed, when every recorder
 * that stated it dropped the listing itself (the model is gone from the seller's list in that source,
 * not one dimension of it, and none of them is the seller's own list) while another fresh source still lists the same offer — the model under
 * the same channel and seller, whatever dimensions it states. The removal waits for that source to
 * drop the offer too: the run it does, the price goes (dated then, T174). models.dev dropping a
 * reseller's model while Portkey still lists it is no removal; models.dev keeping the listing and
 * dropping its cache-write price is (the recorder edited the price, not its copy of the list).
 * @returns the recorders whose drop is held (each counted `removal_held` in `/sources`), or null
 */
export function heldRemoval(
  price: PublishedPrice,
  listed: Pick<ListedIndex, "listingNow" | "offeredBy">,
): readonly SourceId[] | null {
  const recorders = new Set(price.observations.filter((o) => o.listing !== undefined).map((o) => o.source));
  // The seller's own list dropping the offer is the seller's word, not a recorder's copy.
  if (recorders.size === 0 || price.observations.some((o) => o.authoritative)) return null;
  for (const o of price.observations)
    if (o.listing !== undefined && listed.listingNow(o.source, price.seller, o.listing) !== undefined) return null;
  const others = [...listed.offeredBy(price)].filter((s) => !recorders.has(s));
  return others.length > 0 ? [...recorders].sort() : null;
}

/**
 * A bracket gone together with its threshold (issue 52 §3, T495): a context bracket (`contextMin` >
 * 0) that a recorder no longer states while the same listing now states a context window at or
 * below the bracket's threshold, so no request can reach the bracket. That is the recorder
 * correcting the model's context (LiteLLM dropping an Azure `> 272K` bracket while setting the
 * context to 272K), not a price removed: it is left out of the feed.
 */
export function correctsContext(price: PublishedPrice, listed: Pick<ListedIndex, "listingNow">): boolean {
  if (price.contextMin <= 0) return false;
  return price.observations.some((o) => {
    if (o.listing === undefined) return false;
    const window = listed.listingNow(o.source, price.seller, o.listing)?.contextWindow;
    return window !== undefined && window !== null && window <= price.contextMin;
  });
}
