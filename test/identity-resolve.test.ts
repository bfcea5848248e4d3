import { setImmediate as turn } from "node:timers/promises";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type IdentityResult,
  movingAliasesOf,
  resolveIdentities,
  type SourceListings,
} from "../src/core/identity/resolve.js";
import { recordedListings } from "./recorded-payloads.js";

/**
 * The rules of identity resolution (D1, D2; issue 12 T60–T66), one by one, on the real listings of
 * the 2026-06-01 recorded run: every source's payload parsed by its adapter, narrowed to the
 * spellings of the models a rule is about. test/identity-golden.test.ts checks whole runs against
 * the golden files; this file says which rule puts each listing where. No replay, no store.
 */

let run: SourceListings[];
beforeAll(() => {
  run = recordedListings("2026-06-01");
  // The sources the rules below are about (a source added later joins them).
  expect(run.map((s) => s.source)).toEqual(
    expect.arrayContaining(["genai-prices", "litellm", "llm-prices", "models-dev", "openrouter", "portkey"]),
  );
});

/** Resolves the listings of the run whose spelling matches `spelling`. */
function resolve(spelling: RegExp): IdentityResult {
  const narrowed = run.map((s) => ({ ...s, listings: s.listings.filter((l) => spelling.test(l.model)) }));
  const result = resolveIdentities(narrowed);
  // nothing is lost: every listing lands on a model or is counted unmatched, once
  const listed = narrowed.reduce((n, s) => n + s.listings.length, 0);
  expect(listed).toBeGreaterThan(0);
  expect(result.resolved.length + result.unmatched.length).toBe(listed);
  return result;
}

/** Where `source`'s listing of `model` by `seller` landed. */
function placed(result: IdentityResult, source: string, seller: string, model: string) {
  const hits = result.resolved.filter(
    (r) => r.source === source && r.listing.seller === seller && r.listing.model === model,
  );
  expect(hits, `${source} ${seller} ${model}`).toHaveLength(1);
  const { modelId, channel, qualifiers } = hits[0]!;
  return { modelId, channel, qualifiers };
}

/** The placement `placed` returns: a model id, a channel and the listing's qualifiers (none by default). */
function placement(modelId: string, channel: string, qualifiers: Record<string, string> = {}) {
  return { modelId, channel, qualifiers };
}

function unmatched(result: IdentityResult, source: string, seller: string, model: string) {
  const hits = result.unmatched.filter((u) => u.source === source && u.seller === seller && u.model === model);
  expect(hits, `${source} ${seller} ${model}`).toHaveLength(1);
  return hits[0]!;
}

describe("one model, every spelling and channel (rules 1–3, D2)", () => {
  let opus4: IdentityResult;
  beforeAll(() => {
    opus4 = resolve(/claude-opus-4(-20250514|@20250514|-0)?(-v1:0)?$/);
  });

  it("forty listings of six sources, one model: the maker's undated id", () => {
    expect(opus4.resolved.length).toBeGreaterThanOrEqual(40);
    expect(new Set(opus4.resolved.map((r) => r.modelId))).toEqual(new Set(["anthropic/claude-opus-4-0"]));
    expect(opus4.unmatched).toEqual([]);
  });

  it.each([
    ["models-dev", "anthropic", "claude-opus-4-20250514", "direct", {}],
    ["llm-prices", "anthropic", "claude-opus-4", "direct", {}],
    ["openrouter", "openrouter", "anthropic/claude-opus-4", "reseller_1", {}],
    ["litellm", "amazon-bedrock", "anthropic.claude-opus-4-20250514-v1:0", "reseller_2", {}],
    // a cross-region inference profile is the region qualifier of Bedrock's price
    ["litellm", "amazon-bedrock", "eu.anthropic.claude-opus-4-20250514-v1:0", "reseller_2", { region: "eu" }],
    ["genai-prices", "amazon-bedrock", "regional.anthropic.claude-opus-4-20250514-v1:0", "reseller_2", {}],
    ["models-dev", "google-vertex", "claude-opus-4@20250514", "reseller_4", {}],
    // every other reseller shares `other`, where the seller is a qualifier (D2)
    ["models-dev", "nano-gpt", "claude-opus-4-20250514", "other", { seller: "nano-gpt" }],
    // a seller prefix on the spelling (models-dev digitalocean, litellm databricks)
    ["models-dev", "digitalocean", "anthropic-claude-opus-4", "other", { seller: "digitalocean" }],
    ["litellm", "databricks", "databricks-claude-opus-4", "other", { seller: "databricks" }],
  ])("%s %s %s → %s", (source, seller, model, channel, qualifiers) => {
    expect(placed(opus4, source, seller, model)).toEqual({ modelId: "anthropic/claude-opus-4-0", channel, qualifiers });
  });

  it("the sources' spellings become the model's aliases (D1), its own slug not among them", () => {
    const aliases = opus4.aliases.get("anthropic/claude-opus-4-0");
    expect(aliases).toEqual(
      expect.arrayContaining([
        "claude-opus-4-20250514",
        "anthropic/claude-opus-4",
        "anthropic.claude-opus-4-20250514-v1:0",
        "claude-opus-4@20250514",
      ]),
    );
    expect(aliases).not.toContain("claude-opus-4-0");
  });

  it("an earlier run's id still finds the model (T66)", () => {
    expect(opus4.lookup("anthropic", "claude-opus-4-20250514")).toBe("anthropic/claude-opus-4-0");
    expect(opus4.lookup("anthropic", "claude-opus-5")).toBeNull();
  });
});

