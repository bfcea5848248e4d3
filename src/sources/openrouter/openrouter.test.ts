import { describe, expect, it } from "vitest";
import { amountIn, payloadOf as filesPayload, liveUrls, recordedAdapter } from "../../../test/recorded-payloads.js";
import { dimension, dimensionKey } from "../../domain/dimension.js";
import { SourcePayloadError } from "../source.js";
import { displayName, isoDateOrNull, makerHintOf, openrouterSource, unixDate } from "./index.js";

/** The recorded OpenRouter snapshots (each parsed once): every listing is sold by `openrouter`. */
const recorded = recordedAdapter(openrouterSource);
const snapshot = recorded.listings;
const listing = (date: string, model: string) => recorded.listing(date, "openrouter", model);
const amount = amountIn;

const input = dimension("input");
const output = dimension("output");
const cacheRead = dimension("input", { cache: "read" });
const cacheWrite = dimension("input", { cache: "write" });
const reasoning = dimension("reasoning");
const audioIn = dimension("input", { modality: "audio" });
const imageIn = dimension("input", { modality: "image" });
const request = dimension("request");
const webSearch = dimension("tool", { qualifiers: { tool: "web_search" } });

const payloadOf = (text: string, name = "models.json") => filesPayload({ [name]: text });

it("fetches its live payload from the Models API (issue 7 §1)", () => {
  expect(liveUrls(openrouterSource)).toEqual(["https://openrouter.ai/api/v1/models"]);
});

