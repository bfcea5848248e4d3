import type { Listing } from "../domain/observation.js";
import { isOpenWeightsFamily } from "./identity/maker.js";

/**
 * Whether a model's weights are published (issue 38 §5, T344; amends T183 for the model record).
 * Pure. One rule for the model record, so `/models?openWeights=`, the model page and the exports
 * agree.
 */

/**
 * Names of a maker's API-only models (reviewed data, one line per pattern over the comparison key,
 * with its reason): closed weights whatever a listing says, and never matched by the open-weights
 * family table (T183), which matches some of them for identity.
 */
export const API_ONLY_MODELS: ReadonlyArray<readonly [RegExp, string, string]> = [
  [
    /^qwen[\d.-]*-(?:vl|math|audio|omni)-(?:max|plus|turbo|flash|ocr)\b/,
    "alibaba",
    "Alibaba Cloud's hosted tiers (qwen-vl-max, qwen-math-plus, qwen-omni-turbo, qwen3-vl-plus): models.dev's alibaba listing says open_weights: false; the open releases carry a size (qwen2-vl-72b, qwen3-vl-30b-a3b)",
  ],
  [
    /^qwen(?:-coder-(?:plus|turbo)|3-coder-flash)\b/,
    "alibaba",
    "Alibaba Cloud's hosted coder tiers: models.dev's alibaba and llmgateway listings say open_weights: false (qwen3-coder-plus, which its alibaba listing calls open, is not here)",
  ],
  [
    /^qwen[\d.]*-max\b/,
    "alibaba",
    "Qwen-Max (qwen-max, qwen3-max, qwen3-max-thinking) is served by Alibaba Cloud only; models.dev's OpenRouter and Kilo listings say open_weights: false (its Vercel listing says true)",
  ],
];

/** What the rule reads of one listing of the model: the listing's own `openWeights`. */
export interface WeightsListing {
  readonly listing: Pick<Listing, "openWeights">;
}

/**
 * T344: a model named by {@link API_ONLY_MODELS} is closed; else a model of an open-weights family
 * (T183) is open; else the first listing that states it, in the model record's metadata preference
 * (the maker's own listing first), decides. Unknown is false.
 */
export function hasOpenWeights(maker: string, key: string, listings: readonly WeightsListing[]): boolean {
  if (API_ONLY_MODELS.some(([pattern, owner]) => owner === maker && pattern.test(key))) return false;
  if (isOpenWeightsFamily(maker, key)) return true;
  const stated = listings.find((l) => l.listing.openWeights !== null && l.listing.openWeights !== undefined);
  return stated?.listing.openWeights === true;
}
