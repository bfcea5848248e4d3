import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  payloadOf as filesPayload,
  liveUrls,
  onlyListing,
  recordedAdapter,
  recordedPayload,
} from "../../../test/recorded-payloads.js";
import type { Listing, PriceObservation } from "../../domain/observation.js";
import { type SourcePayload, SourcePayloadError } from "../source.js";
import { GENAI_PRICES_FILE, genaiPricesFormat, genaiPricesSource, timeWindowSlug } from "./index.js";
import { GenaiPricesFile } from "./schema.js";

const recorded = recordedAdapter(genaiPricesSource);
const listingsAt = recorded.listings;
const listing = (listings: readonly Listing[], seller: string, model: string) => onlyListing(listings, seller, model);

interface Want {
  direction?: string;
  modality?: string;
  cache?: string;
  contextMin?: number;
  qualifiers?: Record<string, string>;
}

/** The single price matching the dimension (defaults: input, text, no cache, bracket 0, no qualifiers). */
function price(l: Listing, want: Want = {}): PriceObservation {
  const found = l.prices.filter(
    (p) =>
      p.dimension.direction === (want.direction ?? "input") &&
      p.dimension.modality === (want.modality ?? "text") &&
      p.dimension.cache === (want.cache ?? "none") &&
      p.dimension.contextMin === (want.contextMin ?? 0) &&
      JSON.stringify(p.dimension.qualifiers) === JSON.stringify(want.qualifiers ?? {}),
  );
  expect(found, `${l.seller}/${l.model} ${JSON.stringify(want)}`).toHaveLength(1);
  return found[0]!;
}

function amountOf(l: Listing, want: Want = {}): number {
  const p = price(l, want);
  expect(p.currency).toBe("USD");
  expect(p.denomination).toBe("currency");
  return p.amount;
}

const payloadOf = (text: string, observedAt?: string) => filesPayload({ [GENAI_PRICES_FILE]: text }, observedAt);

it("fetches its live payload from the v2 feed on GitHub (issue 7 §1)", () => {
  expect(liveUrls(genaiPricesSource)).toEqual([
    "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/new_data/v2/data.json",
  ]);
});

describe("genai-prices 2025-07-01 (old v1 format: pricing_url, max_tokens)", () => {
  const ls = () => listingsAt("2025-07-01");

  it("maps USD per 1M tokens and reads max_tokens as the context window", () => {
    const opus = listing(ls(), "anthropic", "claude-opus-4-0");
    expect(amountOf(opus)).toBe(15);
    expect(amountOf(opus, { direction: "output" })).toBe(75);
    expect(price(opus).unit).toBe("mtok");
    expect(opus.contextWindow).toBe(200000);
    expect(opus.makerHint).toBe("anthropic");
    // first-month data-entry values (upstream README fact #17), kept as stated
    const gpt4o = listing(ls(), "openai", "gpt-4o");
    expect(amountOf(gpt4o)).toBe(5);
    expect(amountOf(gpt4o, { direction: "output" })).toBe(15);
    const chat = listing(ls(), "deepseek", "deepseek-chat");
    expect(amountOf(chat)).toBe(0.014);
    expect(chat.prices.some((p) => "time_window" in p.dimension.qualifiers)).toBe(false);
  });

  it("splits a tiered value into context brackets", () => {
    const pro = listing(ls(), "google", "gemini-1.5-pro");
    expect(amountOf(pro)).toBe(1.25);
    expect(amountOf(pro, { contextMin: 128000 })).toBe(2.5);
    expect(price(pro, { contextMin: 128000 }).dimension.contextMax).toBeNull();
    expect(price(pro).dimension.contextMax).toBeNull();
    expect(amountOf(pro, { direction: "output", contextMin: 128000 })).toBe(10);
  });

  it("maps provider ids to canonical sellers", () => {
    const sellers = new Set(ls().map((l) => l.seller));
    expect(sellers).toContain("amazon-bedrock");
    expect(sellers).toContain("xai");
    expect(sellers).toContain("togetherai");
    expect(sellers).not.toContain("aws");
    expect(sellers).not.toContain("x-ai");
    expect(genaiPricesFormat(GenaiPricesFile.parse(JSON.parse(readRaw("2025-07-01"))))).toBe("v1");
  });
});

function readRaw(date: string): string {
  return recordedPayload("genai-prices", date).files.get(GENAI_PRICES_FILE)!;
}

