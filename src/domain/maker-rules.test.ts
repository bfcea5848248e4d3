import { describe, expect, it } from "vitest";
import { CACHE_MULTIPLIER_RULES, cacheMultipliers } from "./cache-multipliers.js";
import { type CostPrice, estimateCost, type TokenUsage } from "./cost.js";
import { type Direction, dimension } from "./dimension.js";
import { REGIONAL_UPLIFT_RULES, regionalUplift } from "./regional-uplift.js";
import { ServedMismatchError, servedAs } from "./served-usage.js";
import { TIER_OFFERS, tierNotSold } from "./tier-offers.js";

// Issue 49 §1–§2 (T480–T483): the makers' billing rules as reviewed data, and the rule that a usage
// record's own tier and region price it. The prices below are invented (amounts as on the makers'
// pages: Bedrock Opus 4.6 5 / 25 global, OpenAI GPT-5.4 2.5 / 0.25 / 15); the replayed catalogue's
// rows are priced in test/cost-examples.test.ts.

const USAGE: TokenUsage = {
  inputTokens: 0,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  cacheWrite1hTokens: 0,
  cacheTtl: "5m",
  outputTokens: 0,
  reasoningTokens: 0,
  webSearchRequests: 0,
  requests: 1,
  tier: "standard",
  region: null,
};

function price(
  amount: number,
  sources: string[],
  { direction, ...partial }: { direction: Direction } & Parameters<typeof dimension>[1],
): CostPrice {
  return {
    ...dimension(direction, partial),
    label: "p",
    amount,
    unit: "mtok",
    displayUnit: "USD per 1M tokens",
    denomination: "currency",
    currency: "USD",
    confidence: "high",
    sources,
  };
}