describe("openrouter adapter on real snapshots", () => {
  it("2025-12-01: anthropic/claude-opus-4 per-token strings → USD per 1M tokens, per image, zeros kept", () => {
    const l = listing("2025-12-01", "anthropic/claude-opus-4");
    expect(amount(l, input)).toBe(15); // "0.000015"
    expect(amount(l, output)).toBe(75); // "0.000075"
    expect(amount(l, cacheRead)).toBe(1.5); // "0.0000015"
    expect(amount(l, cacheWrite)).toBe(18.75); // "0.00001875"
    expect(amount(l, imageIn, "image")).toBe(0.024); // "0.024" per input image
    expect(amount(l, request, "request")).toBe(0); // "0"
    expect(amount(l, webSearch, "kcalls")).toBe(0); // "0"
    expect(amount(l, reasoning)).toBe(0); // "0"
    expect(l.prices).toHaveLength(8);
    expect(l).toMatchObject({
      makerHint: "anthropic",
      name: "Claude Opus 4",
      contextWindow: 200000,
      maxOutputTokens: 32000,
      releasedOn: "2025-05-22",
      retiresOn: null,
      family: null,
      status: null,
    });
  });

  it("2025-12-01: exact decimals without float noise", () => {
    // Number("0.0000001") * 1e6 = 0.09999999999999999; Number("0.00000005") * 1e6 = 0.049999999999999996
    const lfm = listing("2025-12-01", "liquid/lfm2-8b-a1b");
    expect(amount(lfm, output)).toBe(0.1);
    expect(amount(lfm, input)).toBe(0.05);
    expect(amount(listing("2025-12-01", "nvidia/nemotron-nano-12b-v2-vl"), input)).toBe(0.2);
    expect(amount(listing("2025-12-01", "mistralai/mistral-nemo"), input)).toBe(0.02);
    expect(listing("2025-12-01", "mistralai/mistral-nemo").makerHint).toBe("mistral");
  });

  it("2025-12-01: per-request fee, audio tokens, image priced as tokens when equal to prompt", () => {
    expect(amount(listing("2025-12-01", "perplexity/sonar"), request, "request")).toBe(0.005);
    expect(amount(listing("2025-12-01", "openai/gpt-4o-audio-preview"), audioIn)).toBe(40); // "0.00004"
    const img = listing("2025-12-01", "openai/gpt-5-image");
    expect(amount(img, imageIn)).toBe(10); // image "0.00001" = prompt "0.00001": per image token
    expect(img.prices.some((p) => p.unit === "image")).toBe(false);
    const flash = listing("2025-12-01", "google/gemini-2.5-flash");
    expect(amount(flash, imageIn, "image")).toBe(0.001238); // "0.001238" ≠ prompt: per image
    expect(amount(flash, cacheWrite)).toBe(0.3833);
  });

  it("2025-12-01: -1 router pricing gives no prices; :free models are their own zero-priced listings", () => {
    expect(listing("2025-12-01", "openrouter/auto").prices).toEqual([]);
    expect(listing("2025-12-01", "openrouter/auto").makerHint).toBeNull();
    const free = listing("2025-12-01", "meta-llama/llama-3.3-70b-instruct:free");
    expect(amount(free, input)).toBe(0);
    expect(amount(free, imageIn, "image")).toBe(0);
    expect(free.name).toBe("Llama 3.3 70B Instruct (free)");
    expect(free.makerHint).toBe("meta");
    expect(listing("2025-12-01", "meta-llama/llama-3.3-70b-instruct").model).not.toBe(free.model);
  });

  it('2026-01-01 (pretty-printed file): openai/gpt-5.2-chat "0.00000175" → 1.75, web search per call → per 1K calls', () => {
    const l = listing("2026-01-01", "openai/gpt-5.2-chat");
    expect(amount(l, input)).toBe(1.75);
    expect(amount(l, output)).toBe(14);
    expect(amount(l, cacheRead)).toBe(0.175);
    expect(amount(l, webSearch, "kcalls")).toBe(10); // "0.01" per call
    expect(l.retiresOn).toBeNull();
    expect(l.releasedOn).toBe("2025-12-10");
    expect(listing("2026-01-01", "x-ai/grok-4").makerHint).toBe("xai");
    expect(listing("2026-01-01", "x-ai/grok-4").maxOutputTokens).toBeNull();
  });

  it("2026-06-01: zero keys left out are not charged; expiration_date → retiresOn", () => {
    const l = listing("2026-06-01", "openai/gpt-5.2-chat");
    expect(amount(l, input)).toBe(1.75);
    expect(amount(l, request, "request")).toBeUndefined();
    expect(amount(l, reasoning)).toBeUndefined();
    expect(l.retiresOn).toBe("2026-08-10");
    expect(l.prices).toHaveLength(4);
    const opus = listing("2026-06-01", "anthropic/claude-opus-4");
    expect(amount(opus, input)).toBe(15);
    expect(amount(opus, imageIn, "image")).toBeUndefined();
    expect(amount(opus, webSearch, "kcalls")).toBe(10);
  });

  it("2026-06-01: gemini-2.5-flash — 1/12 cache write rounded to 10 digits, web search 0.014 → 14, image tokens", () => {
    const l = listing("2026-06-01", "google/gemini-2.5-flash");
    expect(amount(l, cacheWrite)).toBe(0.08333333333); // "0.00000008333333333333334"
    expect(amount(l, webSearch, "kcalls")).toBe(14);
    expect(amount(l, reasoning)).toBe(2.5);
    expect(amount(l, audioIn)).toBe(1);
    expect(amount(l, imageIn)).toBe(0.3); // image "0.0000003" = prompt: per image token
    expect(l.prices).toHaveLength(8);
  });

  it("2026-06-01: float-noise-prone values convert exactly", () => {
    const l = listing("2026-06-01", "deepseek/deepseek-chat-v3.1");
    expect(amount(l, output)).toBe(0.79); // Number("0.00000079") * 1e6 = 0.7899999999999999
    expect(amount(l, input)).toBe(0.21);
    expect(amount(l, cacheRead)).toBe(0.13);
    expect(l.makerHint).toBe("deepseek");
    expect(amount(listing("2026-06-01", "perplexity/sonar"), webSearch, "kcalls")).toBe(5);
  });

  it("2026-06-01: ~vendor/ floating aliases keep their id and get the vendor as maker", () => {
    const l = listing("2026-06-01", "~anthropic/claude-haiku-latest");
    expect(l.makerHint).toBe("anthropic");
    expect(l.name).toBe("Anthropic Claude Haiku Latest");
    expect(amount(l, input)).toBe(1);
    for (const id of ["openrouter/auto", "openrouter/bodybuilder", "openrouter/pareto-code"]) {
      expect(listing("2026-06-01", id).prices).toEqual([]);
    }
  });

  it("listing and price counts per date", () => {
    const counts = (date: string) => [snapshot(date).length, snapshot(date).reduce((n, l) => n + l.prices.length, 0)];
    expect(counts("2025-12-01")).toEqual([339, 2122]);
    expect(counts("2026-01-01")).toEqual([353, 2216]);
    expect(counts("2026-06-01")).toEqual([357, 1055]);
    for (const l of snapshot("2026-06-01")) {
      for (const p of l.prices) {
        expect(p.amount).toBeGreaterThanOrEqual(0);
        expect(String(p.amount).replace(/^0\.0*|\.|e.*$/g, "").length).toBeLessThanOrEqual(10);
      }
    }
  });
});