describe("genai-prices 2025-12-01", () => {
  const ls = () => listingsAt("2025-12-01");

  it("gives DeepSeek's 00:30-16:30 UTC standard price as base and the unconstrained discount as off-peak (T71)", () => {
    const chat = listing(ls(), "deepseek", "deepseek-chat");
    expect(amountOf(chat)).toBe(0.27);
    expect(amountOf(chat, { direction: "output" })).toBe(1.1);
    expect(amountOf(chat, { cache: "read" })).toBe(0.07);
    const offPeak = { time_window: "1630-0030-utc-off-peak" };
    expect(amountOf(chat, { qualifiers: offPeak })).toBe(0.135);
    expect(amountOf(chat, { direction: "output", qualifiers: offPeak })).toBe(0.55);
    expect(amountOf(chat, { cache: "read", qualifiers: offPeak })).toBe(0.035);
    expect(chat.prices.filter((p) => "time_window" in p.dimension.qualifiers)).toHaveLength(3);
  });

  it("picks the start_date entry in force (openai o3 from 2025-06-10)", () => {
    const o3 = listing(ls(), "openai", "o3");
    expect(amountOf(o3)).toBe(2);
    expect(amountOf(o3, { direction: "output" })).toBe(8);
  });

  it("states when the prices in force took effect: the start_date of a dated entry, nothing for undated ones (T170)", () => {
    expect(listing(ls(), "openai", "o3").pricesDated).toEqual({ on: "2025-06-10", kind: "effective" });
    expect(listing(ls(), "openai", "gpt-4o").pricesDated).toBeUndefined();
  });

  it("maps requests_kcount to USD per 1K requests", () => {
    const sonar = listing(ls(), "perplexity", "sonar");
    const req = price(sonar, { direction: "request" });
    expect(req.amount).toBe(12);
    expect(req.unit).toBe("krequests");
    expect(amountOf(sonar)).toBe(1);
  });

  it("reads tiered cache reads (Gemini 2.5 Pro 0.125 / 0.25 above 200k)", () => {
    const pro = listing(ls(), "google", "gemini-2.5-pro");
    expect(amountOf(pro, { cache: "read" })).toBe(0.125);
    expect(amountOf(pro, { cache: "read", contextMin: 200000 })).toBe(0.25);
  });

  it("sells Google's partner models as google-vertex and Hugging Face routes as huggingface + backend", () => {
    const opus = listing(ls(), "google-vertex", "claude-4-opus");
    expect(amountOf(opus)).toBe(15);
    expect(opus.makerHint).toBeNull();
    expect(ls().some((l) => l.seller === "google" && l.model.startsWith("claude"))).toBe(false);
    const oss = listing(ls(), "huggingface", "openai/gpt-oss-120b");
    expect(oss.makerHint).toBe("openai");
    expect(amountOf(oss, { qualifiers: { backend: "cerebras" } })).toBe(0.25);
    expect(amountOf(oss, { qualifiers: { backend: "groq" } })).toBe(0.15);
    expect(oss.prices.every((p) => typeof p.dimension.qualifiers.backend === "string")).toBe(true);
  });
});

