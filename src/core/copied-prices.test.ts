import { describe, expect, it } from "vitest";
import { recordedAdapter } from "../../test/recorded-payloads.js";
import type { Listing } from "../domain/observation.js";
import { litellmSource } from "../sources/litellm/index.js";
import { COPIED_PRICES, copiedPrices } from "./copied-prices.js";
import type { ResolvedListing } from "./identity/resolve.js";

// T365 on LiteLLM's real payloads: its Kimi Thinking Preview entry holds Kimi K2's prices from 2026-01.
const { listings } = recordedAdapter(litellmSource);

/** LiteLLM's listings of one recorded run as identity would hand them on (only `source` and `listing` are read). */
function resolvedOf(date: string): ResolvedListing[] {
  return listings(date).map(
    (listing: Listing) =>
      ({
        source: "litellm",
        listing,
        modelId: listing.model,
        maker: "",
        channel: "direct",
        seller: listing.seller,
        qualifiers: {},
        canonicalSpelling: true,
      }) satisfies ResolvedListing,
  );
}

/** The copied prices of a run as `model direction/cache=amount`. */
function copiedIn(date: string): string[] {
  const resolved = resolvedOf(date);
  return [...copiedPrices(resolved)]
    .map((k) => {
      const [li, pi] = k.split("#").map(Number) as [number, number];
      const r = resolved[li]!;
      const p = r.listing.prices[pi]!;
      return `${r.listing.model} ${p.dimension.direction}/${p.dimension.cache}=${p.amount}`;
    })
    .sort();
}

describe("prices a source copied from a sibling model (T365)", () => {
  it("every reviewed line gives its reason and at least one sibling", () => {
    for (const lines of Object.values(COPIED_PRICES))
      for (const [siblings, reason] of Object.values(lines)) {
        expect(siblings.length).toBeGreaterThan(0);
        expect(reason.length).toBeGreaterThan(40);
      }
  });

  it("2026-06-01: LiteLLM's Kimi Thinking Preview 0.6 / 2.5 / cache read 0.15 equal its Kimi K2 entries: all three copied", () => {
    expect(copiedIn("2026-06-01")).toEqual([
      "kimi-thinking-preview input/none=0.6",
      "kimi-thinking-preview input/read=0.15",
      "kimi-thinking-preview output/none=2.5",
    ]);
  });

  it("2025-12-01: LiteLLM's own 30 / 30 for Kimi Thinking Preview differs from K2's: nothing copied", () => {
    expect(copiedIn("2025-12-01")).toEqual([]);
  });
});