describe("openrouter adapter on bad payloads", () => {
  it("throws SourcePayloadError when models.json is missing", () => {
    expect(() => openrouterSource.parse(payloadOf("{}", "api.json"))).toThrow(/no models\.json \(files: api\.json\)/);
  });

  it("throws SourcePayloadError on text that is not JSON", () => {
    expect(() => openrouterSource.parse(payloadOf("rate limited"))).toThrow(SourcePayloadError);
    expect(() => openrouterSource.parse(payloadOf("rate limited"))).toThrow(/models\.json is not JSON/);
  });

  it("throws SourcePayloadError on a wrong shape, naming the path", () => {
    expect(() => openrouterSource.parse(payloadOf("[]"))).toThrow(/expected \{"data": \[\.\.\.\]\}, at \(root\)/);
    expect(() => openrouterSource.parse(payloadOf('{"data":{}}'))).toThrow(/at data: /);
    expect(() => openrouterSource.parse(payloadOf('{"data":[]}'))).toThrow(/no valid model in "data" \(empty array\)/);
    expect(() => openrouterSource.parse(payloadOf('{"data":[{"id":"a/b"}]}'))).toThrow(/at data\.0\.pricing: /);
  });

  // Invented fixture: real snapshots have no malformed entries, image_output or input_audio_cache keys.
  it("skips malformed entries and values; maps image_output and input_audio_cache", () => {
    const data = [
      { id: "", pricing: {} },
      { name: "no id", pricing: { prompt: "1" } },
      {
        id: "openai/gpt-image-x",
        name: "OpenAI: GPT Image X",
        created: "yesterday",
        context_length: -5,
        expiration_date: "2026-13-01",
        pricing: {
          prompt: "0.000005",
          completion: "N/A",
          image_output: "0.00004",
          input_audio_cache: "0.0000001",
          request: "-1",
          web_search: "",
          discount: 0.5,
        },
      },
    ];
    const listings = openrouterSource.parse(payloadOf(JSON.stringify({ data })));
    expect(listings).toHaveLength(1);
    const l = listings[0]!;
    expect(l).toMatchObject({ model: "openai/gpt-image-x", name: "GPT Image X", releasedOn: null, retiresOn: null });
    expect(l.contextWindow).toBeNull();
    expect(l.prices.map((p) => [dimensionKey(p.dimension), p.amount, p.unit])).toEqual([
      ["input|text|standard|none|0||", 5, "mtok"],
      ["input|audio|standard|read|0||", 0.1, "mtok"],
      ["output|image|standard|none|0||", 40, "mtok"],
    ]);
  });
});

describe("openrouter helpers", () => {
  it("displayName strips only a leading 'Vendor: '", () => {
    expect(displayName("Anthropic: Claude Opus 4")).toBe("Claude Opus 4");
    expect(displayName("Auto Router")).toBe("Auto Router");
    expect(displayName("Sao10k: Llama 3 Euryale 70B v2.1")).toBe("Llama 3 Euryale 70B v2.1");
    expect(displayName(undefined)).toBeNull();
  });

  it("makerHintOf accepts only confirmed makers", () => {
    expect(makerHintOf("z-ai/glm-4.6")).toBe("zai");
    expect(makerHintOf("qwen/qwen3-max")).toBe("alibaba");
    expect(makerHintOf("sao10k/l3-euryale-70b")).toBeNull();
    expect(makerHintOf("gpt-4o")).toBeNull();
  });

  it("dates: unix seconds to UTC day, expiration only when a real date", () => {
    expect(unixDate(1747931245)).toBe("2025-05-22");
    expect(unixDate(1e20)).toBeNull();
    expect(isoDateOrNull("2026-06-05")).toBe("2026-06-05");
    expect(isoDateOrNull("2026-02-30")).toBeNull();
    expect(isoDateOrNull(null)).toBeNull();
  });
});

// Issue 37 §6, T306. Invented fixture: the recorded payloads (to 2026-06) hold none of these keys. The
// shape is OpenRouter's Models API as client SDKs generated from its schema read it
// (`pricing.input_cache_write_1h`, `pricing.audio_output`, `pricing.overrides[]` with
// `min_prompt_tokens` or `utc_start`/`utc_end`/`utc_days` and per-token keys).
describe("openrouter's 2026 pricing keys", () => {
  const model = {
    id: "openai/gpt-5.4",
    name: "OpenAI: GPT-5.4",
    pricing: {
      prompt: "0.0000025",
      completion: "0.000015",
      input_cache_read: "0.00000025",
      input_cache_write_1h: "0.000005",
      audio_output: "0.00008",
      overrides: [
        { min_prompt_tokens: 272001, prompt: "0.000005", completion: "0.0000225", input_cache_read: "0.0000005" },
        { utc_start: 1600, utc_end: 2000, prompt: "0.000003", completion: "0.00002" },
      ],
    },
  };
  const report = openrouterSource.parseReport!(payloadOf(JSON.stringify({ data: [model] })));
  const l = report.listings[0]!;

  it("1-hour cache writes and audio output are mapped; nothing is counted unknown", () => {
    expect(report.unmapped).toEqual({});
    expect(amount(l, dimension("input", { cache: "write_1h" }))).toBe(5);
    expect(amount(l, dimension("output", { modality: "audio" }))).toBe(80);
  });

  it("a min_prompt_tokens override is the bracket of prompts of at least that many tokens (> N − 1)", () => {
    expect(amount(l, dimension("input", { contextMin: 272000 }))).toBe(5);
    expect(amount(l, dimension("output", { contextMin: 272000 }))).toBe(22.5);
    expect(amount(l, dimension("input", { cache: "read", contextMin: 272000 }))).toBe(0.5);
    expect(amount(l, input)).toBe(2.5);
  });

  it("a time-of-day override is not published, and /sources names it as deliberately skipped", () => {
    expect(l.prices.filter((p) => p.amount === 3 || p.amount === 20)).toEqual([]);
    expect(Object.keys(openrouterSource.info.skippedFields ?? {})).toEqual([
      "pricing.overrides[utc_start/utc_end/utc_days]",
    ]);
  });
});