describe("genai-prices 2026-06-01", () => {
  const ls = () => listingsAt("2026-06-01");

  it("applies claude-opus-4-6's 2026-03-13 list (no >200k tier) at 2026-06-01", () => {
    const opus = listing(ls(), "anthropic", "claude-opus-4-6");
    expect(amountOf(opus)).toBe(5);
    expect(amountOf(opus, { direction: "output" })).toBe(25);
    expect(amountOf(opus, { cache: "write" })).toBe(6.25);
    expect(opus.prices.some((p) => p.dimension.contextMin > 0)).toBe(false);
  });

  it("applies the unconstrained (tiered) claude-opus-4-6 list before 2026-03-13", () => {
    const early = genaiPricesSource.parse(payloadOf(readRaw("2026-06-01"), "2026-03-12T00:00:00.000Z"));
    const opus = listing(early, "anthropic", "claude-opus-4-6");
    expect(amountOf(opus)).toBe(5);
    expect(amountOf(opus, { contextMin: 200000 })).toBe(10);
    expect(amountOf(opus, { direction: "output", contextMin: 200000 })).toBe(37.5);
  });

  it("read before 2026-03-13, the >200k tier states its end (the next list drops it) and 5 / 25 none (T335)", () => {
    const early = genaiPricesSource.parse(payloadOf(readRaw("2026-06-01"), "2026-03-12T00:00:00.000Z"));
    const opus = listing(early, "anthropic", "claude-opus-4-6");
    const ends = opus.prices.map((p) => [p.dimension.direction, p.dimension.cache, p.dimension.contextMin, p.validity]);
    expect(ends).toEqual(
      expect.arrayContaining([
        ["input", "none", 0, undefined],
        ["output", "none", 0, undefined],
        ["input", "none", 200000, { until: "2026-03-13", next: null }],
        ["output", "none", 200000, { until: "2026-03-13", next: null }],
      ]),
    );
    // The Vertex entry has one list: no end.
    expect(listing(early, "google-vertex", "claude-opus-4-6").prices.every((p) => p.validity === undefined)).toBe(true);
    // At its own date no price of the copy states an end (every start_date is past).
    expect(ls().flatMap((l) => l.prices.filter((p) => p.validity !== undefined))).toEqual([]);
  });

  it("o3 read on 2025-06-01 (2025-08-01 copy): 10 / 40 until 2025-06-10, then 2 / 8; the cache read 0.5 on both (T335)", () => {
    const early = genaiPricesSource.parse(payloadOf(readRaw("2025-08-01"), "2025-06-01T00:00:00.000Z"));
    const o3 = listing(early, "openai", "o3");
    expect(price(o3, {})).toMatchObject({ amount: 10, validity: { until: "2025-06-10", next: 2 } });
    expect(price(o3, { direction: "output" })).toMatchObject({
      amount: 40,
      validity: { until: "2025-06-10", next: 8 },
    });
    expect(price(o3, { cache: "read" }).validity).toBeUndefined();
  });

  it("keeps the >200k tier on the Vertex entry", () => {
    const opus = listing(ls(), "google-vertex", "claude-opus-4-6");
    expect(amountOf(opus)).toBe(5);
    expect(amountOf(opus, { contextMin: 200000 })).toBe(10);
    expect(amountOf(opus, { cache: "read", contextMin: 200000 })).toBe(1);
  });

  it("still emits DeepSeek's time-of-day prices and Perplexity's per-request fees", () => {
    const reasoner = listing(ls(), "deepseek", "deepseek-reasoner");
    expect(amountOf(reasoner)).toBe(0.55);
    expect(amountOf(reasoner, { direction: "output" })).toBe(2.19);
    expect(amountOf(reasoner, { qualifiers: { time_window: "1630-0030-utc-off-peak" } })).toBe(0.135);
    const pro = listing(ls(), "perplexity", "sonar-pro");
    expect(price(pro, { direction: "request" })).toMatchObject({ amount: 14, unit: "krequests" });
  });

  it("maps aliases, maker hints and the deprecated flag", () => {
    const vertexOpus = listing(ls(), "google-vertex", "claude-4-opus");
    expect(vertexOpus.aliases).toEqual(["claude-opus-4"]);
    const routed = listing(ls(), "openrouter", "anthropic/claude-opus-4.6");
    expect(routed.makerHint).toBe("anthropic");
    expect(routed.aliases).toContain("anthropic/claude-opus-4.6:beta");
    expect(routed.aliases).not.toContain("anthropic/claude-opus-4.6");
    expect(listing(ls(), "openrouter", "claude-opus-4").makerHint).toBeNull();
    expect(listing(ls(), "xai", "grok-2-1212").status).toBe("deprecated");
    expect(listing(ls(), "xai", "grok-4.3").status).toBeNull();
    expect(listing(ls(), "huggingface", "meta-llama/Llama-3.3-70B-Instruct").makerHint).toBe("meta");
  });

  it("skips models without any price (genai-prices writes `prices: {}` for :free variants)", () => {
    expect(ls().some((l) => l.seller === "azure" && l.model === "phi-4-reasoning:free")).toBe(false);
    expect(ls().every((l) => l.prices.length > 0)).toBe(true);
    expect(ls().every((l) => l.prices.every((p) => p.amount >= 0))).toBe(true);
  });
});

