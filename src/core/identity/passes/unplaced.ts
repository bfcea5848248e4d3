import { closest } from "fastest-levenshtein";
import { attach, elsewhere, placeElsewhere } from "./place.js";
import { type IdentityState, miss } from "./state.js";

/**
 * Pass 3c (T280): what is still unplaced attaches now that every model is founded, or, read from the
 * family table alone, lands on the one model of another maker its spelling names exactly (a third
 * party's fine-tune named after its base family: nano-gpt's `QwQ-32B-ArliAI-RpR-v1` is ArliAI's);
 * else it is counted unmatched with the maker's nearest model. A listing never founds here.
 */
export function placeUnplaced(state: IdentityState): void {
  for (const item of state.unplaced) {
    if (state.placements.has(item)) continue;
    const placed = attach(state, item);
    const other = placed || item.evidence !== "family" ? null : elsewhere(state, item.spelling.key, true, item.maker);
    if (placed) state.placements.set(item, placed);
    else if (other) placeElsewhere(state, item, other);
    else {
      const catalogue = state.catalogues.get(item.maker);
      const nearest = catalogue ? closest(item.spelling.key, catalogue.slugs()) : null;
      miss(
        state,
        item.source,
        item.listing,
        item.evidence === "org"
          ? `${item.maker} model not listed by its maker, and no source says it is open weights`
          : `names no ${item.maker} model`,
        nearest ? `${item.maker}/${nearest}` : null,
      );
    }
  }
}