describe("every billing rule is one reviewed line with the maker's page and a reason", () => {
  it.each([
    ...REGIONAL_UPLIFT_RULES.map((r) => ["regional", r] as const),
    ...CACHE_MULTIPLIER_RULES.map((r) => ["caching", r] as const),
    ...TIER_OFFERS.map((r) => ["tier", r] as const),
  ])("%s %#", (_kind, rule) => {
    expect(rule.source).toMatch(/^https:\/\/[a-z.]+\//);
    expect(rule.reason.length).toBeGreaterThan(40);
    expect(rule.decision).toMatch(/^T\d+$/);
  });
});

describe("a usage record's own tier and region price it (T480)", () => {
  it("the record's tier and region when the request names none, the request's when the record states none", () => {
    expect(servedAs({ tier: "priority", region: "us" }, {})).toEqual({ tier: "priority", region: "us" });
    expect(servedAs({ tier: null, region: null }, { tier: "batch", region: "eu" })).toEqual({
      tier: "batch",
      region: "eu",
    });
    expect(servedAs({ tier: null, region: null }, {})).toEqual({ tier: "standard", region: null });
    expect(servedAs({ tier: "flex", region: null }, { tier: "flex" })).toEqual({ tier: "flex", region: null });
  });

  it("a request naming another tier or region is refused, naming both", () => {
    expect(() => servedAs({ tier: "priority", region: null }, { tier: "standard" })).toThrow(ServedMismatchError);
    expect(() => servedAs({ tier: "priority", region: null }, { tier: "standard" })).toThrow(
      /^tier=standard was asked, but the usage record was served in the priority tier/,
    );
    expect(() => servedAs({ tier: null, region: "us" }, { region: "eu" })).toThrow(
      /^region=eu was asked, but the usage record was processed in region us/,
    );
  });
});

describe("the maker's regional rule overrules a region's row that is not global × its factor (T482)", () => {
  const opus = { provider: "anthropic", lifecycle: { releasedOn: "2026-02-05" } };
  const rule = regionalUplift(opus, "amazon-bedrock", "us");

  it("an aggregator's us row at the global price is a dissent; the line bills 1.1× global", () => {
    const prices = [
      price(5, ["genai-prices"], { direction: "input", qualifiers: { region: "global" } }),
      price(5, ["models-dev", "portkey"], { direction: "input", qualifiers: { region: "us" } }),
    ];
    const e = estimateCost(prices, { ...USAGE, inputTokens: 10000, region: "us" }, [], rule);
    expect(e.totals?.[0]?.amount).toBe(0.055);
    expect(e.lines[0]).toMatchObject({
      amount: 5.5,
      uplift: { factor: 1.1, decision: "T303" },
      dissent: { amount: 5, sources: ["models-dev", "portkey"], decision: "T482" },
    });
  });

  it("a region's row that agrees with the rule is used as listed; without a rule a region's row wins", () => {
    const prices = [
      price(5, ["genai-prices"], { direction: "input", qualifiers: { region: "global" } }),
      price(5.5, ["litellm"], { direction: "input", qualifiers: { region: "us" } }),
    ];
    const agreeing = estimateCost(prices, { ...USAGE, inputTokens: 10000, region: "us" }, [], rule);
    expect(agreeing.lines[0]).toMatchObject({ amount: 5.5, sources: ["litellm"], uplift: null, dissent: null });
    const older = regionalUplift(
      { provider: "anthropic", lifecycle: { releasedOn: "2025-08-05" } },
      "amazon-bedrock",
      "us",
    );
    expect(older).toBeNull();
  });
});

describe("OpenAI's cache writes cost nothing beyond input on GPT-5.5 and earlier (T483)", () => {
  const prices = [
    price(2.5, ["official-openai"], { direction: "input" }),
    price(15, ["official-openai"], { direction: "output" }),
  ];
  const usage = { ...USAGE, inputTokens: 1000, cacheWriteTokens: 3000, outputTokens: 500 };

  it("GPT-5.4's writes bill at its input price, the rule named on the line", () => {
    const rule = cacheMultipliers({ provider: "openai", lifecycle: { releasedOn: "2026-03-05" } }, "openai");
    const e = estimateCost(prices, usage, [], null, rule);
    expect(e.complete).toBe(true);
    expect(e.lines[1]).toMatchObject({
      usage: "cacheWriteTokens",
      label: "Cache write at 1× p",
      amount: 2.5,
      cost: 0.0075,
      derived: { factor: 1, decision: "T483" },
    });
  });

  it("a listed cache-write price that is not the input price is a dissent beside the rule's price", () => {
    const rule = cacheMultipliers({ provider: "openai", lifecycle: { releasedOn: "2026-04-23" } }, "openai");
    const listed = [...prices, price(3.125, ["some-aggregator"], { direction: "input", cache: "write" })];
    const e = estimateCost(listed, usage, [], null, rule);
    expect(e.lines[1]).toMatchObject({ amount: 2.5, dissent: { amount: 3.125, decision: "T483" } });
  });

  it("a model after GPT-5.5, one with no release day, and another seller are not covered", () => {
    expect(cacheMultipliers({ provider: "openai", lifecycle: { releasedOn: "2026-06-01" } }, "openai")).toBeNull();
    expect(cacheMultipliers({ provider: "openai", lifecycle: { releasedOn: null } }, "openai")).toBeNull();
    expect(cacheMultipliers({ provider: "openai", lifecycle: { releasedOn: "2026-03-05" } }, "azure")).toBeNull();
    expect(cacheMultipliers({ provider: "anthropic" }, "anthropic")?.decision).toBe("T346");
  });
});

describe("a tier the maker sells for named models only (T481)", () => {
  it("Anthropic's fast mode is Opus 4.6's alone, on Anthropic's own offer", () => {
    expect(
      tierNotSold({ id: "anthropic/claude-opus-4-7", provider: "anthropic" }, "anthropic", "priority"),
    ).toMatchObject({
      decision: "T481",
      models: ["anthropic/claude-opus-4-6"],
    });
    expect(tierNotSold({ id: "anthropic/claude-opus-4-6", provider: "anthropic" }, "anthropic", "priority")).toBeNull();
    expect(tierNotSold({ id: "anthropic/claude-opus-4-7", provider: "anthropic" }, "anthropic", "batch")).toBeNull();
    expect(tierNotSold({ id: "openai/gpt-5.4", provider: "openai" }, "openai", "priority")).toBeNull();
  });
});