describe("genai-prices v2 feed", () => {
  // INVENTED fixture: no real v2 payload is recorded (v2 replaced v1 after the last snapshot).
  // It was written to follow data/schemas/genai-prices-v2.data.schema.json and checked against it
  // with a JSON Schema validator (draft 2020-12).
  const text = readFileSync(new URL("./fixtures/v2-invented.data.json", import.meta.url), "utf8");
  const ls = () => genaiPricesSource.parse(payloadOf(text));

  it("is told apart from v1 by content", () => {
    expect(genaiPricesFormat(GenaiPricesFile.parse(JSON.parse(text)))).toBe("v2");
    expect(genaiPricesFormat(GenaiPricesFile.parse(JSON.parse(readRaw("2026-06-01"))))).toBe("v1");
  });

  it("maps v2-only keys (1h cache writes, web searches) next to the v1 ones", () => {
    const m = listing(ls(), "anthropic", "claude-example-4");
    expect(amountOf(m)).toBe(3);
    expect(amountOf(m, { contextMin: 200000 })).toBe(6);
    expect(amountOf(m, { cache: "write" })).toBe(3.75);
    expect(amountOf(m, { cache: "write_1h" })).toBe(6);
    expect(price(m, { direction: "tool", qualifiers: { tool: "web_search" } })).toMatchObject({
      amount: 10,
      unit: "kcalls",
    });
    expect(m.aliases).toEqual(["claude-example-4-20990101"]);
    expect(m.contextWindow).toBe(1000000);
  });

  it("prefers the explicit key, converts per-1K-page prices and skips unmapped keys", () => {
    const m = listing(ls(), "anthropic", "claude-example-audio");
    expect(amountOf(m)).toBe(2); // input_text_mtok wins over input_mtok
    expect(amountOf(m, { modality: "audio" })).toBe(40);
    expect(amountOf(m, { direction: "reasoning" })).toBe(12);
    expect(price(m, { qualifiers: { content: "document" } })).toMatchObject({ amount: 0.005, unit: "page" });
    expect(price(m, { direction: "tool", qualifiers: { tool: "code_execution" } }).amount).toBe(0.05);
    expect(m.prices).toHaveLength(5); // input_mtok lost to input_text_mtok; input_gpixels has no unit here
    expect(m.status).toBe("deprecated");
  });

  it("resolves conditional lists the same way as v1", () => {
    const m = listing(ls(), "anthropic", "claude-example-4");
    expect(amountOf(m, { direction: "output" })).toBe(15); // the 2099-01-01 list is not in force yet
    const ds = listing(ls(), "deepseek", "deepseek-example");
    expect(amountOf(ds)).toBe(0.27);
    expect(amountOf(ds, { qualifiers: { time_window: "1630-0030-utc-off-peak" } })).toBe(0.135);
  });
});

describe("genai-prices bad payloads", () => {
  it("throws SourcePayloadError when data.json is missing", () => {
    const bad: SourcePayload = { files: new Map([["other.json", "[]"]]), observedAt: "2026-06-01T00:00:00.000Z" };
    expect(() => genaiPricesSource.parse(bad)).toThrow(SourcePayloadError);
    expect(() => genaiPricesSource.parse(bad)).toThrow(/no data\.json \(files: other\.json\)/);
  });

  it("throws SourcePayloadError on text that is not JSON", () => {
    expect(() => genaiPricesSource.parse(payloadOf("<html>rate limited</html>"))).toThrow(/data\.json is not JSON/);
  });

  it("throws SourcePayloadError naming the path when the shape is wrong", () => {
    expect(() => genaiPricesSource.parse(payloadOf('{"providers": []}'))).toThrow(SourcePayloadError);
    expect(() => genaiPricesSource.parse(payloadOf('{"providers": []}'))).toThrow(
      /not an array of providers.*\(root\)/,
    );
    expect(() => genaiPricesSource.parse(payloadOf('[{"id": "x", "models": {}}]'))).toThrow(/at \[0\]\[models\]/);
  });

  it("skips a malformed model, a negative amount and an odd value, keeping the rest (invented fixture)", () => {
    // invented: real snapshots have no malformed entries
    const text = JSON.stringify([
      {
        id: "openrouter",
        models: [
          { id: "broken", match: { equals: "broken" }, prices: "free" },
          { id: "no-match", prices: { input_mtok: 1 } },
          {
            id: "vendor/ok",
            match: { equals: "vendor/ok" },
            prices: { input_mtok: -1, output_mtok: 2, cache_read_mtok: "0.1" },
          },
          { id: "zero", match: { equals: "zero" }, prices: { input_mtok: 0, output_mtok: 0 } },
        ],
      },
    ]);
    const ls = genaiPricesSource.parse(payloadOf(text));
    expect(ls.map((l) => l.model)).toEqual(["vendor/ok", "zero"]);
    expect(ls[0]!.prices.map((p) => [p.dimension.direction, p.amount])).toEqual([["output", 2]]);
    expect(ls[1]!.prices.map((p) => p.amount)).toEqual([0, 0]);
    expect(ls[0]!.seller).toBe("openrouter");
    expect(ls[0]!.makerHint).toBeNull();
  });
});

describe("timeWindowSlug", () => {
  it("formats UTC windows and converts offsets", () => {
    expect(timeWindowSlug("00:30:00Z", "16:30:00Z")).toBe("0030-1630-utc");
    expect(timeWindowSlug("08:30:00+08:00", "00:30+08:00")).toBe("0030-1630-utc");
    expect(timeWindowSlug("25:00:00Z", "16:30:00Z")).toBeNull();
  });
});
