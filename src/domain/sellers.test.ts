import { describe, expect, it } from "vitest";
import { eachCase } from "../../test/cases.js";
import { CHANNEL_NAMES, CHANNELS, isChannel, MULTI_SELLER_CHANNELS, NAMED_RESELLERS } from "./channel.js";
import { canonicalSeller, channelOf, isMaker, MAKERS, PLAN_SELLERS, planKind, SELLER_ALIASES } from "./sellers.js";

/**
 * Seller and maker vocabulary (D1) and the channel of a sale (D2), with seller spellings as the
 * recorded payloads carry them (portkey: the file name; models-dev: the provider id; both as of
 * the 2026-06-01 run). Unit tests: no replay.
 */

describe("canonicalSeller: every source's spelling of a seller, one slug (D1, D2)", () => {
  eachCase("canonicalSeller", canonicalSeller, [
    // portkey file names 2026-06-01
    ["x-ai", "xai"],
    ["mistral-ai", "mistral"],
    ["z-ai", "zai"],
    ["zhipu", "zai"],
    ["perplexity-ai", "perplexity"],
    ["reka-ai", "reka"],
    ["together-ai", "togetherai"],
    ["bedrock", "amazon-bedrock"],
    ["bedrock-mantle", "amazon-bedrock"],
    ["azure-openai", "azure"],
    ["azure-ai", "azure"],
    ["vertex-ai", "google-vertex"],
    ["workers-ai", "cloudflare-workers-ai"],
    ["palm", "google"],
    ["stability-ai", "stability-ai"],
    ["dashscope", "alibaba"],
    ["moonshot", "moonshotai"],
    // models-dev provider ids 2026-06-01: already canonical, or mapped once here
    ["google-vertex-anthropic", "google-vertex"],
    ["azure-cognitive-services", "azure"],
    ["amazon-bedrock", "amazon-bedrock"],
    ["togetherai", "togetherai"],
    ["stepfun-ai", "stepfun"],
    // openrouter model-id prefixes 2026-06-01
    ["meta-llama", "meta"],
    ["deepseek", "deepseek"],
    // litellm providers 2026-06-01 (`litellm_provider`)
    ["vertex_ai-anthropic_models", "google-vertex"],
    ["together_ai", "togetherai"],
    ["fireworks_ai", "fireworks-ai"],
  ]);

  it("case and surrounding white space do not matter", () => {
    expect(canonicalSeller("  Meta-Llama ")).toBe("meta");
    expect(canonicalSeller("OpenAI")).toBe("openai");
  });

  it("an unknown slug is its own canonical form (models-dev nano-gpt)", () => {
    expect(canonicalSeller("nano-gpt")).toBe("nano-gpt");
  });

  it("every alias lands on a slug that is canonical itself (no chains)", () => {
    for (const [alias, slug] of Object.entries(SELLER_ALIASES)) {
      expect(canonicalSeller(slug), `${alias} → ${slug}`).toBe(slug);
      expect(Object.hasOwn(MAKERS, alias), `${alias} is both a maker and an alias`).toBe(false);
    }
  });
});

describe("isMaker: makers, never resellers, gateways or plans (D1)", () => {
  it.each(["anthropic", "openai", "google", "mistral", "xai", "meta", "alibaba", "zai", "moonshotai"])(
    "%s makes models",
    (slug) => {
      expect(isMaker(slug)).toBe(true);
    },
  );

  it.each(["openrouter", "amazon-bedrock", "azure", "google-vertex", "togetherai", "groq", "zai-coding-plan", "x-ai"])(
    "%s is no maker",
    (slug) => {
      expect(isMaker(slug)).toBe(false);
    },
  );

  it("no maker is one of D2's named resellers or a plan", () => {
    for (const { seller } of Object.values(NAMED_RESELLERS)) expect(isMaker(seller), seller).toBe(false);
    for (const seller of Object.keys(PLAN_SELLERS).filter((s) => planKind(s) !== "subscription"))
      expect(isMaker(seller), seller).toBe(false);
  });
});

describe("channelOf: the channel of a seller's sale of a maker's model (D2)", () => {
  eachCase("channelOf", channelOf, [
    // models-dev anthropic sells claude-opus-4-20250514 itself
    ["anthropic", "anthropic", "direct"],
    ["openrouter", "anthropic", "reseller_1"],
    ["amazon-bedrock", "anthropic", "reseller_2"],
    ["azure", "openai", "reseller_3"],
    ["google-vertex", "anthropic", "reseller_4"],
    ["togetherai", "meta", "reseller_5"],
    // models-dev plan providers 2026-06-01
    ["zai-coding-plan", "zai", "coding_plan"],
    ["kimi-for-coding", "moonshotai", "coding_plan"],
    ["minimax-coding-plan", "minimax", "token_plan"],
    ["xiaomi-token-plan-sgp", "xiaomi", "token_plan"],
    // a subscription is no plan channel of its own: it sells in `other`
    ["github-copilot", "anthropic", "other"],
    // any other reseller
    ["groq", "meta", "other"],
    ["deepinfra", "deepseek", "other"],
    // a maker reselling another maker's model is a reseller (models-dev alibaba glm-4.7)
    ["alibaba", "zai", "other"],
  ]);

  it("the named resellers of channel.ts and of sellers.ts are the same five", () => {
    for (const [channel, { seller }] of Object.entries(NAMED_RESELLERS))
      expect(channelOf(seller, "anthropic")).toBe(channel);
  });
});

describe("planKind: plans by table, then by the seller id's own words", () => {
  eachCase("planKind", planKind, [
    ["zai-coding-plan", "coding_plan"],
    ["minimax-cn-coding-plan", "token_plan"],
    ["gitlab", "subscription"],
    ["lmstudio", "subscription"],
    // not in the table: the id says it (an invented id, for the naming rule)
    ["acme-coding-plan", "coding_plan"],
    ["acme-for-coding", "coding_plan"],
    ["acme-token-plan-eu", "token_plan"],
    ["openrouter", null],
    ["anthropic", null],
  ]);
});

describe("channels (D2)", () => {
  it("nine channels, direct first, each with a display name", () => {
    expect(CHANNELS[0]).toBe("direct");
    expect(CHANNELS).toHaveLength(9);
    expect(Object.keys(CHANNEL_NAMES).sort()).toEqual([...CHANNELS].sort());
  });

  it("only the catch-all channels hold several sellers", () => {
    expect([...MULTI_SELLER_CHANNELS].sort()).toEqual(["coding_plan", "other", "token_plan"]);
  });

  it("isChannel: the nine names exactly, case and all", () => {
    for (const channel of CHANNELS) expect(isChannel(channel), channel).toBe(true);
    for (const other of ["reseller_6", "Direct", "bedrock", "amazon-bedrock", ""])
      expect(isChannel(other), other).toBe(false);
  });
});
