import { elsewhere, placeElsewhere } from "./place.js";
import { type IdentityState, miss } from "./state.js";

/**
 * Pass 3d (T280): a spelling no maker's name reaches still names a model when exactly one model of
 * any maker answers it (genai-prices' `rocinante-12b` for OpenRouter's `thedrummer/rocinante-12b`,
 * issue 25 §6); a bare word names nothing across makers (fal's `…/preview/ultra` is no
 * `stability-ai/ultra`). Every other orphan is counted unmatched.
 */
export function placeOrphans(state: IdentityState): void {
  for (const orphan of state.orphans) {
    const word = !/\d/.test(orphan.spelling.key) && !orphan.spelling.key.includes("-");
    const only = word ? null : elsewhere(state, orphan.spelling.key, false);
    if (only) placeElsewhere(state, orphan, only);
    else
      miss(
        state,
        orphan.source,
        orphan.listing,
        "no maker: no organisation, family or maker seller names one, nor one model",
      );
  }
}
