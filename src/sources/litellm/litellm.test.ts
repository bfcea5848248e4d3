import { describe, expect, it } from "vitest";
import { liveUrls, payloadOf, recordedAdapter } from "../../../test/recorded-payloads.js";
import { SourcePayloadError } from "../source.js";
import { litellmSeller, litellmSource } from "./index.js";

const { listings, listing, price } = recordedAdapter(litellmSource);

const FILE = "model_prices_and_context_window.json";
const payload = (text: string | null) => payloadOf(text === null ? {} : { [FILE]: text });

it("fetches its live payload from LiteLLM's main branch (issue 7 §1)", () => {
  expect(liveUrls(litellmSource)).toEqual([
    "https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json",
  ]);
});

describe("litellm info and seller names", () => {
  it("declares the registry record", () => {
    expect(litellmSource.id).toBe("litellm");
    expect(litellmSource.info).toMatchObject({ license: "MIT", weight: 0.7 });
  });

  it("maps LiteLLM provider names to canonical sellers", () => {
    expect(litellmSeller("bedrock")).toBe("amazon-bedrock");
    expect(litellmSeller("bedrock_converse")).toBe("amazon-bedrock");
    expect(litellmSeller("vertex_ai-language-models")).toBe("google-vertex");
    expect(litellmSeller("vertex_ai-anthropic_models")).toBe("google-vertex");
    expect(litellmSeller("gemini")).toBe("google");
    expect(litellmSeller("azure_ai")).toBe("azure");
    expect(litellmSeller("together_ai")).toBe("togetherai");
    expect(litellmSeller("fireworks_ai")).toBe("fireworks-ai");
    expect(litellmSeller("text-completion-openai")).toBe("openai");
    expect(litellmSeller("cohere_chat")).toBe("cohere");
    expect(litellmSeller("meta_llama")).toBe("meta");
    expect(litellmSeller("lambda_ai")).toBe("lambda-ai");
  });
});

