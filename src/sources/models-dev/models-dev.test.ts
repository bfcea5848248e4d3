import { describe, expect, it } from "vitest";
import { amountIn, payloadOf as filesPayload, liveUrls, recordedAdapter } from "../../../test/recorded-payloads.js";
import { type Dimension, dimension, dimensionKey } from "../../domain/dimension.js";
import type { Listing } from "../../domain/observation.js";
import { SourcePayloadError } from "../source.js";
import { isoDateOrNull, makerHintOf, modelsDevSource } from "./index.js";

/** The recorded models.dev snapshots (each parsed once); amounts in USD per 1M tokens. */
const { listings: snapshot, listing } = recordedAdapter(modelsDevSource);
const amount = (l: Listing, d: Dimension) => amountIn(l, d);

const input = dimension("input");
const output = dimension("output");
const cacheRead = dimension("input", { cache: "read" });
const cacheWrite = dimension("input", { cache: "write" });

const payloadOf = (text: string, name = "api.json") => filesPayload({ [name]: text });

it("fetches its live payload from models.dev (issue 7 §1)", () => {
  expect(liveUrls(modelsDevSource)).toEqual(["https://models.dev/api.json"]);
});

describe("models-dev adapter on real snapshots", () => {
  it("2025-07-01: anthropic claude-opus-4-20250514 = 15 / 75, cache read 1.5, cache write 18.75, with metadata", () => {
    const l = listing("2025-07-01", "anthropic", "claude-opus-4-20250514");
    expect(amount(l, input)).toBe(15);
    expect(amount(l, output)).toBe(75);
    expect(amount(l, cacheRead)).toBe(1.5);
    expect(amount(l, cacheWrite)).toBe(18.75);
    expect(l.prices).toHaveLength(4);
    expect(l).toMatchObject({
      makerHint: "anthropic",
      name: "Claude Opus 4",
      family: null,
      contextWindow: 200000,
      maxOutputTokens: 32000,
      openWeights: false,
      releasedOn: "2025-05-22",
      status: null,
    });
  });

  it("2025-07-01: deepseek deepseek-chat = 0.27 / 1.1 / cache read 0.07", () => {
    const l = listing("2025-07-01", "deepseek", "deepseek-chat");
    expect(amount(l, input)).toBe(0.27);
    expect(amount(l, output)).toBe(1.1);
    expect(amount(l, cacheRead)).toBe(0.07);
    expect(amount(l, cacheWrite)).toBeUndefined();
  });

  it("2025-07-01: models without cost (github-copilot) are listed without prices", () => {
    const l = listing("2025-07-01", "github-copilot", "claude-sonnet-4");
    expect(l.prices).toEqual([]);
    expect(l.name).not.toBeNull();
    expect(l.makerHint).toBeNull();
  });

  it("2025-07-01 and 2026-06-01: listing and price counts", () => {
    const early = snapshot("2025-07-01");
    expect(early).toHaveLength(181);
    expect(early.reduce((n, l) => n + l.prices.length, 0)).toBe(463);
    const late = snapshot("2026-06-01");
    // 4,967 model entries; 111 are the same (seller, model) under an alias provider id
    // (azure-cognitive-services → azure, google-vertex-anthropic → google-vertex, stepfun-ai → stepfun).
    expect(late).toHaveLength(4856);
    expect(late.reduce((n, l) => n + l.prices.length, 0)).toBe(12425);
    expect(late.filter((l) => l.prices.length === 0).length).toBeGreaterThanOrEqual(240);
  });

  it("2025-10-01: reasoning and audio token prices", () => {
    const sonnet = listing("2025-10-01", "anthropic", "claude-sonnet-4-5-20250929");
    expect(amount(sonnet, dimension("reasoning"))).toBe(15);
    const live = listing("2025-10-01", "google", "gemini-live-2.5-flash-preview-native-audio");
    expect(amount(live, dimension("input", { modality: "audio" }))).toBe(3);
    expect(amount(live, dimension("output", { modality: "audio" }))).toBe(12);
    expect(amount(live, input)).toBe(0.5);
    // experimental is a boolean here: no extra prices
    expect(live.prices).toHaveLength(4);
  });

  it("2025-10-01: vendor prefix of a reseller's id gives the maker hint", () => {
    expect(listing("2025-10-01", "vercel", "xai/grok-4").makerHint).toBe("xai");
    expect(listing("2025-10-01", "vercel", "anthropic/claude-4.5-sonnet").makerHint).toBe("anthropic");
    expect(listing("2025-10-01", "opencode", "claude-opus-4-1").makerHint).toBeNull();
  });

  it("2025-12-01: context_over_200k → bracket [200000, open), base stays [0, open)", () => {
    const l = listing("2025-12-01", "google", "gemini-3-pro-preview");
    expect(amount(l, input)).toBe(2);
    expect(amount(l, output)).toBe(12);
    expect(amount(l, cacheRead)).toBe(0.2);
    expect(amount(l, dimension("input", { contextMin: 200000 }))).toBe(4);
    expect(amount(l, dimension("output", { contextMin: 200000 }))).toBe(18);
    expect(amount(l, dimension("input", { cache: "read", contextMin: 200000 }))).toBe(0.4);
    expect(l.prices).toHaveLength(6);
    const or = listing("2025-12-01", "openrouter", "anthropic/claude-sonnet-4.5");
    expect(amount(or, dimension("input", { cache: "write", contextMin: 200000 }))).toBe(7.5);
    expect(or.makerHint).toBe("anthropic");
  });

  it("2025-12-01: month-only release dates are dropped, status deprecated/alpha mapped", () => {
    const l = listing("2025-12-01", "alibaba", "qwen3-32b");
    expect(l.releasedOn).toBeNull();
    expect(l.makerHint).toBe("alibaba");
    const statuses = new Set(snapshot("2025-12-01").map((x) => x.status));
    expect(statuses).toEqual(new Set([null, "preview", "deprecated"]));
  });

  // T374: the tier says it; no `mode` qualifier, so Anthropic's page's priority price is the same dimension (T370).
  it("2026-05-01: experimental fast mode → tier priority, unqualified", () => {
    const l = listing("2026-05-01", "anthropic", "claude-opus-4-6");
    const fast = { tier: "priority", qualifiers: {} } as const;
    expect(l.prices.filter((p) => p.dimension.qualifiers.mode !== undefined)).toEqual([]);
    expect(amount(l, input)).toBe(5);
    expect(amount(l, output)).toBe(25);
    expect(amount(l, dimension("input", fast))).toBe(30);
    expect(amount(l, dimension("output", fast))).toBe(150);
    expect(amount(l, dimension("input", { ...fast, cache: "read" }))).toBe(3);
    expect(amount(l, dimension("input", { ...fast, cache: "write" }))).toBe(37.5);
    expect(l.prices).toHaveLength(8);
    expect(l.family).toBe("claude-opus");
    expect(l.contextWindow).toBe(1000000);
  });

  it("2026-05-01: status beta → preview, deprecated → deprecated; xai >200k legacy bracket", () => {
    expect(listing("2026-05-01", "azure", "grok-4-1-fast-reasoning").status).toBe("preview");
    expect(listing("2026-05-01", "baseten", "moonshotai/Kimi-K2-Thinking").status).toBe("deprecated");
    expect(listing("2026-05-01", "baseten", "moonshotai/Kimi-K2-Thinking").makerHint).toBe("moonshotai");
    const grok = listing("2026-05-01", "xai", "grok-4.20-0309-reasoning");
    expect(amount(grok, dimension("input", { contextMin: 200000 }))).toBe(4);
    expect(amount(grok, dimension("output", { contextMin: 200000 }))).toBe(12);
  });

  it("2026-06-01: anthropic claude-opus-4-0 input = 15 USD per 1M tokens", () => {
    const l = listing("2026-06-01", "anthropic", "claude-opus-4-0");
    expect(amount(l, input)).toBe(15);
    expect(amount(l, output)).toBe(75);
    expect(l.name).toBe("Claude Opus 4 (latest)");
  });

  it("2026-06-01: tiers win over context_over_200k (272k threshold, no duplicate 200k bracket)", () => {
    const l = listing("2026-06-01", "openai", "gpt-5.4");
    expect(amount(l, dimension("input", { contextMin: 272000 }))).toBe(5);
    expect(amount(l, dimension("output", { contextMin: 272000 }))).toBe(22.5);
    expect(amount(l, dimension("input", { cache: "read", contextMin: 272000 }))).toBe(0.5);
    expect(amount(l, dimension("input", { contextMin: 200000 }))).toBeUndefined();
    expect(amount(l, dimension("input", { tier: "priority", qualifiers: {} }))).toBe(5);
    // 3 base + 3 bracket + 3 fast
    expect(l.prices).toHaveLength(9);
    const or = listing("2026-06-01", "openrouter", "anthropic/claude-opus-4.7");
    expect(amount(or, dimension("input", { contextMin: 200000 }))).toBe(10);
    expect(amount(or, dimension("input", { cache: "write", contextMin: 200000 }))).toBe(12.5);
    expect(or.prices).toHaveLength(8);
  });

  it("2026-06-01: two context tiers give consecutive brackets [32000, 128000) and [128000, open)", () => {
    const l = listing("2026-06-01", "aihubmix", "doubao-seed-2-0-lite-260428");
    expect(amount(l, input)).toBe(0.08);
    expect(amount(l, dimension("input", { contextMin: 32000, contextMax: 128000 }))).toBe(0.13);
    expect(amount(l, dimension("input", { contextMin: 128000 }))).toBe(0.25);
    expect(amount(l, dimension("input", { modality: "audio", contextMin: 128000 }))).toBe(3.804);
    expect(amount(l, dimension("input", { cache: "read", contextMin: 32000, contextMax: 128000 }))).toBe(0.02536);
    expect(l.prices).toHaveLength(12);
  });

  it("2026-06-01: real price changes and reseller rows", () => {
    expect(amount(listing("2026-06-01", "deepseek", "deepseek-v4-pro"), cacheRead)).toBe(0.003625);
    const eu = listing("2026-06-01", "amazon-bedrock", "eu.anthropic.claude-opus-4-7");
    expect(amount(eu, cacheWrite)).toBe(6.875);
    expect(eu.makerHint).toBeNull();
    const together = listing("2026-06-01", "togetherai", "deepseek-ai/DeepSeek-V4-Pro");
    expect(amount(together, input)).toBe(2.1);
    expect(together.makerHint).toBe("deepseek");
    expect(together.openWeights).toBe(true);
    expect(together.maxOutputTokens).toBe(384000);
    const grok = listing("2026-06-01", "xai", "grok-4.20-0309-reasoning");
    expect(amount(grok, dimension("input", { contextMin: 200000 }))).toBe(2.5);
  });

  it("2026-06-01: a maker provider hosting other vendors (nvidia) takes the vendor prefix as maker", () => {
    const l = listing("2026-06-01", "nvidia", "meta/llama-3.1-70b-instruct");
    expect(l.makerHint).toBe("meta");
    // genuine 0 amounts are kept
    expect(amount(l, input)).toBe(0);
    expect(listing("2026-06-01", "cohere", "c4ai-aya-expanse-32b").prices).toEqual([]);
  });

  it("alias providers collapse into one listing per (seller, model)", () => {
    const keys = snapshot("2026-06-01").map((l) => `${l.seller}|${l.model}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(snapshot("2026-06-01").some((l) => l.seller === "azure-cognitive-services")).toBe(false);
  });
});

describe("models-dev adapter on bad payloads", () => {
  it("throws SourcePayloadError when api.json is missing", () => {
    expect(() => modelsDevSource.parse(payloadOf("{}", "other.json"))).toThrow(/no api\.json.*other\.json/);
  });

  it("throws SourcePayloadError on text that is not JSON", () => {
    expect(() => modelsDevSource.parse(payloadOf("<html>502</html>"))).toThrow(SourcePayloadError);
    expect(() => modelsDevSource.parse(payloadOf("<html>502</html>"))).toThrow(/api\.json is not JSON/);
  });

  it("throws SourcePayloadError on a wrong top-level type", () => {
    expect(() => modelsDevSource.parse(payloadOf("[1,2]"))).toThrow(
      /expected an object keyed by provider id, got an array/,
    );
    expect(() => modelsDevSource.parse(payloadOf("null"))).toThrow(SourcePayloadError);
  });

  it("throws SourcePayloadError when no provider has a models object, naming the path", () => {
    expect(() => modelsDevSource.parse(payloadOf('{"openai":{"id":"openai","models":[]}}'))).toThrow(
      /no provider with a "models" object \(at openai\.models: /,
    );
    expect(() => modelsDevSource.parse(payloadOf("{}"))).toThrow(/empty object/);
  });

  // Invented fixture: real snapshots have no malformed entries, so the skipping rules are tested here.
  it("skips malformed providers, models, tiers and amounts one by one", () => {
    const api = {
      broken: { models: "nope" },
      anthropic: {
        models: {
          bad: 42,
          "claude-x": {
            name: "Claude X",
            release_date: "2025-02-30",
            limit: { context: "big", output: 1000 },
            cost: {
              input: 3,
              output: "15",
              cache_read: -1,
              tiers: [
                { input: 6 },
                { input: 9, tier: { type: "context", size: 500000 } },
                { input: 1, tier: { type: "time", size: 1 } },
              ],
              context_over_200k: { input: 100 },
            },
            experimental: { modes: { "Turbo Mode": { cost: { input: 7 } }, fast: {} } },
          },
        },
      },
    };
    const listings = modelsDevSource.parse(payloadOf(JSON.stringify(api)));
    expect(listings).toHaveLength(1);
    const l = listings[0]!;
    expect(l).toMatchObject({ seller: "anthropic", model: "claude-x", releasedOn: null, contextWindow: null });
    expect(l.maxOutputTokens).toBe(1000);
    expect(l.prices.map((p) => [dimensionKey(p.dimension), p.amount])).toEqual([
      ["input|text|standard|none|0||", 3],
      ["input|text|standard|none|500000||", 9],
      ["input|text|standard|none|0||mode=turbo-mode", 7],
    ]);
  });
});

describe("models-dev helpers", () => {
  it("makerHintOf: seller maker, foreign prefix, reseller with string provider field", () => {
    expect(makerHintOf("openai", "gpt-4o", undefined)).toBe("openai");
    expect(makerHintOf("nvidia", "abacusai/dracarys", undefined)).toBeNull();
    expect(makerHintOf("nvidia", "nvidia/nemotron", undefined)).toBe("nvidia");
    // Invented: models.dev's `provider` is always an SDK object in real data; a string naming a maker counts.
    expect(makerHintOf("poe", "claude-opus-4", "Anthropic")).toBe("anthropic");
    expect(makerHintOf("poe", "x-ai/grok-4", { npm: "@ai-sdk/openai" })).toBe("xai");
    expect(makerHintOf("poe", "hf:meta-llama/llama", undefined)).toBeNull();
  });

  it("isoDateOrNull keeps only real YYYY-MM-DD dates", () => {
    expect(isoDateOrNull("2024-02-29")).toBe("2024-02-29");
    expect(isoDateOrNull("2025-02-29")).toBeNull();
    expect(isoDateOrNull("2025-01")).toBeNull();
    expect(isoDateOrNull(undefined)).toBeNull();
  });
});

describe("models-dev statements of freshness and derived brackets (issue 24)", () => {
  it("gives last_updated as the day the entry was reviewed (T170): deepseek-chat 2026-02-28 on 2026-06-01", () => {
    expect(listing("2026-06-01", "deepseek", "deepseek-chat").pricesDated).toEqual({
      on: "2026-02-28",
      kind: "reviewed",
    });
  });

  it("marks the legacy context_over_200k bracket as derived, a stated tier as not (T173)", () => {
    const derived = (date: string) =>
      listing(date, "openai", "gpt-5.4")
        .prices.filter((p) => p.dimension.contextMin > 0)
        .map((p) => [p.dimension.contextMin, p.amount, p.thresholdDerived ?? false]);
    // 2026-05-01: only the generic field, 200K for every model.
    expect(derived("2026-05-01")).toEqual([
      [200_000, 5, true],
      [200_000, 22.5, true],
      [200_000, 0.5, true],
    ]);
    // 2026-06-01: tiers state OpenAI's 272K, and win over the derived field.
    expect(derived("2026-06-01")).toEqual([
      [272_000, 5, false],
      [272_000, 22.5, false],
      [272_000, 0.5, false],
    ]);
  });
});
