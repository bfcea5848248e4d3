import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { TIERS } from "./dimension.js";
import { LITELLM_TIER_SUFFIX, litellmKey, splitLitellmKey } from "./litellm-key.js";

// Issue 45 §4, T398: LiteLLM's key grammar is written once, read by the adapter and written by the
// LiteLLM price file. Checked on every price key of the recorded 2026-06-01 LiteLLM payload.
const RECORDED = JSON.parse(
  gunzipSync(readFileSync("data/upstream/litellm/2026-06-01/model_prices_and_context_window.json.gz")).toString("utf8"),
) as Record<string, Record<string, unknown>>;
const KEYS = [...new Set(Object.values(RECORDED).flatMap((entry) => Object.keys(entry)))].filter((k) => /cost/.test(k));

describe("LiteLLM's price-key grammar (issue 45 §4, T398)", () => {
  it("splits the recorded keys into base, tier and threshold", () => {
    expect(splitLitellmKey("input_cost_per_token")).toEqual({
      base: "input_cost_per_token",
      tier: "standard",
      threshold: 0,
    });
    expect(splitLitellmKey("input_cost_per_token_above_200k_tokens_priority")).toEqual({
      base: "input_cost_per_token",
      tier: "priority",
      threshold: 200_000,
    });
    expect(splitLitellmKey("output_cost_per_token_batches").tier).toBe("batch");
    // `_batch_requests`, an older spelling, is read as batch and never written.
    expect(splitLitellmKey("input_cost_per_token_batch_requests")).toEqual({
      base: "input_cost_per_token",
      tier: "batch",
      threshold: 0,
    });
    // One suffix per tier, so a written key reads back as its own tier.
    expect(new Set(TIERS.map((t) => LITELLM_TIER_SUFFIX[t])).size).toBe(TIERS.length);
  });

  it("writes back every recorded key it splits (the `_batch_requests` alias aside)", () => {
    const tiered = KEYS.filter((k) => splitLitellmKey(k).tier !== "standard" || splitLitellmKey(k).threshold > 0);
    expect(tiered.length).toBeGreaterThan(0);
    for (const key of KEYS.filter((k) => !k.endsWith("_batch_requests"))) {
      const { base, tier, threshold } = splitLitellmKey(key);
      expect(litellmKey(base, tier, threshold), key).toBe(key);
    }
  });

  it("has no spelling for a threshold in other than whole thousands", () => {
    expect(litellmKey("input_cost_per_token", "standard", 128_500)).toBeNull();
    expect(litellmKey("input_cost_per_token", "flex", 0)).toBe("input_cost_per_token_flex");
  });
});
