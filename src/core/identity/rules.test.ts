import { describe, expect, it } from "vitest";
import { familyOf, hostedMaker, isOpenWeightsFamily, orgMaker } from "./maker.js";
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

describe("issue 25 grammar rows: spellings parsed, each with a recorded spelling (T180–T183)", () => {
  it.each([
    // litellm openai 2026-06-01: a fine-tuning id is its base model with a fine_tuning qualifier (T181)
    ["ft:gpt-4o-2024-08-06", null, "gpt-4o-2024-08-06", { fine_tuning: "inference" }],
    // litellm amazon-bedrock 2026-06-01: Bedrock's legacy Claude ids spell the version after -v
    ["anthropic.claude-v2:1", "anthropic", "claude-2.1", {}],
    ["anthropic.claude-instant-v1", "anthropic", "claude-instant-1", {}],
    // litellm amazon-bedrock: Cohere's API version tag goes, Embed v4's model version stays
    ["cohere.command-text-v14", "cohere", "command-text", {}],
    ["cohere.embed-v4:0", "cohere", "embed-v4", {}],
    ["amazon.titan-embed-text-v2:0", "amazon", "titan-embed-text-v2", {}],
    ["openai.gpt-oss-120b-1:0", "openai", "gpt-oss-120b", {}],
    // portkey amazon-bedrock: DeepSeek's Bedrock ids leave the family out; AI21's vendor has a digit
    ["deepseek.r1-v1:0", "deepseek", "deepseek-r1", {}],
    // models-dev amazon-bedrock names deepseek.v3-v1:0 "DeepSeek-V3.1": AWS's id leaves the minor out
    ["deepseek.v3-v1:0", "deepseek", "deepseek-v3.1", {}],
    ["ai21.jamba-1-5-mini-v1:0", "ai21", "jamba-1-5-mini", {}],
    // litellm fal-ai 2026-06-01: a gateway's path spells the model from its family's segment on
    ["fal-ai/flux-pro/v1.1-ultra", null, "flux-pro-v1.1-ultra", {}],
    ["fal-ai/bytedance/seedream/v3/text-to-image", "bytedance", "seedream-v3", {}],
  ])("%s → org %s, core %s", (raw, org, core, qualifiers) => {
    const s = parseSpelling(raw);
    expect(s.org).toBe(org);
    expect(s.core).toBe(core);
    expect(s.qualifiers).toEqual(qualifiers);
  });
});

// (one describe per kind of row: a describe callback stays under 80 lines, issue 34 §4)
describe("issue 25 grammar rows: comparison keys, each with a recorded spelling (T180–T183)", () => {
  it.each([
    // portkey xai 2026-06-01: pre-release spellings of one generation are one key; the date is last
    ["grok-4.20-beta-0309-reasoning-exp-sa", "grok-4-20-reasoning"],
    ["grok-4.20-experimental-beta-0304-non-reasoning", "grok-4-20-non-reasoning"],
    ["grok-4.20-reasoning-gv2", "grok-4-20-reasoning"],
    ["grok-4.20-beta-latest-reasoning", "grok-4-20-reasoning-latest"],
    ["grok-4.20-0309-reasoning", "grok-4-20-reasoning-0309"],
    // genai-prices openrouter 2026-06-01 x-ai/grok-3-beta: the beta of Grok 3 is Grok 3
    ["grok-3-beta", "grok-3"],
    // litellm mistral 2026-06-01, regolo-ai, nano-gpt: Mistral's spellings
    ["mistral-7b-instruct-v03", "mistral-7b-instruct-v0-3"],
    ["mixtral-8x7b-instruct-v0.1", "mixtral-8x7b-instruct"],
    ["mistral-small3.2", "mistral-small-3-2"],
    ["mistral-small-31-24b-instruct", "mistral-small-3-1-24b-instruct"],
    // litellm amazon-bedrock meta.llama3-2-11b-instruct-v1:0: Llama 3.2 11B is only a vision model
    ["llama3-2-11b-vision-instruct", "llama-3-2-11b-instruct"],
    // models-dev ollama-cloud gemma3:12b, groq gemma2-9b-it
    ["gemma3-12b", "gemma-3-12b"],
    // litellm fireworks-ai: Fireworks' qwen-v2p5 and code-llama
    ["qwen-v2p5-14b-instruct", "qwen2-5-14b-instruct"],
    ["code-llama-13b", "codellama-13b"],
    // portkey togetherai togethercomputer/Qwen-7B: Qwen 1's size is no version
    ["qwen-7b", "qwen-7b"],
    // models-dev digitalocean deepseek-3.2
    ["deepseek-3.2", "deepseek-v3-2"],
    // portkey azure 2026-06-01: Azure's deployment names
    ["phi35-mini-instruct", "phi-3-5-mini-instruct"],
    ["phi4", "phi-4"],
    ["tts-hd", "tts-1-hd"],
    ["embed-v-4-0", "embed-v4"],
    // litellm amazon-bedrock cohere.command-text-v14 → Cohere's Command
    ["command-text", "command"],
    // FLUX.1 ids (models-dev nvidia black-forest-labs/flux.1-dev, litellm azure FLUX.1-Kontext-pro)
    ["flux.1-dev", "flux-dev"],
    ["flux.1-kontext-pro", "flux-kontext-pro"],
    // Google: qiniu-ai gemini-3.0-pro-preview, portkey google-vertex gemini-1.0-pro, Imagen/Veo generations
    ["gemini-3.0-pro-preview", "gemini-3-pro-preview"],
    ["gemini-1.0-pro-001", "gemini-pro-001"],
    ["imagen-4.0-fast-generate-001", "imagen-4-fast-001"],
    ["veo-3.1-generate-preview", "veo-3-1-preview"],
    // portkey google-vertex claude-3-5-sonnet-v2@20241022, models-dev helicone claude-3.5-sonnet-v2
    ["claude-3-5-sonnet-v2-20241022", "claude-3-5-sonnet-20241022"],
    ["claude-3.5-sonnet-v2", "claude-3-5-sonnet-20241022"],
    // models-dev poe 2026-06-01: Poe's names of the makers' snapshots; portkey openrouter stepfun-ai/step3
    ["gpt-4o-aug", "gpt-4o-2024-08-06"],
    ["gpt-4-classic-0314", "gpt-4-0314"],
    ["claude-sonnet-3.5-june", "claude-3-5-sonnet-20240620"],
    ["step3", "step-3"],
    // GitLab Duo's product prefix (models-dev gitlab 2026-06-01)
    ["duo-chat-opus-4-5", "claude-opus-4-5"],
  ])("%s reads as %s", (core, key) => {
    expect(keyOf(core)).toBe(key);
  });
});