describe("snapshots and aliases (rule 2, T64)", () => {
  let large: IdentityResult;
  beforeAll(() => {
    large = resolve(/^(mistralai?\/)?mistral-large(-\d{4}|-latest)?$/);
  });

  it("each dated snapshot is a model of its own", () => {
    for (const date of ["2402", "2407", "2411", "2512"])
      expect(placed(large, "litellm", "mistral", `mistral-large-${date}`).modelId).toBe(
        `mistral/mistral-large-${date}`,
      );
  });

  it("the undated alias joins the snapshot whose prices it repeats (genai-prices mistral mistral-large)", () => {
    expect(placed(large, "genai-prices", "mistral", "mistral-large").modelId).toBe("mistral/mistral-large-2411");
    expect(placed(large, "openrouter", "openrouter", "mistralai/mistral-large")).toEqual(
      placement("mistral/mistral-large-2411", "reseller_1"),
    );
  });

  it("-latest follows the snapshot the same source lists at the same prices", () => {
    for (const source of ["litellm", "models-dev", "portkey"])
      expect(placed(large, source, "mistral", "mistral-large-latest").modelId).toBe("mistral/mistral-large-2512");
  });

  it("-latest without that evidence in the run votes on nothing (portkey mistral mistral-small-latest at 0.1 / 0.3)", () => {
    const small = resolve(/^(mistralai\/)?mistral-small-(latest|2603|2506)$/);
    expect(unmatched(small, "portkey", "mistral", "mistral-small-latest")).toMatchObject({
      reason: "moving alias: the source does not show in this run which snapshot it points at",
      nearest: "mistral/mistral-small-2603",
    });
    // models-dev shows it: its -latest lands on the snapshot at the same prices
    expect(placed(small, "models-dev", "mistral", "mistral-small-latest").modelId).toBe("mistral/mistral-small-2603");
  });

  it("-latest votes when its listing names what it serves (issue 25 §5, T184)", () => {
    const haiku = resolve(/claude-3-5-haiku/);
    // genai-prices lists no fixed Haiku 3.5 spelling, but names its -latest row "Claude Haiku 3.5",
    // the name the maker's own listing gives claude-3-5-haiku-20241022
    expect(placed(haiku, "genai-prices", "anthropic", "claude-3-5-haiku-latest").modelId).toBe(
      "anthropic/claude-3-5-haiku-20241022",
    );
    // genai-prices' mistral-small-latest is named "Mistral Small 3.2": not the name of Small 4, so no vote
    const small = resolve(/^mistral-small-(latest|2603)$/);
    expect(unmatched(small, "genai-prices", "mistral", "mistral-small-latest").nearest).toBe(
      "mistral/mistral-small-2603",
    );
  });
});

