import { modelOf } from "../placement.js";
import { channelFor } from "./channel.js";
import { type IdentityState, miss } from "./state.js";

/**
 * Pass 3e (T280): a router's variant filed under the maker by a source (genai-prices' `openai`
 * `gpt-4o:extended`) is the router's price, never the maker's (issue 12 §6): its placement is
 * dropped and it is counted unmatched, not published as direct.
 */
export function dropRouterVariants(state: IdentityState): void {
  for (const [item] of [...state.placements]) {
    const variant = item.spelling.qualifiers.variant;
    if (variant && channelFor(item.listing.seller, modelOf(item, state.mirrors)) === "direct") {
      state.placements.delete(item);
      miss(
        state,
        item.source,
        item.listing,
        `a router's :${variant} variant filed under the maker: not the maker's price`,
      );
    }
  }
}
