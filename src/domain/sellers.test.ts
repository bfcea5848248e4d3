import { describe, expect, it } from "vitest";
import { CHANNELS, isChannel, MULTI_SELLER_CHANNELS, NAMED_RESELLERS } from "./channel.js";
import { canonicalSeller, channelOf, isMaker, MAKERS, PLAN_SELLERS, planKind, SELLER_ALIASES } from "./sellers.js";

// The seller and maker vocabulary (D1, D2) with spellings the recorded payloads use (data/upstream,
// 2026-06-01 unless named): every source's spelling of a seller meets the others' at one slug.
// Unit tests: no replay.

describe("canonicalSeller: one slug per seller, whatever the source (D1, D2)", () => {
  it.each([
    // models.dev provider ids are the canonical slugs
    "amazon-bedrock → amazon-bedrock",
    "togetherai → togetherai",
    "xai → xai",
    // LiteLLM `litellm_provider`
    "bedrock → amazon-bedrock",
    "vertex_ai → google-vertex",
    "vertex_ai-anthropic_models → google-vertex",
    "together_ai → togetherai",
    "fireworks_ai → fireworks-ai",
    "azure_ai → azure",
    "bedrock_mantle → amazon-bedrock",
    "dashscope → alibaba",
    "moonshot → moonshotai",
    // Portkey file names
    "azure-openai → azure",
    "vertex-ai → google-vertex",
    "mistral-ai → mistral",
    "together-ai → togetherai",
    "x-ai → xai",
    "z-ai → zai",
    "zhipu → zai",
    "bedrock-mantle → amazon-bedrock",
    "perplexity-ai → perplexity",
    "reka-ai → reka",
    "palm → google",
    "workers-ai → cloudflare-workers-ai",
    // genai-prices provider ids
    "aws → amazon-bedrock",
    "together → togetherai",
    "fireworks → fireworks-ai",
    "novita → novita-ai",
    // OpenRouter vendor prefixes
    "meta-llama → meta",
    "mistralai → mistral",
    "qwen → alibaba",
    "allenai → allen-ai",
    "nousresearch → nous-research",
    "bytedance-seed → bytedance",
    "kwaipilot → kuaishou",
    "rekaai → reka",
    "essentialai → essential-ai",
    "inclusionai → inclusion-ai",
    // models.dev: Vertex's Anthropic models and Azure's second provider id
    "google-vertex-anthropic → google-vertex",
    "azure-cognitive-services → azure",
  ])("%s", (row) => {
    const [raw, slug] = row.split(" → ") as [string, string];
    expect(canonicalSeller(raw)).toBe(slug);
  });

  it("ignores case and surrounding space, and leaves an unknown slug as it is", () => {
    expect(canonicalSeller("  Mistral-AI ")).toBe("mistral");
    expect(canonicalSeller("MoonshotAI")).toBe("moonshotai");
    expect(canonicalSeller("deepinfra")).toBe("deepinfra");
    expect(canonicalSeller("thedrummer")).toBe("thedrummer");
  });

  it("every alias leads to a slug that is itself canonical (no chains)", () => {
    const chained = Object.entries(SELLER_ALIASES).filter(([, slug]) => canonicalSeller(slug) !== slug);
    expect(chained).toEqual([]);
  });

  it("no maker is spelled as an alias of something else", () => {
    expect(Object.keys(SELLER_ALIASES).filter((alias) => isMaker(alias))).toEqual([]);
  });
});

describe("isMaker: makers only, never resellers, gateways or plans (D1)", () => {
  it.each([
    "anthropic",
    "openai",
    "google",
    "mistral",
    "deepseek",
    "xai",
    "meta",
    "alibaba",
    "moonshotai",
    "zai",
    "amazon",
  ])("%s is a maker", (slug) => expect(isMaker(slug)).toBe(true));

  it.each([
    "amazon-bedrock",
    "google-vertex",
    "azure",
    "openrouter",
    "togetherai",
    "fireworks-ai",
    "deepinfra",
    "kimi-for-coding",
    "github-copilot",
    "sao10k",
  ])("%s is no maker", (slug) => expect(isMaker(slug)).toBe(false));

  it("every maker has a display name", () => {
    expect(Object.entries(MAKERS).filter(([, m]) => m.name.trim().length === 0)).toEqual([]);
  });

  it("a maker can also bill by plan: poolside (models.dev lists its own models at cost 0)", () => {
    expect(isMaker("poolside")).toBe(true);
    expect(planKind("poolside")).toBe("subscription");
    expect(channelOf("poolside", "poolside")).toBe("direct");
  });
});

describe("channelOf: the channel a seller sells a maker's model in (D2)", () => {
  it.each([
    "anthropic sells anthropic: direct",
    "openrouter sells anthropic: reseller_1",
    "amazon-bedrock sells anthropic: reseller_2",
    "azure sells openai: reseller_3",
    "google-vertex sells anthropic: reseller_4",
    "togetherai sells meta: reseller_5",
    "kimi-for-coding sells moonshotai: coding_plan",
    "zai-coding-plan sells zai: coding_plan",
    "minimax-coding-plan sells minimax: token_plan",
    "xiaomi-token-plan-ams sells xiaomi: token_plan",
    "deepinfra sells meta: other",
    "github-copilot sells openai: other",
  ])("%s", (row) => {
    const [, seller, maker, channel] = /^(\S+) sells (\S+): (\S+)$/.exec(row)!;
    expect(channelOf(seller!, maker!)).toBe(channel);
  });

  it("the named reseller channels of channel.ts and sellers.ts agree, seller for seller", () => {
    for (const [channel, { seller }] of Object.entries(NAMED_RESELLERS))
      expect(channelOf(seller, "anthropic"), seller).toBe(channel);
  });

  it("every channelOf answer is a channel; the catch-all ones carry several sellers", () => {
    const sellers = [...Object.keys(PLAN_SELLERS), "openrouter", "azure", "deepinfra", "anthropic"];
    for (const seller of sellers) expect(isChannel(channelOf(seller, "anthropic")), seller).toBe(true);
    expect([...MULTI_SELLER_CHANNELS].every((c) => CHANNELS.includes(c))).toBe(true);
    expect(MULTI_SELLER_CHANNELS.has("direct")).toBe(false);
  });
});

describe("planKind: plans by table, or by the seller id's own words", () => {
  it("plan sellers by the table, the table before the words", () => {
    const sellers = ["alibaba-coding-plan", "minimax-coding-plan", "alibaba-token-plan", "github-copilot", "llama"];
    expect(sellers.map(planKind)).toEqual(["coding_plan", "token_plan", "token_plan", "subscription", "subscription"]);
  });

  it("a plan the table does not list yet, by its id (invented ids)", () => {
    const sellers = ["some-new-coding-plan", "acme-for-coding", "acme-token-plan-eu"];
    expect(sellers.map(planKind)).toEqual(["coding_plan", "coding_plan", "token_plan"]);
  });

  it("sellers that bill money per unit have none", () => {
    expect(["deepinfra", "anthropic", "openrouter"].map(planKind)).toEqual([null, null, null]);
  });
});
