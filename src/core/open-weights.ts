import type { Channel } from "../domain/channel.js";
import type { Listing } from "../domain/observation.js";
import { isOpenWeightsFamily } from "./identity/maker.js";

/**
 * Whether a model's weights are published (issue 38 §5, T344; amends T183 for the model record).
 * Pure. One rule for the model record, so `/models?openWeights=`, the model page and the exports
 * agree.
 */

/**
 * Names of a maker's API-only models inside an open-weights family (reviewed data, one line per
 * pattern over the comparison key, with its reason): the family table (T183) matches them for
 * identity, but their weights were never published.
 */
export const API_ONLY_IN_OPEN_FAMILIES: ReadonlyArray<readonly [RegExp, string, string]> = [
  [
    /^qwen[\d.-]*-(?:coder|vl|math|audio|omni)-(?:max|plus|turbo|flash|ocr)\b/,
    "alibaba",
    "Alibaba Cloud's hosted tiers (qwen-vl-max, qwen-math-plus, qwen-omni-turbo, qwen3-vl-plus): models.dev's alibaba listing says open_weights: false; the open releases carry a size (qwen2-vl-72b, qwen3-vl-30b-a3b)",
  ],
];

/** What the rule reads of one listing of the model: its channel and the listing's own `openWeights`. */
export interface WeightsListing {
  readonly channel: Channel;
  readonly listing: Pick<Listing, "openWeights">;
}

/**
 * T344: a model of an open-weights family (T183) is open weights unless its name is one of the
 * family's API-only tiers ({@link API_ONLY_IN_OPEN_FAMILIES}); otherwise the maker's own listing's
 * word wins, and without one, a listing's "open weights" stands only when no other listing says
 * the weights are closed (models.dev's aggregators disagree: Vercel lists qwen3-max-thinking as
 * open, OpenRouter and Kilo as closed). Unknown is false.
 */
export function hasOpenWeights(maker: string, key: string, listings: readonly WeightsListing[]): boolean {
  const apiOnly = API_ONLY_IN_OPEN_FAMILIES.some(([pattern, owner]) => owner === maker && pattern.test(key));
  if (!apiOnly && isOpenWeightsFamily(maker, key)) return true;
  const stated = listings.filter((l) => l.listing.openWeights !== null && l.listing.openWeights !== undefined);
  const own = stated.find((l) => l.channel === "direct");
  if (own) return own.listing.openWeights === true;
  return stated.length > 0 && stated.every((l) => l.listing.openWeights === true);
}
