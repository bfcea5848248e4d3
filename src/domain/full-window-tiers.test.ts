import { describe, expect, it } from "vitest";
import type { CostPrice } from "./cost.js";
import { dimension, type Tier } from "./dimension.js";
import { fullWindowTier, makerThresholds } from "./full-window-tiers.js";

// Invented direct prices shaped as Anthropic's 2026-03-01 page states Claude Opus 4.6
// (data/upstream/official-anthropic/2026-03-01/pricing.md.gz): standard 5 / 25 with a "> 200K"
// bracket at 10 / 37.5, batch 2.5 / 12.5, and fast mode 30 / 150 "across the full context window".
function price(direction: "input" | "output", tier: Tier, amount: number, contextMin = 0): CostPrice {
  return {
    ...dimension(direction, { tier, contextMin }),
    label: `${direction} ${tier} ${contextMin}`,
    amount,
    unit: "mtok",
    displayUnit: "USD per 1M tokens",
    denomination: "currency",
    currency: "USD",
    confidence: "verified",
    sources: ["official-anthropic"],
  };
}

const OPUS_46_MARCH: CostPrice[] = [
  price("input", "standard", 5),
  price("output", "standard", 25),
  price("input", "standard", 10, 200000),
  price("output", "standard", 37.5, 200000),
  price("input", "batch", 2.5),
  price("output", "batch", 12.5),
  price("input", "priority", 30),
  price("output", "priority", 150),
];

describe("the maker's thresholds a request's tier is bound by (T141, T371)", () => {
  const anthropic = { provider: "anthropic" };

  it("Anthropic's fast mode (priority) is priced across the full window: the standard 200K does not bind it", () => {
    expect(fullWindowTier(anthropic, "priority")).toMatchObject({ decision: "T371" });
    expect(makerThresholds(anthropic, OPUS_46_MARCH, "priority")).toEqual([]);
  });

  it("the standard threshold still binds standard and batch requests, and another maker's priority tier", () => {
    expect(makerThresholds(anthropic, OPUS_46_MARCH, "standard")).toEqual([200000]);
    expect(makerThresholds(anthropic, OPUS_46_MARCH, "batch")).toEqual([200000]);
    expect(fullWindowTier({ provider: "openai" }, "priority")).toBeNull();
    expect(makerThresholds({ provider: "openai" }, OPUS_46_MARCH, "priority")).toEqual([200000]);
  });

  it("a threshold the fast tier states itself still binds it", () => {
    const stated = [...OPUS_46_MARCH, price("input", "priority", 60, 200000), price("output", "priority", 225, 200000)];
    expect(makerThresholds(anthropic, stated, "priority")).toEqual([200000]);
  });
});