describe("serving suffixes and router variants are qualifiers, not models (T60)", () => {
  let r1: IdentityResult;
  beforeAll(() => {
    r1 = resolve(/deepseek-r1-0528/i);
  });

  it("open weights no maker lists found their model under the maker (rule 2b)", () => {
    expect(placed(r1, "openrouter", "openrouter", "deepseek/deepseek-r1-0528").modelId).toBe(
      "deepseek/deepseek-r1-0528",
    );
  });

  it.each([
    ["litellm", "deepinfra", "deepseek-ai/DeepSeek-R1-0528-Turbo", { variant: "turbo", seller: "deepinfra" }],
    ["portkey", "nebius", "deepseek-ai/DeepSeek-R1-0528-fast", { variant: "fast", seller: "nebius" }],
    ["models-dev", "chutes", "deepseek-ai/DeepSeek-R1-0528-TEE", { variant: "tee", seller: "chutes" }],
    ["portkey", "togetherai", "deepseek-ai/DeepSeek-R1-0528-tput", { variant: "throughput" }],
    ["portkey", "openrouter", "deepseek/deepseek-r1-0528:free", { variant: "free" }],
    // `-maas` (Vertex's model-as-a-service) is no variant at all
    ["litellm", "google-vertex", "deepseek-ai/deepseek-r1-0528-maas", {}],
  ])("%s %s %s", (source, seller, model, qualifiers) => {
    expect(placed(r1, source, seller, model)).toMatchObject({ modelId: "deepseek/deepseek-r1-0528", qualifiers });
  });

  it("a distilled model on the same snapshot date stays a model of its own", () => {
    expect(placed(r1, "litellm", "novita-ai", "deepseek/deepseek-r1-0528-qwen3-8b").modelId).toBe(
      "deepseek/deepseek-r1-0528-qwen3-8b",
    );
  });

  it("a router's variant filed under the maker is no maker's price (genai-prices openai gpt-4o:extended)", () => {
    const gpt4o = resolve(/^(openai\/)?gpt-4o(:extended)?$/);
    expect(unmatched(gpt4o, "genai-prices", "openai", "gpt-4o:extended").reason).toBe(
      "a router's :extended variant filed under the maker: not the maker's price",
    );
    expect(placed(gpt4o, "genai-prices", "openrouter", "openai/gpt-4o:extended")).toEqual(
      placement("openai/gpt-4o", "reseller_1", { variant: "extended" }),
    );
    expect(placed(gpt4o, "models-dev", "openai", "gpt-4o").channel).toBe("direct");
  });
});

