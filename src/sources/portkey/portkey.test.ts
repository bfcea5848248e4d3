import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { liveUrls, payloadOf, recordedAdapter, recordedReport } from "../../../test/recorded-payloads.js";
import { SourcePayloadError } from "../source.js";
import { portkeySource } from "./index.js";
import { PORTKEY_PROVIDERS } from "./upstream.js";

const { listings, listing, price } = recordedAdapter(portkeySource);
const payload = (files: Record<string, string>) => payloadOf(files, "2026-01-01T00:00:00.000Z");

describe("live payload (issue 7 §1)", () => {
  it("one file per provider, by default those of the newest recorded Portkey snapshot", () => {
    const dates = readdirSync("data/upstream/portkey").sort();
    const files = readdirSync(`data/upstream/portkey/${dates.at(-1)}`).map((f) => f.replace(/\.json\.gz$/, ""));
    expect([...PORTKEY_PROVIDERS].sort()).toEqual(files.sort());
    expect(liveUrls(portkeySource)).toContain("https://configs.portkey.ai/pricing/openai.json");
    expect(portkeySource.upstream.files(["openai"])).toEqual([{ name: "openai.json", path: "openai.json" }]);
  });
});

describe("portkey info", () => {
  it("declares the registry record", () => {
    expect(portkeySource.id).toBe("portkey");
    expect(portkeySource.info).toMatchObject({ license: "MIT", weight: 0.6, homepage: "https://portkey.ai/models" });
  });
});

