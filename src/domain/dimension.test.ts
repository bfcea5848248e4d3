import { describe, expect, it } from "vitest";
import { priceKey } from "./dataset.js";
import {
  axisValuesText,
  CACHE_KINDS,
  compareDimensions,
  DIRECTIONS,
  dimension,
  dimensionKey,
  isBaseTextDimension,
  MODALITIES,
  TIERS,
} from "./dimension.js";

/**
 * Price dimensions (api-v1.md "Price", D27, D30) and the identity of a price across dataset
 * versions. The dimensions are those of recorded payload fields (the comment names source, field
 * and run). Unit tests: no replay.
 */

describe("dimension: the common case by default", () => {
  it("text, standard tier, no cache, no bracket, no qualifiers", () => {
    expect(dimension("output")).toEqual({
      direction: "output",
      modality: "text",
      tier: "standard",
      cache: "none",
      contextMin: 0,
      contextMax: null,
      qualifiers: {},
    });
  });

  it("what is given replaces the default, the rest stays (litellm gpt-4o input_cost_per_token_batches 2026-06-01)", () => {
    expect(dimension("input", { tier: "batch" })).toMatchObject({ direction: "input", tier: "batch", cache: "none" });
  });
});

describe("dimensionKey: equal keys mean the same dimension", () => {
  // litellm claude-opus-4-20250514 2026-06-01: cache_creation_input_token_cost and …_above_1hr
  const write5m = dimension("input", { cache: "write" });
  const write1h = dimension("input", { cache: "write_1h" });
  // litellm gpt-4o 2026-06-01: input_cost_per_token, …_batches, …_priority, cache_read_input_token_cost
  const gpt4oInputs = [
    dimension("input"),
    dimension("input", { tier: "batch" }),
    dimension("input", { tier: "priority" }),
    dimension("input", { cache: "read" }),
  ];

  it("every field tells two dimensions apart", () => {
    const all = [
      ...gpt4oInputs,
      write5m,
      write1h,
      dimension("output"),
      dimension("reasoning"),
      dimension("input", { modality: "audio" }),
      // models-dev google gemini-2.5-pro 2026-06-01: prompts over 200K tokens cost more
      dimension("input", { contextMin: 200_000 }),
      dimension("input", { contextMin: 0, contextMax: 200_000 }),
      // models-dev amazon-bedrock eu.anthropic.… 2026-06-01: a cross-region profile
      dimension("input", { qualifiers: { region: "eu" } }),
      dimension("input", { qualifiers: { region: "us" } }),
    ];
    expect(new Set(all.map(dimensionKey)).size).toBe(all.length);
  });

  it("the same fields give the same key", () => {
    expect(dimensionKey(dimension("input", { cache: "write" }))).toBe(dimensionKey(write5m));
  });

  it("qualifier order does not matter", () => {
    const a = dimension("input", { qualifiers: { region: "eu", seller: "amazon-bedrock" } });
    const b = dimension("input", { qualifiers: { seller: "amazon-bedrock", region: "eu" } });
    expect(dimensionKey(a)).toBe(dimensionKey(b));
    expect(dimensionKey(a)).toBe("input|text|standard|none|0||region=eu&seller=amazon-bedrock");
  });

  it("an open bracket and a bracket from 0 are two keys", () => {
    expect(dimensionKey(dimension("input"))).toBe("input|text|standard|none|0||");
    expect(dimensionKey(dimension("input", { contextMax: 200_000 }))).toBe("input|text|standard|none|0|200000|");
  });
});

describe("isBaseTextDimension: what a rate is made of (D30)", () => {
  it.each([
    ["input", dimension("input"), true],
    ["output", dimension("output"), true],
    ["batch tier", dimension("input", { tier: "batch" }), false],
    ["cache read", dimension("input", { cache: "read" }), false],
    ["audio", dimension("input", { modality: "audio" }), false],
    ["bracket above 200K", dimension("input", { contextMin: 200_000 }), false],
    ["bracket up to 200K", dimension("input", { contextMax: 200_000 }), false],
    ["a region", dimension("input", { qualifiers: { region: "eu" } }), false],
  ])("%s: %s", (_name, d, base) => {
    expect(isBaseTextDimension(d)).toBe(base);
  });
});

describe("priceKey: a price's identity across dataset versions", () => {
  const price = { modelId: "anthropic/claude-opus-4-0", channel: "reseller_2", seller: "amazon-bedrock", unit: "mtok" };
  const input = dimension("input");

  it("model, channel, seller, dimension and unit", () => {
    expect(priceKey({ ...price, ...input }, dimensionKey(input))).toBe(
      "anthropic/claude-opus-4-0|reseller_2|amazon-bedrock|input|text|standard|none|0|||mtok",
    );
  });

  it.each([
    ["model", { modelId: "anthropic/claude-opus-4-1" }],
    ["channel", { channel: "direct" }],
    ["seller", { seller: "anthropic" }],
    ["unit", { unit: "request" }],
  ])("another %s is another price", (_name, change) => {
    expect(priceKey({ ...price, ...input, ...change }, dimensionKey(input))).not.toBe(
      priceKey({ ...price, ...input }, dimensionKey(input)),
    );
  });
});

describe("the axes, described once (issue 30 §4, T236)", () => {
  it("the vocabulary of D27 in reading order, each axis's default first (a new value is an addition)", () => {
    const inOrder = (values: readonly string[], d27: string[]) => values.filter((v) => d27.includes(v));
    expect(inOrder(DIRECTIONS, ["input", "output", "reasoning", "request", "tool"])).toEqual([
      "input",
      "output",
      "reasoning",
      "request",
      "tool",
    ]);
    expect(inOrder(MODALITIES, ["text", "image", "audio", "video"])).toEqual(["text", "image", "audio", "video"]);
    expect(inOrder(TIERS, ["standard", "batch", "flex", "priority"])).toEqual([
      "standard",
      "batch",
      "flex",
      "priority",
    ]);
    expect(inOrder(CACHE_KINDS, ["none", "read", "write", "write_1h"])).toEqual(["none", "read", "write", "write_1h"]);
    const { direction: _, ...defaults } = dimension("input");
    expect(defaults).toMatchObject({ modality: "text", tier: "standard", cache: "none" });
    expect(axisValuesText("modality")).toBe(`${MODALITIES.slice(0, -1).join(", ")} or ${MODALITIES.at(-1)}`);
  });

  it("the dimensions of one offer read tier, bracket, modality, direction, then cache kind, each in its axis's order", () => {
    // Invented combination of dimensions the adapters produce: batch, bracketed, image and cached inputs.
    const read = [
      dimension("input"),
      dimension("input", { cache: "read" }),
      dimension("input", { cache: "write" }),
      dimension("output"),
      dimension("input", { contextMin: 200_000 }),
      dimension("input", { modality: "image" }),
      dimension("input", { tier: "batch" }),
      dimension("output", { tier: "batch" }),
      dimension("input", { tier: "priority" }),
    ];
    const shuffled = [read[8]!, read[3]!, read[0]!, read[6]!, read[2]!, read[4]!, read[1]!, read[7]!, read[5]!];
    const sorted = shuffled.sort(compareDimensions).map(dimensionKey);
    expect(sorted).toEqual(
      [read[0]!, read[1]!, read[2]!, read[3]!, read[5]!, read[4]!, read[6]!, read[7]!, read[8]!].map(dimensionKey),
    );
  });
});