describe.each(["2025-07-01", "2026-06-01"])("litellm %s real payload", (date) => {
  it("converts USD per token to USD per 1M tokens (claude opus 4: 15 / 75, cache 1.5 / 18.75)", () => {
    const m = "claude-opus-4-20250514";
    expect(price(date, "anthropic", m, "input")).toEqual([15, "mtok"]);
    expect(price(date, "anthropic", m, "output")).toEqual([75, "mtok"]);
    expect(price(date, "anthropic", m, "input", { cache: "read" })).toEqual([1.5, "mtok"]);
    expect(price(date, "anthropic", m, "input", { cache: "write" })).toEqual([18.75, "mtok"]);
    expect(listing(date, "anthropic", m)).toMatchObject({
      makerHint: "anthropic",
      contextWindow: 200000,
      maxOutputTokens: 32000,
    });
  });

  it("maps bedrock keys to amazon-bedrock with the vendor as makerHint, skipping region-pinned keys", () => {
    for (const m of ["anthropic.claude-opus-4-20250514-v1:0", "us.anthropic.claude-opus-4-20250514-v1:0"]) {
      expect(price(date, "amazon-bedrock", m, "input")).toEqual([15, "mtok"]);
      expect(price(date, "amazon-bedrock", m, "output")).toEqual([75, "mtok"]);
      expect(listing(date, "amazon-bedrock", m).makerHint).toBe("anthropic");
    }
    expect(listings(date).filter((l) => l.seller === "amazon-bedrock" && l.model.includes("/"))).toEqual([]);
  });

  it("maps _above_200k_tokens to a bracket at contextMin 200000 (gemini-2.5-pro)", () => {
    expect(price(date, "google", "gemini-2.5-pro", "input")).toEqual([1.25, "mtok"]);
    expect(price(date, "google", "gemini-2.5-pro", "input", { contextMin: 200000 })).toEqual([2.5, "mtok"]);
    expect(price(date, "google", "gemini-2.5-pro", "output", { contextMin: 200000 })).toEqual([15, "mtok"]);
    expect(listing(date, "google", "gemini-2.5-pro").makerHint).toBe("google");
  });

  it("maps _batches to tier batch (gpt-4.1 1 / 4)", () => {
    expect(price(date, "openai", "gpt-4.1", "input", { tier: "batch" })).toEqual([1, "mtok"]);
    expect(price(date, "openai", "gpt-4.1", "output", { tier: "batch" })).toEqual([4, "mtok"]);
  });

  it("maps per-second, per-character, per-query and audio-token prices", () => {
    expect(price(date, "openai", "whisper-1", "input", { modality: "audio" })).toEqual([0.0001, "second"]);
    expect(price(date, "openai", "whisper-1", "output", { modality: "audio" })).toBeUndefined();
    expect(price(date, "openai", "tts-1", "input")).toEqual([15, "mchars"]);
    expect(price(date, "cohere", "rerank-v3.5", "request")).toEqual([2, "krequests"]);
    expect(price(date, "openai", "gpt-4o-audio-preview", "input", { modality: "audio" })?.[1]).toBe("mtok");
  });

  it("maps search_context_cost_per_query to web_search per 1K calls by context size", () => {
    const q = (size: string) =>
      price(date, "openai", "gpt-4o-search-preview", "tool", {
        qualifiers: { tool: "web_search", context_size: size },
      });
    expect(q("low")).toEqual([30, "kcalls"]);
    expect(q("high")).toEqual([50, "kcalls"]);
  });

  it("turns azure/<zone>/ keys into a region qualifier on the azure listing", () => {
    const m = "gpt-4o-2024-08-06";
    expect(price(date, "azure", m, "input")).toEqual([2.5, "mtok"]);
    expect(price(date, "azure", m, "input", { qualifiers: { region: "eu" } })).toEqual([2.75, "mtok"]);
    expect(price(date, "azure", m, "output", { qualifiers: { region: "us" } })).toEqual([11, "mtok"]);
  });

  it("strips routing prefixes but keeps vendor prefixes", () => {
    expect(listing(date, "openrouter", "anthropic/claude-sonnet-4").makerHint).toBe("anthropic");
    expect(price(date, "openrouter", "anthropic/claude-sonnet-4", "input")).toEqual([3, "mtok"]);
    expect(listing(date, "google-vertex", "claude-opus-4@20250514").makerHint).toBe("anthropic");
    const ids = listings(date).map((l) => l.model);
    expect(ids.some((m) => /^(bedrock|vertex_ai|azure|gemini|fireworks_ai)\//.test(m))).toBe(false);
    // `openrouter/openrouter/auto` keeps OpenRouter's own vendor prefix once
    expect(ids.some((m) => m.startsWith("openrouter/openrouter/"))).toBe(false);
    // router pseudo-models with a 0 "variable" price are skipped
    expect(listings(date).some((l) => l.seller === "openrouter" && l.model === "openrouter/auto")).toBe(false);
    expect(listing(date, "fireworks-ai", "llama-v3p1-8b-instruct").prices.length).toBeGreaterThan(0);
    expect(ids).not.toContain("sample_spec");
    expect(ids).not.toContain("last_updated");
  });

  it("emits one listing per seller and model, with no negative amounts", () => {
    const keys = listings(date).map((l) => `${l.seller}|${l.model}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const l of listings(date)) for (const p of l.prices) expect(p.amount).toBeGreaterThanOrEqual(0);
  });
});

describe("litellm format drift", () => {
  it("cache_creation_input_token_cost_above_1hr (from 2025-10) becomes cache write_1h", () => {
    expect(price("2025-07-01", "anthropic", "claude-opus-4-20250514", "input", { cache: "write_1h" })).toBeUndefined();
    expect(price("2026-06-01", "anthropic", "claude-opus-4-20250514", "input", { cache: "write_1h" })).toEqual([
      30,
      "mtok",
    ]);
  });

  it("deprecation_date becomes deprecatedOn, and status deprecated once passed", () => {
    expect(listing("2026-06-01", "anthropic", "claude-opus-4-20250514")).toMatchObject({
      deprecatedOn: "2026-05-14",
      status: "deprecated",
    });
    expect(listing("2025-07-01", "azure", "gpt-4o-2024-08-06")).toMatchObject({
      deprecatedOn: "2025-08-20",
      status: null,
    });
  });

  it("_flex and _priority suffixes become service tiers (gpt-5, 2026-06-01)", () => {
    expect(price("2026-06-01", "openai", "gpt-5", "input", { tier: "flex" })).toEqual([0.625, "mtok"]);
    expect(price("2026-06-01", "openai", "gpt-5", "output", { tier: "priority" })).toEqual([20, "mtok"]);
    expect(price("2026-06-01", "openai", "gpt-5", "input", { tier: "priority", cache: "read" })).toEqual([
      0.25,
      "mtok",
    ]);
  });

  it("tiered_pricing ranges become context brackets (dashscope qwen3-coder-plus)", () => {
    for (const date of ["2026-01-01", "2026-06-01"]) {
      expect(price(date, "alibaba", "qwen3-coder-plus", "input")).toEqual([1, "mtok"]);
      expect(price(date, "alibaba", "qwen3-coder-plus", "input", { contextMin: 32000, contextMax: 128000 })).toEqual([
        1.8,
        "mtok",
      ]);
      expect(price(date, "alibaba", "qwen3-coder-plus", "output", { contextMin: 256000 })).toEqual([60, "mtok"]);
    }
  });

  it("per-image prices and size-prefixed keys (bedrock stability) become unit image", () => {
    const m = "stability.stable-diffusion-xl-v1";
    for (const date of ["2025-07-01", "2026-06-01"]) {
      expect(
        price(date, "amazon-bedrock", m, "output", {
          modality: "image",
          qualifiers: { size: "1024x1024", steps: "50-steps" },
        }),
      ).toEqual([0.04, "image"]);
    }
    // image_generation's input_cost_per_image is what one generated image costs (T70): an output image.
    expect(price("2026-06-01", "openai", "dall-e-3", "output", { modality: "image" })).toEqual([0.04, "image"]);
    expect(price("2026-06-01", "openai", "dall-e-3", "input", { modality: "image" })).toBeUndefined();
    expect(
      price("2026-06-01", "openai", "gpt-image-1-mini", "output", {
        modality: "image",
        qualifiers: { quality: "low", size: "1024x1024" },
      }),
    ).toEqual([0.005, "image"]);
  });

  it("does not read Fireworks' per-step FLUX prices as token prices (T70)", () => {
    expect(listings("2026-06-01").some((l) => l.model === "flux-1-schnell-fp8" && l.seller === "fireworks-ai")).toBe(
      false,
    );
  });
});

describe("litellm bad payloads", () => {
  it("throws SourcePayloadError when the file is missing", () => {
    expect(() => litellmSource.parse(payload(null))).toThrow(/no model_prices_and_context_window\.json/);
  });

  it("throws SourcePayloadError on text that is not JSON", () => {
    expect(() => litellmSource.parse(payload("{oops"))).toThrow(SourcePayloadError);
    expect(() => litellmSource.parse(payload("{oops"))).toThrow(/is not JSON/);
  });

  it("throws SourcePayloadError when the top level is not an object", () => {
    expect(() => litellmSource.parse(payload("[]"))).toThrow(/must be an object keyed by model name, got an array/);
  });

  // Invented fixture: malformed entries, negative and non-USD costs do not occur this way in real files.
  it("skips malformed entries, negative, non-numeric and DBU costs", () => {
    const text = JSON.stringify({
      sample_spec: { litellm_provider: "openai", input_cost_per_token: 1 },
      last_updated: "2026-05-29",
      "no-provider": { input_cost_per_token: 1e-6 },
      "moderation-x": { litellm_provider: "openai", mode: "moderation", input_cost_per_token: 1e-6 },
      "groq/llama-x": {
        litellm_provider: "groq",
        mode: "chat",
        input_cost_per_token: 5e-8,
        output_cost_per_token: -1,
        cache_read_input_token_cost: "n/a",
        input_dbu_cost_per_token: 1e-5,
      },
    });
    const out = litellmSource.parse(payload(text));
    expect(out.map((l) => [l.seller, l.model])).toEqual([["groq", "llama-x"]]);
    expect(out[0]?.prices.map((p) => [p.dimension.direction, p.amount, p.unit])).toEqual([["input", 0.05, "mtok"]]);
  });
});

describe("litellm speech models and OpenRouter's image estimates (issue 24, T177)", () => {
  const date = "2026-06-01";
  it("reads a speech model's output as audio, and skips its text output beside an audio one", () => {
    // gemini-2.5-flash-preview-tts (mode audio_speech): output_cost_per_token is its audio output.
    expect(price(date, "google", "gemini-2.5-flash-preview-tts", "output", { modality: "audio" })).toEqual([
      2.5,
      "mtok",
    ]);
    expect(price(date, "google", "gemini-2.5-flash-preview-tts", "output")).toBeUndefined();
    // gpt-4o-mini-tts states output_cost_per_audio_token 12: the generic 10 is no price of it.
    expect(price(date, "openai", "gpt-4o-mini-tts", "output", { modality: "audio" })).toEqual([12, "mtok"]);
    expect(price(date, "openai", "gpt-4o-mini-tts", "output")).toBeUndefined();
  });

  it("does not give LiteLLM's per-image estimate as OpenRouter's price (claude-sonnet-4.5: 0.0048 per image)", () => {
    const sonnet = listing(date, "openrouter", "anthropic/claude-sonnet-4.5");
    expect(sonnet.prices.filter((p) => p.unit === "image")).toEqual([]);
    expect(price(date, "openrouter", "anthropic/claude-sonnet-4.5", "input")).toEqual([3, "mtok"]);
  });
});