describe("makers by evidence (T61)", () => {
  it("a family resold by others lands under its maker (Z.AI's GLM-4.7 at Alibaba Cloud and on plans)", () => {
    const glm = resolve(/^((z-ai|zai)\/)?glm-4\.7$/);
    expect(placed(glm, "models-dev", "zai", "glm-4.7")).toEqual(placement("zai/glm-4.7", "direct"));
    expect(placed(glm, "portkey", "alibaba", "glm-4.7")).toEqual(
      placement("zai/glm-4.7", "other", { seller: "alibaba" }),
    );
    expect(placed(glm, "models-dev", "zai-coding-plan", "glm-4.7")).toEqual(
      placement("zai/glm-4.7", "coding_plan", { seller: "zai-coding-plan" }),
    );
  });

  it("a third party's fine-tune is its publisher's model, with the publisher's display name", () => {
    const sao = resolve(/^sao10k\//i);
    expect(placed(sao, "openrouter", "openrouter", "sao10k/l3.3-euryale-70b").modelId).toBe("sao10k/l3.3-euryale-70b");
    expect(sao.publisherNames.get("sao10k")).toBe("Sao10K");
  });

  it("what names no maker, or no model, is counted with its reason, never founded", () => {
    const odd = resolve(/^(model-router|openrouter\/auto|poetools\/claude-code|ai21\.j2-mid-v1|jamba-1\.5-mini)$/);
    // AI21's own Jamba 1.5 Mini is kept so that AI21 sells in this run: Bedrock's J2 may not found
    expect(odd.resolved.filter((r) => !r.listing.model.startsWith("jamba"))).toEqual([]);
    expect(unmatched(odd, "models-dev", "azure", "model-router").reason).toBe(
      "no maker: no organisation, family or maker seller names one, nor one model",
    );
    expect(unmatched(odd, "openrouter", "openrouter", "openrouter/auto").reason).toBe(
      "not a model: a router's automatic model choice",
    );
    expect(unmatched(odd, "models-dev", "poe", "poetools/claude-code").reason).toMatch(/^not a model: /);
    // Bedrock's J2 names AI21 (`ai21.`), which sells, but no source of the run says it is open weights
    expect(unmatched(odd, "litellm", "amazon-bedrock", "ai21.j2-mid-v1").reason).toBe(
      "ai21 model not listed by its maker, and no source says it is open weights",
    );
    // models-dev: azure model-router, poe claude-code, openrouter's and kilo's openrouter/auto
    expect(odd.unresolved.get("models-dev")).toBe(4);
  });
});

describe("issue 25: one model, one id — families, hosts, fine-tunes, moving aliases", () => {
  it("Llama 4 Maverick: every spelling of the family is one model carrying Bedrock's and Together's prices (§1)", () => {
    const maverick = resolve(/maverick/i);
    expect(new Set(maverick.resolved.map((r) => r.modelId))).toEqual(
      new Set(["meta/llama-4-maverick-17b-128e-instruct"]),
    );
    expect(placed(maverick, "models-dev", "amazon-bedrock", "meta.llama4-maverick-17b-instruct-v1:0").channel).toBe(
      "reseller_2",
    );
    expect(placed(maverick, "litellm", "togetherai", "meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8")).toEqual(
      placement("meta/llama-4-maverick-17b-128e-instruct", "reseller_5", { quantization: "fp8" }),
    );
    // Meta's own Llama API ids, decorated by the chip they run on, are the maker's own listing
    expect(placed(maverick, "models-dev", "llama", "cerebras-llama-4-maverick-17b-128e-instruct").channel).toBe(
      "direct",
    );
    // OpenRouter's short id is the weights its API names (hugging_face_id)
    expect(placed(maverick, "openrouter", "openrouter", "meta-llama/llama-4-maverick").modelId).toBe(
      "meta/llama-4-maverick-17b-128e-instruct",
    );
  });

  it("word-order twins of one snapshot and Mistral's family ids beside its dated ids are one model (§1, T182)", () => {
    const claude = resolve(/claude-(4-opus|opus-4)(-20250514|-0)?$/);
    expect(placed(claude, "portkey", "anthropic", "claude-4-opus-20250514").modelId).toBe("anthropic/claude-opus-4-0");
    const mistral = resolve(
      /^(mistralai\/)?(mistral-small-(2506|3-2-2506)|ministral-(3-)?[38]b-2512|mistral-large-(2512|3))$/,
    );
    for (const [model, id] of [
      ["mistral-small-3-2-2506", "mistral/mistral-small-2506"],
      ["ministral-3-3b-2512", "mistral/ministral-3b-2512"],
      ["ministral-3-8b-2512", "mistral/ministral-8b-2512"],
      ["mistral-large-3", "mistral/mistral-large-2512"],
    ] as const)
      expect(placed(mistral, "litellm", "mistral", model).modelId).toBe(id);
  });

  it("xAI's beta, experimental and -gv2 spellings are the generation's models; reasoning stays apart (§1)", () => {
    const grok = resolve(/^(x-ai\/)?grok-4\.20/);
    const ids = new Set(grok.resolved.filter((r) => r.listing.seller === "xai").map((r) => r.modelId));
    // The bare family id is the reasoning snapshot (overrides.ts FAMILY_IDS: OpenRouter serves
    // x-ai/grok-4.20 as x-ai/grok-4.20-20260309, "a reasoning model"): one generation, one price.
    expect(placed(grok, "portkey", "xai", "grok-4.20").modelId).toBe("xai/grok-4.20-0309-reasoning");
    expect(placed(grok, "portkey", "xai", "grok-4.20-beta-latest").modelId).toBe("xai/grok-4.20-0309-reasoning");
    expect(placed(grok, "openrouter", "openrouter", "x-ai/grok-4.20").modelId).toBe("xai/grok-4.20-0309-reasoning");
    expect(ids).toEqual(
      new Set(["xai/grok-4.20-0309-reasoning", "xai/grok-4.20-0309-non-reasoning", "xai/grok-4.20-multi-agent-0309"]),
    );
    expect(placed(grok, "portkey", "xai", "grok-4.20-beta-0309-reasoning-exp-sa").modelId).toBe(
      "xai/grok-4.20-0309-reasoning",
    );
    expect(placed(grok, "portkey", "xai", "grok-4.20-non-reasoning-gv2").modelId).toBe(
      "xai/grok-4.20-0309-non-reasoning",
    );
  });

  it("a seller that writes a mixture-of-experts model's sizes in another order, its active size dropped, finds it (§1)", () => {
    const nemotron = resolve(/nemotron-(3-super|super-3|3-nano|nano-3)-/i);
    expect(placed(nemotron, "litellm", "amazon-bedrock", "nvidia.nemotron-super-3-120b").modelId).toBe(
      "nvidia/nemotron-3-super-120b-a12b",
    );
    expect(placed(nemotron, "portkey", "amazon-bedrock", "nvidia.nemotron-nano-3-30b").modelId).toBe(
      "nvidia/nemotron-3-nano-30b-a3b",
    );
    // (never onto the other MoE size of a name: Nano Omni 30B-A3B stays its own model)
    const ids = new Set(nemotron.resolved.map((r) => r.modelId));
    expect(ids.has("nvidia/nemotron-super-3-120b")).toBe(false);
    expect(ids.has("nvidia/nemotron-nano-3-30b")).toBe(false);
  });

  it("a snapshot date the maker does not list is no spelling of its undated alias (T246)", () => {
    // Bedrock still sells Mistral Small 24.02 at 1 / 3; Mistral's `mistral-small` is the alias of its
    // newest Small (0.1 / 0.3), and Mistral lists Small 2409, 2501, 2503… but not 2402.
    const small = resolve(/^(mistral\.)?mistral-small(-2402-v1:0|-2409|-2501|-2503|-2506|-2603)?$/);
    const bedrock = small.unmatched.filter((u) => u.seller === "amazon-bedrock" && u.model.includes("2402"));
    expect(bedrock.length).toBeGreaterThan(0);
    expect(small.resolved.filter((r) => r.listing.model.includes("2402"))).toEqual([]);
    expect(placed(small, "portkey", "mistral", "mistral-small").modelId).toBe("mistral/mistral-small");
    expect(placed(small, "portkey", "mistral", "mistral-small-2503").modelId).toBe("mistral/mistral-small-2503");
  });

  it("a host makes only its own families: Together's Llama 2 is Meta's, its RedPajama Together's (§2, T183)", () => {
    const together = resolve(/^togethercomputer\//i);
    expect(placed(together, "portkey", "togetherai", "togethercomputer/llama-2-7b").modelId).toBe("meta/llama-2-7b");
    expect(placed(together, "portkey", "togetherai", "togethercomputer/falcon-7b").modelId).toBe("tii/falcon-7b");
    expect(placed(together, "portkey", "togetherai", "togethercomputer/RedPajama-INCITE-7B-Chat").modelId).toBe(
      "togethercomputer/redpajama-incite-7b-chat",
    );
    const nvidia = resolve(/^(hf:)?nvidia\/(DeepSeek-V3\.2-NVFP4|Kimi-K2\.5-NVFP4)$|^deepseek-v3\.2$|^kimi-k2\.5$/);
    expect(placed(nvidia, "models-dev", "vultr", "nvidia/DeepSeek-V3.2-NVFP4")).toEqual(
      placement("deepseek/deepseek-v3.2", "other", { quantization: "nvfp4", seller: "vultr" }),
    );
  });

  it("a fine-tuning id is a fine_tuning dimension of its base model, never a model (§3, T181)", () => {
    const ft = resolve(/^(ft:)?gpt-4o(-2024-08-06|-2024-11-20)?$|^gpt-4o(\.ft)?$/);
    expect(placed(ft, "litellm", "openai", "ft:gpt-4o-2024-08-06")).toEqual(
      placement("openai/gpt-4o-2024-08-06", "direct", { fine_tuning: "inference" }),
    );
    expect(placed(ft, "portkey", "azure", "gpt-4o.ft")).toMatchObject({
      modelId: "openai/gpt-4o",
      qualifiers: { fine_tuning: "inference" },
    });
    expect([...ft.aliases.values()].flat()).toContain("ft-gpt-4o");
    expect(ft.resolved.some((r) => /ft/.test(r.modelId))).toBe(false);
    // an earlier version's openai/ft-gpt-4o is a former id of the base model (T66)
    expect(ft.lookup("openai", "ft-gpt-4o")).toBe("openai/gpt-4o");
  });

  it("what OpenRouter says it serves under deepseek/deepseek-chat (DeepSeek-V3) holds in every source (§5)", () => {
    const chat = resolve(/^(deepseek\/)?deepseek-(chat|v3)$/);
    for (const source of ["openrouter", "models-dev", "litellm", "portkey", "genai-prices"])
      expect(placed(chat, source, "openrouter", "deepseek/deepseek-chat").modelId).toBe("deepseek/deepseek-v3");
    // DeepSeek's own deepseek-chat stays DeepSeek's alias
    expect(placed(chat, "models-dev", "deepseek", "deepseek-chat").modelId).toBe("deepseek/deepseek-chat");
  });

  it("a spelling no maker's name reaches lands on the one model it names (genai-prices openrouter rocinante-12b, §6)", () => {
    const r = resolve(/rocinante-12b$/i);
    expect(placed(r, "genai-prices", "openrouter", "rocinante-12b").modelId).toBe("thedrummer/rocinante-12b");
  });

  it("a host's plain release of open weights founds the model; a third party's fine-tune never does (§6, T183)", () => {
    const coder = resolve(/qwen2p5-coder-14b-instruct$|Llama-3\.3-70B-Anthrobomination/);
    expect(placed(coder, "litellm", "fireworks-ai", "qwen2p5-coder-14b-instruct").modelId).toBe(
      "alibaba/qwen2.5-coder-14b-instruct",
    );
    expect(unmatched(coder, "models-dev", "nano-gpt", "Llama-3.3-70B-Anthrobomination").reason).toBe(
      "names no meta model",
    );
  });
});

describe("moving aliases never move back (issue 25 §5, T184)", () => {
  it("mistral-small-latest follows the newest Small snapshot through the recorded runs in date order", async () => {
    let memory = new Map<string, string>();
    const dates = ["2025-12-01", "2026-01-01", "2026-03-01", "2026-04-01", "2026-06-01"];
    const targets: string[] = [];
    for (const date of dates) {
      await turn(); // each date's payloads are read and parsed: the worker's event loop turns between (issue 34 §2)
      const inputs = recordedListings(date).map((s) => ({
        ...s,
        listings: s.listings.filter((l) => /mistral-small/.test(l.model)),
      }));
      const result = resolveIdentities(inputs, { movingAliases: memory });
      const target = [...result.aliases].find(([, a]) => a.includes("mistral-small-latest"))?.[0];
      expect(target, date).toBeDefined();
      targets.push(target!);
      memory = movingAliasesOf(
        [...result.aliases].map(([id, aliases]) => ({ id, provider: "mistral", listed: true, aliases })),
      );
    }
    // never back: each run's snapshot is at least the one before (the undated `mistral-small` first)
    const order = [
      "mistral/mistral-small",
      "mistral/mistral-small-2503",
      "mistral/mistral-small-2506",
      "mistral/mistral-small-2603",
    ];
    const ranks = targets.map((t) => order.indexOf(t));
    expect(ranks.every((r) => r >= 0)).toBe(true);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(targets.at(-1)).toBe("mistral/mistral-small-2603");
  });

  it("when the snapshot it pointed at is not listed, the alias is held back, never moved back (invented: a run without Small 4)", () => {
    // Invented input, from the recorded 2026-06-01 listings: the rows of Small 4 and its -latest of
    // the sources that spell the maker's ids (models.dev, and Mistral's own docs since issue 48) are
    // dropped, so the newest Small snapshot the maker lists in this run is 2506.
    const run = recordedListings("2026-06-01").map((s) => ({
      ...s,
      listings: s.listings.filter(
        (l) =>
          /^mistral-small-(latest|2506|2603)$/.test(l.model) &&
          !((s.source === "models-dev" || s.source === "official-mistral") && /2603|latest/.test(l.model)),
      ),
    }));
    const before = new Map([["mistral/mistral-small-latest", "mistral/mistral-small-2603"]]);
    const free = resolveIdentities(run);
    const kept = resolveIdentities(run, { movingAliases: before });
    const target = (r: IdentityResult) => [...r.aliases].find(([, a]) => a.includes("mistral-small-latest"))?.[0];
    // without memory the alias would fall back to Small 3.2; with it, nothing moves back
    expect(target(free)).toBe("mistral/mistral-small-2506");
    expect(target(kept)).toBeUndefined();
    const latest = kept.unmatched.filter((u) => u.model === "mistral-small-latest");
    expect(latest.length).toBeGreaterThan(0);
    for (const u of latest)
      expect(u).toMatchObject({
        reason: "moving alias: the snapshot it pointed at is not listed in this run, and it never moves back",
        nearest: "mistral/mistral-small-2603",
      });
  });
});
