import { describe, expect, it } from "vitest";
import { hasOpenWeights, type WeightsListing } from "./open-weights.js";

// T344 on the listings the recorded models.dev payload (data/upstream/models-dev/2026-06-01) gives:
// qwen-vl-max is `open_weights: false` at alibaba, alibaba-cn and llmgateway; qwen3-max-thinking is
// `true` at vercel but `false` at openrouter and kilo. Listings come in the model record's order.
const listing = (openWeights: boolean | null): WeightsListing => ({ listing: { openWeights } });

describe("hasOpenWeights (T344)", () => {
  it("an API-only tier of an open family is closed (qwen-vl-max), a sized release is open", () => {
    expect(hasOpenWeights("alibaba", "qwen-vl-max", [listing(false)])).toBe(false);
    expect(hasOpenWeights("alibaba", "qwen3-vl-plus", [])).toBe(false);
    expect(hasOpenWeights("alibaba", "qwen-math-plus", [])).toBe(false);
    expect(hasOpenWeights("alibaba", "qwen3-coder-flash", [listing(true)])).toBe(false);
    // The maker's own listing calls qwen3-coder-plus open (models.dev's alibaba): no reviewed line overrides it.
    expect(hasOpenWeights("alibaba", "qwen3-coder-plus", [listing(true), listing(false)])).toBe(true);
    // The family rule (T183) still holds for released weights, whatever a listing says.
    expect(hasOpenWeights("alibaba", "qwen2-vl-72b-instruct", [listing(false)])).toBe(true);
    expect(hasOpenWeights("alibaba", "qwen3-vl-30b-a3b", [])).toBe(true);
  });

  it("Qwen-Max is closed even when the preferred listing says open (qwen3-max-thinking at Vercel)", () => {
    expect(hasOpenWeights("alibaba", "qwen3-max-thinking", [listing(true), listing(false), listing(false)])).toBe(
      false,
    );
    expect(hasOpenWeights("alibaba", "qwen-max", [listing(true)])).toBe(false);
  });

  it("otherwise the first listing that states it decides; unknown is false", () => {
    expect(hasOpenWeights("ai21", "jamba-large-1-7", [listing(null), listing(true), listing(false)])).toBe(true);
    expect(hasOpenWeights("openai", "gpt-4o", [listing(false), listing(true)])).toBe(false);
    expect(hasOpenWeights("openai", "gpt-4o", [])).toBe(false);
  });
});
