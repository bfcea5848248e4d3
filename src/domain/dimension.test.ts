import { describe, expect, it } from "vitest";
import { CHANNEL_NAMES, CHANNELS, isChannel, MULTI_SELLER_CHANNELS, NAMED_RESELLERS } from "./channel.js";
import { CONFIDENCE_LEVELS, confidenceRank, isConfidence } from "./confidence.js";
import { priceKey } from "./dataset.js";
import { dimension, dimensionKey, isBaseTextDimension } from "./dimension.js";
import { displayUnit, NO_CURRENCY, UNITS } from "./unit.js";

// The dimension, channel, confidence and unit vocabulary (api-v1.md, D2, D7, D8, D27). Unit tests.

describe("dimension and dimensionKey (D27)", () => {
  it("fills the common case: text, standard, no cache, bracket [0, open), no qualifiers", () => {
    expect(dimension("input")).toEqual({
      direction: "input",
      modality: "text",
      tier: "standard",
      cache: "none",
      contextMin: 0,
      contextMax: null,
      qualifiers: {},
    });
  });

  it("one key per dimension, qualifiers in any order", () => {
    const a = dimension("tool", { qualifiers: { tool: "web_search", context_size: "low" } });
    const b = dimension("tool", { qualifiers: { context_size: "low", tool: "web_search" } });
    expect(dimensionKey(a)).toBe(dimensionKey(b));
    expect(dimensionKey(a)).toBe("tool|text|standard|none|0||context_size=low&tool=web_search");
  });

  it.each([
    ["modality", { modality: "audio" }],
    ["tier", { tier: "batch" }],
    ["cache", { cache: "write_1h" }],
    ["bracket start", { contextMin: 200_000 }],
    ["bracket end", { contextMax: 200_000 }],
    ["qualifier", { qualifiers: { region: "eu" } }],
  ] as const)("a different %s is a different dimension", (_what, partial) => {
    expect(dimensionKey(dimension("input", partial))).not.toBe(dimensionKey(dimension("input")));
  });

  it("input and output of the same kind differ", () => {
    expect(dimensionKey(dimension("input"))).not.toBe(dimensionKey(dimension("output")));
  });

  it("the base text dimension of a rate is exactly the common case (D30)", () => {
    expect(isBaseTextDimension(dimension("input"))).toBe(true);
    expect(isBaseTextDimension(dimension("output"))).toBe(true);
    for (const partial of [
      { modality: "image" },
      { tier: "flex" },
      { cache: "read" },
      { contextMin: 128_000 },
      { contextMax: 128_000 },
      { qualifiers: { region: "us" } },
    ] as const)
      expect(isBaseTextDimension(dimension("input", partial)), JSON.stringify(partial)).toBe(false);
  });

  it("priceKey names model, channel, seller, dimension and unit", () => {
    const d = dimension("input", { cache: "read" });
    const p = {
      modelId: "anthropic/claude-opus-4-0",
      channel: "reseller_2",
      seller: "amazon-bedrock",
      unit: "mtok",
      ...d,
    };
    expect(priceKey(p, dimensionKey(d))).toBe(
      "anthropic/claude-opus-4-0|reseller_2|amazon-bedrock|input|text|standard|read|0|||mtok",
    );
    expect(priceKey({ ...p, unit: "krequests" }, dimensionKey(d))).not.toBe(priceKey(p, dimensionKey(d)));
  });
});

describe("channels (D2) and confidence levels (D8)", () => {
  it("direct first, the five named resellers in order, the catch-alls last; each with a display name", () => {
    expect(CHANNELS[0]).toBe("direct");
    expect(CHANNELS.slice(1, 6)).toEqual(Object.keys(NAMED_RESELLERS));
    expect(new Set(CHANNELS.slice(6))).toEqual(MULTI_SELLER_CHANNELS);
    expect(Object.keys(CHANNEL_NAMES)).toEqual([...CHANNELS]);
  });

  it("isChannel takes the exact names only", () => {
    const values = ["direct", "reseller_5", "reseller_6", "bedrock", "DIRECT", ""];
    expect(values.map(isChannel)).toEqual([true, true, false, false, false, false]);
  });

  it("confidence ranks verified 4 down to unverified 0; isConfidence takes the exact names only", () => {
    expect(CONFIDENCE_LEVELS.map(confidenceRank)).toEqual([4, 3, 2, 1, 0]);
    expect(confidenceRank("high")).toBeGreaterThan(confidenceRank("medium"));
    expect(["verified", "unverified", "HIGH", "great"].map(isConfidence)).toEqual([true, true, false, false]);
  });
});

describe("units (D7)", () => {
  it.each([
    ["mtok", "currency", "USD", "USD per 1M tokens"],
    ["krequests", "currency", "USD", "USD per 1K requests"],
    ["image", "currency", "EUR", "EUR per image"],
    ["mtok", "credit", NO_CURRENCY, "credits per 1M tokens (included in plan)"],
  ] as const)("%s in %s %s reads %j", (unit, denomination, currency, text) => {
    expect(displayUnit(unit, denomination, currency)).toBe(text);
  });

  it("every unit has its text", () => {
    for (const unit of Object.keys(UNITS) as (keyof typeof UNITS)[])
      expect(displayUnit(unit, "currency", "USD")).toBe(`USD per ${UNITS[unit]}`);
  });
});