describe.each(["2026-01-01", "2026-06-01"])("portkey %s real payload", (date) => {
  it("converts cents per token to USD per 1M tokens (deepseek-chat 0.14 / 0.28)", () => {
    expect(price(date, "deepseek", "deepseek-chat", "input")).toEqual([0.14, "mtok"]);
    expect(price(date, "deepseek", "deepseek-chat", "output")).toEqual([0.28, "mtok"]);
    expect(listing(date, "deepseek", "deepseek-chat").makerHint).toBe("deepseek");
  });

  it("maps provider files to canonical sellers and vendor prefixes to makerHint", () => {
    const opus = "anthropic.claude-opus-4-20250514-v1:0";
    expect(price(date, "amazon-bedrock", opus, "input")).toEqual([15, "mtok"]);
    expect(price(date, "amazon-bedrock", opus, "output")).toEqual([75, "mtok"]);
    expect(listing(date, "amazon-bedrock", opus).makerHint).toBe("anthropic");
    expect(price(date, "openrouter", "anthropic/claude-opus-4", "input")).toEqual([15, "mtok"]);
    expect(listing(date, "openrouter", "anthropic/claude-opus-4").makerHint).toBe("anthropic");
    expect(listing(date, "togetherai", "deepseek-ai/DeepSeek-V3").makerHint).toBe("deepseek");
    expect(listings(date).some((l) => l.seller === "together-ai" || l.seller === "bedrock")).toBe(false);
  });

  it("maps cache read / write", () => {
    expect(price(date, "anthropic", "claude-opus-4-20250514", "input", { cache: "read" })).toEqual([1.5, "mtok"]);
    expect(price(date, "anthropic", "claude-opus-4-20250514", "input", { cache: "write" })).toEqual([18.75, "mtok"]);
  });

  it("merges Google -lte-128k / -gt-128k keys into one listing; the template 128K is a bracket only for Gemini 1.5 (T72)", () => {
    expect(price(date, "google", "gemini-2.5-pro", "input")).toEqual([1.25, "mtok"]);
    expect(price(date, "google", "gemini-2.5-pro", "output")).toEqual([10, "mtok"]);
    // gemini-2.5-pro-gt-128k holds Google's > 200K prices under a threshold Google never stated: not published
    expect(price(date, "google", "gemini-2.5-pro", "input", { contextMin: 128000 })).toBeUndefined();
    expect(listing(date, "google", "gemini-2.5-pro").prices.every((p) => p.dimension.contextMin === 0)).toBe(true);
    expect(price(date, "google", "gemini-1.5-pro", "input", { contextMin: 128000 })).toEqual([2.5, "mtok"]);
    expect(listings(date).some((l) => l.model.endsWith("-lte-128k") || l.model.endsWith("-gt-128k"))).toBe(false);
  });

  it("maps web_search (cents per call) to USD per 1K calls", () => {
    expect(price(date, "google", "gemini-2.5-pro", "tool", { qualifiers: { tool: "web_search" } })).toEqual([
      35,
      "kcalls",
    ]);
    const sonar = (size: string) =>
      price(date, "perplexity", "sonar", "tool", { qualifiers: { tool: "web_search", context_size: size } });
    expect(sonar("low")).toEqual([5, "kcalls"]);
    expect(sonar("high")).toEqual([12, "kcalls"]);
  });

  it("maps per-image prices (cents) with quality and size qualifiers", () => {
    const dalle = (quality: string, size: string) =>
      price(date, "openai", "dall-e-3", "output", { modality: "image", qualifiers: { quality, size } });
    expect(dalle("standard", "1024x1024")).toEqual([0.04, "image"]);
    expect(dalle("hd", "1792x1024")).toEqual([0.12, "image"]);
  });

  it("maps video seconds (cents per second) and drops the all-zero token placeholders", () => {
    const sora = (size: string) =>
      price(date, "openai", "sora-2", "output", { modality: "video", qualifiers: { size } });
    expect(sora("720x1280")).toEqual([0.1, "second"]);
    expect(price(date, "openai", "sora-2", "input")).toBeUndefined();
  });

  it("special-cases whisper (cents per minute), tts (per character) and rerank (per search)", () => {
    expect(price(date, "openai", "whisper-1", "input", { modality: "audio" })).toEqual([0.006, "minute"]);
    expect(price(date, "openai", "whisper-1", "input")).toBeUndefined();
    expect(price(date, "openai", "tts-1", "input")).toEqual([15, "mchars"]);
    expect(price(date, "cohere", "rerank-v3.5", "request")).toEqual([2, "krequests"]);
  });
  it("reads a transcription audio rate below 0.01 ¢ as cents per audio token, the others per minute (T366)", () => {
    // 2026-06-01: the dated and diarize entries state 0.0003 / 0.0006 ¢ (OpenAI's 3 / 6 USD per 1M audio
    // tokens), the aliases 0.3 / 0.6 ¢ a minute (0.003 / 0.006 USD, OpenAI's estimated cost per minute).
    const june = "2026-06-01";
    for (const snapshot of ["gpt-4o-mini-transcribe-2025-03-20", "gpt-4o-mini-transcribe-2025-12-15"])
      expect(price(june, "openai", snapshot, "input", { modality: "audio" })).toEqual([3, "mtok"]);
    expect(price(june, "openai", "gpt-4o-transcribe-diarize", "input", { modality: "audio" })).toEqual([6, "mtok"]);
    expect(price(june, "azure", "gpt-4o-transcribe-diarize", "input", { modality: "audio" })).toEqual([6, "mtok"]);
    expect(price(june, "openai", "gpt-4o-mini-transcribe", "input", { modality: "audio" })).toEqual([0.003, "minute"]);
    expect(price(june, "openai", "whisper-1", "input", { modality: "audio" })).toEqual([0.006, "minute"]);
  });
  it("maps fixed_cost.request to a per-request fee", () => {
    expect(price(date, "perplexity", "pplx-7b-online", "request")).toEqual([5, "krequests"]);
  });

  it("keeps explicit :free variants at 0 and drops all-zero placeholder entries", () => {
    expect(price(date, "openrouter", "arcee-ai/trinity-mini:free", "input")).toEqual([0, "mtok"]);
    expect(listings(date).some((l) => l.seller === "deepinfra" && l.model === "Bria/fibo")).toBe(false);
  });

  it("emits one listing per seller and model (azure-ai + azure-openai merged)", () => {
    const keys = listings(date).map((l) => `${l.seller}|${l.model}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(price(date, "azure", "gpt-4o", "tool", { qualifiers: { tool: "file_search" } })).toEqual([2.5, "kcalls"]);
  });

  it("never emits a negative or non-finite amount", () => {
    for (const l of listings(date))
      for (const p of l.prices) expect(Number.isFinite(p.amount) && p.amount >= 0).toBe(true);
  });
});

describe("portkey format drift", () => {
  it("Zhipu glm-4.7 x10 data-entry fix between 2026-02-01 and 2026-03-01 (6 → 0.6)", () => {
    expect(price("2026-02-01", "zai", "glm-4.7", "input")).toEqual([6, "mtok"]);
    expect(price("2026-03-01", "zai", "glm-4.7", "input")).toEqual([0.6, "mtok"]);
    expect(price("2026-03-01", "zai", "glm-4.7", "output")).toEqual([2.2, "mtok"]);
  });

  it("batch_config (from 2026-03-01) becomes tier batch, including a stated gt-128k bracket", () => {
    expect(price("2026-01-01", "google", "gemini-2.5-pro", "input", { tier: "batch" })).toBeUndefined();
    for (const date of ["2026-03-01", "2026-06-01"]) {
      expect(price(date, "google", "gemini-2.5-pro", "input", { tier: "batch" })).toEqual([0.625, "mtok"]);
      expect(price(date, "google", "gemini-1.5-pro", "output", { tier: "batch", contextMin: 128000 })).toEqual([
        5,
        "mtok",
      ]);
    }
  });

  it("counts no unknown pricing field in the recorded payloads (T70)", () => {
    // The adapter's own parse report, cached per code and data version (T272) like the listings here.
    for (const d of ["2026-01-01", "2026-06-01"]) expect(recordedReport(portkeySource, d).unmapped).toEqual({});
  });

  it("additional_units.cache_write_1h (2026-06-01) becomes cache write_1h", () => {
    expect(price("2026-06-01", "anthropic", "claude-opus-4-20250514", "input", { cache: "write_1h" })).toEqual([
      30,
      "mtok",
    ]);
    expect(price("2026-06-01", "anthropic", "claude-opus-4-20250514", "input", { tier: "batch" })).toEqual([
      7.5,
      "mtok",
    ]);
  });

  it("thinking_token (until 2026-02-01) becomes reasoning", () => {
    expect(price("2026-01-01", "google", "gemini-2.5-pro", "reasoning")).toEqual([10, "mtok"]);
  });

  it("per-image gpt-image-1 prices appear with quality levels on 2026-06-01", () => {
    const img = (quality: string, size: string) =>
      price("2026-06-01", "openai", "gpt-image-1", "output", { modality: "image", qualifiers: { quality, size } });
    expect(img("low", "1024x1024")).toEqual([0.011, "image"]);
    expect(img("high", "1536x1024")).toEqual([0.25, "image"]);
    expect(price("2026-06-01", "openai", "gpt-image-1", "input", { modality: "image" })).toEqual([10, "mtok"]);
  });
});

describe("portkey bad payloads", () => {
  it("throws SourcePayloadError on a file that is not JSON, naming the file", () => {
    expect(() => portkeySource.parse(payload({ "openai.json": "{not json" }))).toThrow(SourcePayloadError);
    expect(() => portkeySource.parse(payload({ "openai.json": "{not json" }))).toThrow(/openai\.json is not JSON/);
  });

  it("throws SourcePayloadError when a file is not an object", () => {
    expect(() => portkeySource.parse(payload({ "openai.json": "[1,2]" }))).toThrow(/openai\.json must be an object/);
  });

  it("throws SourcePayloadError when there is no provider file", () => {
    expect(() => portkeySource.parse(payload({}))).toThrow(/no <provider>\.json/);
  });

  // Invented fixture: a malformed entry next to a valid one (real files have none besides null configs).
  it("skips a malformed entry and keeps the rest", () => {
    const file = JSON.stringify({
      default: { pricing_config: { currency: "USD" } },
      broken: { pricing_config: "nope" },
      nulled: { pricing_config: null },
      ok: { pricing_config: { pay_as_you_go: { request_token: { price: 0.0003 }, response_token: { price: "x" } } } },
    });
    const out = portkeySource.parse(payload({ "mistral-ai.json": file }));
    expect(out.map((l) => [l.seller, l.model])).toEqual([["mistral", "ok"]]);
    expect(out[0]?.prices.map((p) => [p.dimension.direction, p.amount])).toEqual([["input", 3]]);
  });
});

describe("portkey speech models (issue 24)", () => {
  const date = "2026-06-01";
  it("reads a token-billed speech model's output as audio (Gemini 2.5 Flash TTS: 0.5 text in, 10 audio out) (T177)", () => {
    const tts = "gemini-2.5-flash-preview-tts";
    expect(price(date, "google", tts, "output", { modality: "audio" })).toEqual([10, "mtok"]);
    expect(price(date, "google", tts, "output")).toBeUndefined();
    expect(price(date, "google", tts, "input")).toEqual([0.5, "mtok"]);
    // Beside a response_audio_token, the speech model's 0 "response_token" is no price at all.
    expect(price(date, "openai", "gpt-4o-mini-tts", "output")).toBeUndefined();
    expect(price(date, "openai", "gpt-4o-mini-tts", "output", { modality: "audio" })).toEqual([12, "mtok"]);
  });
});

// Issue 37 §6, T306. Invented fixture: the recorded payloads (to 2026-06) hold none of these keys; the
// shape is Portkey-AI/models docs/SCHEMA.md "Additional Units" (`{price}` in cents per call) and
// `pay_as_you_go` per-token keys in cents per token.
describe("portkey's 2026 tool and video keys", () => {
  it("code_execution, x_search, attachment_search and maps are per-call tools; output_video_token is video output", () => {
    const file = JSON.stringify({
      default: { pricing_config: { currency: "USD" } },
      "grok-4": {
        pricing_config: {
          pay_as_you_go: {
            request_token: { price: 0.0003 },
            response_token: { price: 0.0015 },
            output_video_token: { price: 0.002 },
            additional_units: {
              code_execution: { price: 0.5 },
              x_search: { price: 0.5 },
              attachment_search: { price: 1 },
              maps: { price: 2.5 },
            },
          },
        },
      },
    });
    const report = portkeySource.parseReport(payload({ "x-ai.json": file }));
    expect(report.unmapped).toEqual({});
    const prices = report.listings[0]!.prices.map((p) => [
      p.dimension.direction,
      p.dimension.modality,
      p.dimension.qualifiers.tool ?? null,
      p.amount,
      p.unit,
    ]);
    expect(prices).toEqual(
      expect.arrayContaining([
        ["output", "video", null, 20, "mtok"],
        ["tool", "text", "code_execution", 5, "kcalls"],
        ["tool", "text", "x_search", 5, "kcalls"],
        ["tool", "text", "attachment_search", 10, "kcalls"],
        ["tool", "text", "google_maps", 25, "kcalls"],
      ]),
    );
  });

  it("names the units it deliberately skips in its registry record (/sources skippedFields)", () => {
    expect(portkeySource.info.skippedFields).toMatchObject({
      "additional_units.routing_units": "Portkey's own routing fee, not the seller's price",
    });
  });
});
