import type { MakerCatalogue } from "../catalogue.js";
import { familyOf } from "../maker.js";
import { attach, found } from "./place.js";
import type { IdentityState } from "./state.js";

/**
 * Pass 2c (T280): a third party's fine-tune founds a model under its publisher, and a publisher's
 * re-upload of a maker's model attaches to the maker's model (a mirror, recorded in `mirrors`).
 * Fills `publisherNames` with the display names sources gave publishers.
 */
export function placePublishers(state: IdentityState): void {
  for (const item of state.items.filter((i) => i.evidence === "publisher")) {
    if (item.listing.publisherName) state.publisherNames.set(item.maker, item.listing.publisherName);
    const family = familyOf(item.spelling.core);
    const mirrored =
      family && family !== item.maker ? exactOrLoose(state.catalogues.get(family), item.spelling.key) : null;
    if (mirrored && family) {
      state.placements.set(item, { slug: mirrored, key: item.spelling.key, qualifiers: {} });
      state.mirrors.set(item, family);
      continue;
    }
    state.placements.set(item, attach(state, item) ?? found(state, item));
  }
}

/** The slug `key` names in `catalogue` exactly, else by `find`, else null (also without a catalogue). */
function exactOrLoose(catalogue: MakerCatalogue | undefined, key: string): string | null {
  if (!catalogue) return null;
  return catalogue.exactly(key) ?? catalogue.find(key) ?? null;
}
