import { describe, expect, it } from "vitest";
import { hasOpenWeights, type WeightsListing } from "./open-weights.js";

// T344 on the listings the recorded models.dev payload (data/upstream/models-dev/2026-06-01) gives:
// qwen-vl-max is `open_weights: false` at alibaba, alibaba-cn and llmgateway; qwen3-max-thinking is
// `true` at vercel but `false` at openrouter and kilo.
const listing = (channel: WeightsListing["channel"], openWeights: boolean | null): WeightsListing => ({
  channel,
  listing: { openWeights },
});

describe("hasOpenWeights (T344)", () => {
  it("an API-only tier of an open family is not open weights (qwen-vl-max), a sized release is", () => {
    const closed = [listing("direct", false), listing("other", false)];
    expect(hasOpenWeights("alibaba", "qwen-vl-max", closed)).toBe(false);
    expect(hasOpenWeights("alibaba", "qwen3-vl-plus", closed)).toBe(false);
    expect(hasOpenWeights("alibaba", "qwen-math-plus", [])).toBe(false);
    // The family rule (T183) still holds for released weights, whatever a listing says.
    expect(hasOpenWeights("alibaba", "qwen2-vl-72b-instruct", [listing("other", false)])).toBe(true);
    expect(hasOpenWeights("alibaba", "qwen3-vl-30b-a3b", [])).toBe(true);
  });

  it("without the maker's word, one listing's 'open' against others' 'closed' is closed (qwen3-max-thinking)", () => {
    const listings = [listing("other", true), listing("reseller_1", false), listing("other", false)];
    expect(hasOpenWeights("alibaba", "qwen3-max-thinking", listings)).toBe(false);
    expect(hasOpenWeights("alibaba", "qwen3-max-thinking", [listing("other", true), listing("other", null)])).toBe(
      true,
    );
  });

  it("the maker's own listing decides", () => {
    expect(hasOpenWeights("alibaba", "qwen3-coder-plus", [listing("direct", true), listing("other", false)])).toBe(
      true,
    );
    expect(hasOpenWeights("openai", "gpt-4o", [listing("direct", false), listing("other", true)])).toBe(false);
    expect(hasOpenWeights("openai", "gpt-4o", [])).toBe(false);
  });
});