describe("issue 25 grammar rows: prefixes and suffixes, hosts, open weights (T181–T183)", () => {
  const family = (maker: string) => (key: string) => familyOf(key) === maker;
  it.each([
    // litellm databricks databricks-meta-llama-3-3-70b-instruct: seller prefixes chain
    ["databricks-meta-llama-3-3-70b-instruct", "meta", "llama-3-3-70b-instruct", {}],
    // models-dev mistral labs-devstral-small-2512, litellm mistral open-mistral-nemo
    ["labs-devstral-small-2512", "mistral", "devstral-small-2512", {}],
    ["open-mistral-nemo", "mistral", "mistral-nemo", {}],
    // an earlier version's slug openai/ft-gpt-4o, portkey azure gpt-4o.ft
    ["ft-gpt-4o", "openai", "gpt-4o", { fine_tuning: "inference" }],
    ["gpt-4o-ft", "openai", "gpt-4o", { fine_tuning: "inference" }],
    // litellm fireworks-ai llama4-maverick-instruct-basic, groq mixtral-8x7b-32768
    ["llama-4-maverick-instruct-basic", "meta", "llama-4-maverick-instruct", {}],
    ["mixtral-8x7b-32768", "mistral", "mixtral-8x7b", {}],
    // genai-prices togetherai meta-llama/Meta-Llama-3-8B-Instruct-Lite, Meta-Llama-3.1-8B-Instruct-Reference
    ["meta-llama-3-8b-instruct-lite", "meta", "meta-llama-3-8b", { variant: "lite" }],
    ["llama-3-1-8b-instruct-reference", "meta", "llama-3-1-8b-instruct", { variant: "reference" }],
    // genai-prices togetherai meta-llama/Llama-2-13b-chat-hf
    ["llama-2-13b-chat-hf", "meta", "llama-2-13b-chat", {}],
    // models-dev routing-run route/deepseek-v4-pro-6bit, nano-gpt deepseek-chat-cheaper
    ["deepseek-v4-pro-6bit", "deepseek", "deepseek-v4-pro", { quantization: "6bit" }],
    ["deepseek-chat-cheaper", "deepseek", "deepseek-chat", { variant: "cheaper" }],
    // models-dev aihubmix coding-xiaomi-mimo-v2.5-free
    ["coding-xiaomi-mimo-v2-5-free", "xiaomi", "mimo-v2-5", { variant: "free" }],
  ])("%s may be %s's %s", (key, maker, stripped, qualifiers) => {
    expect(strippedForms(key, family(maker))).toContainEqual({ key: stripped, qualifiers });
  });

  it.each([
    // the hosts' own families and their copies of others' weights (T183)
    ["togethercomputer", "llama-2-7b", "meta"],
    ["togethercomputer", "falcon-40b-instruct", "tii"],
    ["togethercomputer", "Qwen-7B", "alibaba"],
    ["togethercomputer", "alpaca-7b", "stanford"],
    ["nvidia", "DeepSeek-V3.2-NVFP4", "deepseek"],
    ["nvidia", "Llama-3.3-70B-Instruct-FP8", "meta"],
    ["togethercomputer", "RedPajama-INCITE-7B-Chat", null],
    ["togethercomputer", "LLaMA-2-7B-32K", null],
    ["nvidia", "Llama-3.1-Nemotron-70B-Instruct-HF", null],
    ["nvidia", "rerank-qa-mistral-4b", null],
  ])("host %s/%s is made by %s (null: by the host)", (org, core, maker) => {
    expect(hostedMaker(org, core)).toBe(maker);
  });

  it.each([
    ["meta", "llama-2-13b-chat-hf", true],
    ["meta", "codellama-34b-instruct", true],
    ["alibaba", "qwen1-5-72b", true],
    ["alibaba", "qwen-max", false],
    ["google", "gemma-2-9b-it", true],
    ["google", "gemini-2-5-pro", false],
    ["mistral", "mistral-7b-instruct-v0-2", true],
    ["mistral", "mistral-large-2411", false],
  ])("open weights: %s %s is %s", (maker, key, open) => {
    expect(isOpenWeightsFamily(maker, key)).toBe(open);
  });
});
