import { describe, expect, it } from "vitest";
import { liveUrls, onlyListing, payloadOf, recordedAdapter, recordedPayload } from "../../../test/recorded-payloads.js";
import type { Listing, PriceObservation } from "../../domain/observation.js";
import { canonicalSeller } from "../../domain/sellers.js";
import { SourcePayloadError } from "../source.js";
import {
  LLM_PRICES_CURRENT_FILE,
  LLM_PRICES_HISTORICAL_FILE,
  type LlmPricesHistoryRow,
  llmPricesSource,
  parseLlmPricesHistory,
} from "./index.js";

const DATES = ["2025-11-01", "2026-06-01"] as const;
const listingsAt = recordedAdapter(llmPricesSource).listings;
const listing = (listings: readonly Listing[], seller: string, model: string) => onlyListing(listings, seller, model);

function price(l: Listing, direction: string, cache = "none", contextMin = 0): PriceObservation {
  const found = l.prices.filter(
    (p) =>
      p.dimension.direction === direction &&
      p.dimension.cache === cache &&
      p.dimension.contextMin === contextMin &&
      p.dimension.modality === "text",
  );
  expect(found, `${l.model} ${direction}/${cache}@${contextMin}`).toHaveLength(1);
  const p = found[0]!;
  expect(p).toMatchObject({ unit: "mtok", currency: "USD", denomination: "currency" });
  return p;
}

describe.each(DATES)("llm-prices %s current-v1.json", (date) => {
  it("maps input / output / cached input in USD per 1M tokens, seller = vendor", () => {
    const ls = listingsAt(date);
    const opus = listing(ls, "anthropic", "claude-opus-4");
    expect(price(opus, "input").amount).toBe(15);
    expect(price(opus, "output").amount).toBe(75);
    expect(opus.makerHint).toBe("anthropic");
    expect(opus.prices).toHaveLength(2); // input_cached null = no cached price
    const chat = listing(ls, "deepseek", "deepseek-chat");
    expect(price(chat, "input").amount).toBe(0.27);
    expect(price(chat, "output").amount).toBe(1.1);
  });

  it("folds `<id>-<N>k` rows ('… >Nk') into the base model's contextMin N000 bracket", () => {
    const ls = listingsAt(date);
    const sonnet = listing(ls, "anthropic", "claude-sonnet-4.5");
    expect(price(sonnet, "input").amount).toBe(3);
    expect(price(sonnet, "input", "none", 200000).amount).toBe(6);
    expect(price(sonnet, "output", "none", 200000).amount).toBe(22.5);
    expect(price(sonnet, "input", "none", 200000).dimension.contextMax).toBeNull();
    expect(sonnet.name).toBe("Claude Sonnet 4 and 4.5");
    expect(ls.some((l) => l.model.endsWith("-200k"))).toBe(false);
    const grok = listing(ls, "xai", "grok-4-fast"); // listed twice upstream: merged
    expect(price(grok, "input", "none", 128000).amount).toBe(0.4);
    expect(price(grok, "input", "read").amount).toBe(0.05);
  });

  it("maps vendor spellings through canonicalSeller", () => {
    const ls = listingsAt(date);
    expect(ls.some((l) => l.seller === "qwen")).toBe(false);
    expect(ls.every((l) => l.prices.length > 0 && l.prices.every((p) => p.amount >= 0))).toBe(true);
  });
});

it("fetches its live payload from llm-prices.com (issue 7 §1)", () => {
  expect(liveUrls(llmPricesSource)).toEqual([
    "https://www.llm-prices.com/current-v1.json",
    "https://www.llm-prices.com/historical-v1.json",
  ]);
});

describe("llm-prices changes between snapshots", () => {
  it("2025-11-01 has no Gemini 2.5 Pro cached price, 2026-06-01 has 0.125 / 0.25 above 200k", () => {
    const before = listing(listingsAt("2025-11-01"), "google", "gemini-2.5-pro");
    expect(before.prices.some((p) => p.dimension.cache === "read")).toBe(false);
    expect(price(before, "input", "none", 200000).amount).toBe(2.5);
    const after = listing(listingsAt("2026-06-01"), "google", "gemini-2.5-pro");
    expect(price(after, "input", "read").amount).toBe(0.125);
    expect(price(after, "input", "read", 200000).amount).toBe(0.25);
  });

  it("2026-06-01 has Qwen (seller alibaba) with a 256k bracket and DeepSeek V4 cached prices", () => {
    const ls = listingsAt("2026-06-01");
    const qwen = listing(ls, "alibaba", "qwen3.6-plus");
    expect(qwen.makerHint).toBe("alibaba");
    expect(price(qwen, "output", "none", 256000).amount).toBe(6);
    expect(price(listing(ls, "deepseek", "deepseek-v4-pro"), "input", "read").amount).toBe(0.145);
    expect(listingsAt("2025-11-01").some((l) => l.model === "deepseek-v4-pro")).toBe(false);
    // vendor `moonshot-ai`: whatever sellers.ts maps it to (an alias moonshot-ai → moonshotai is requested)
    const kimi = listing(ls, canonicalSeller("moonshot-ai"), "kimi-k2-thinking");
    expect(price(kimi, "input", "read").amount).toBe(0.15);
    expect(price(kimi, "output").amount).toBe(2.5);
  });

  it("reads 2025-11-01's doubled-hyphen bracket id `gemini-2.5-pro--200k` as gemini-2.5-pro above 200k", () => {
    const ls = listingsAt("2025-11-01");
    expect(ls.some((l) => l.model.startsWith("gemini-2.5-pro-") && !l.model.includes("preview"))).toBe(false);
    expect(listing(ls, "google", "gemini-2.5-pro").name).toBe("Gemini 2.5 Pro");
  });
});

describe.each(DATES)("llm-prices %s historical-v1.json", (date) => {
  const history = (): LlmPricesHistoryRow[] => parseLlmPricesHistory(recordedPayload("llm-prices", date));

  it("holds the DeepSeek Chat 2025-02-08 rise 0.14 / 0.28 → 0.27 / 1.10", () => {
    const chat = history().filter((r) => r.seller === "deepseek" && r.model === "deepseek-chat");
    const at = (direction: string, dated: "before" | "after") =>
      chat.filter(
        (r) =>
          r.dimension.direction === direction &&
          (dated === "before" ? r.toDate === "2025-02-08" : r.fromDate === "2025-02-08"),
      );
    expect(at("input", "before").map((r) => [r.amount, r.fromDate])).toEqual([[0.14, null]]);
    expect(at("output", "before").map((r) => r.amount)).toEqual([0.28]);
    expect(at("input", "after").map((r) => [r.amount, r.toDate])).toEqual([[0.27, null]]);
    expect(at("output", "after").map((r) => r.amount)).toEqual([1.1]);
    expect(chat[0]).toMatchObject({ unit: "mtok", currency: "USD", denomination: "currency", name: "DeepSeek Chat" });
  });

  it("returns only dated rows (undated rows are the current prices)", () => {
    const rows = history();
    expect(rows).toHaveLength(4);
    expect(rows.every((r) => r.fromDate !== null || r.toDate !== null)).toBe(true);
  });
});

describe("llm-prices bad payloads", () => {
  it("throws SourcePayloadError when a required file is missing", () => {
    expect(() => llmPricesSource.parse(payloadOf({}))).toThrow(SourcePayloadError);
    expect(() => llmPricesSource.parse(payloadOf({}))).toThrow(/no current-v1\.json/);
    expect(() => parseLlmPricesHistory(payloadOf({ [LLM_PRICES_CURRENT_FILE]: "{}" }))).toThrow(
      /no historical-v1\.json/,
    );
  });

  it("throws SourcePayloadError on text that is not JSON", () => {
    expect(() => llmPricesSource.parse(payloadOf({ [LLM_PRICES_CURRENT_FILE]: "Not Found" }))).toThrow(
      /current-v1\.json is not JSON/,
    );
  });

  it("throws SourcePayloadError naming the path when the shape is wrong", () => {
    expect(() => llmPricesSource.parse(payloadOf({ [LLM_PRICES_CURRENT_FILE]: "[]" }))).toThrow(SourcePayloadError);
    expect(() => llmPricesSource.parse(payloadOf({ [LLM_PRICES_CURRENT_FILE]: '{"prices": {}}' }))).toThrow(
      /current-v1\.json is not an object \{updated_at, prices: \[\]\}: at \[prices\]/,
    );
    expect(() => parseLlmPricesHistory(payloadOf({ [LLM_PRICES_HISTORICAL_FILE]: '{"rows": []}' }))).toThrow(
      /historical-v1\.json is not an object \{prices: \[\]\}: at \[prices\]/,
    );
  });

  it("skips malformed rows and negative or null amounts, keeping the rest (invented fixture)", () => {
    // invented: the real snapshots hold no malformed rows
    const current = JSON.stringify({
      updated_at: "2026-01-01",
      prices: [
        { id: "no-vendor", name: "x", input: 1, output: 2, input_cached: null },
        { id: "m1", vendor: "mistral", name: "M1", input: "1.0", output: 2, input_cached: -1 },
        { id: "m2", vendor: "mistral", name: "M2", input: 0, output: 0, input_cached: null },
        { id: "m3", vendor: "some-lab", name: "M3", input: null, output: null, input_cached: null },
      ],
    });
    const ls = llmPricesSource.parse(payloadOf({ [LLM_PRICES_CURRENT_FILE]: current }));
    // no-vendor fails validation; m1 keeps only its output; m3 has no price at all
    expect(ls.map((l) => l.model)).toEqual(["m1", "m2"]);
    expect(ls[0]!.prices.map((p) => [p.dimension.direction, p.amount])).toEqual([["output", 2]]);
    expect(ls[1]!.prices.map((p) => p.amount)).toEqual([0, 0]);
    expect(ls[0]!.makerHint).toBe("mistral");
    const historical = JSON.stringify({
      prices: [
        {
          id: "m1",
          vendor: "mistral",
          name: "M1",
          input: 1,
          output: 2,
          input_cached: null,
          from_date: "2025-13",
          to_date: null,
        },
        {
          id: "m2",
          vendor: "some-lab",
          name: "M2",
          input: 1,
          output: 2,
          input_cached: 0.5,
          from_date: "2025-01-01",
          to_date: null,
        },
      ],
    });
    const rows = parseLlmPricesHistory(payloadOf({ [LLM_PRICES_HISTORICAL_FILE]: historical }));
    expect(rows.map((r) => [r.model, r.dimension.cache, r.amount])).toEqual([
      ["m2", "none", 1],
      ["m2", "none", 2],
      ["m2", "read", 0.5],
    ]);
    expect(rows[0]!.seller).toBe("some-lab");
  });
});

describe("llm-prices read at the payload's date (issue 37 §4, T335)", () => {
  it("the 2025-11-01 copy read on 2025-02-01 gives DeepSeek Chat 0.14 / 0.28 until 2025-02-08, then 0.27 / 1.10", () => {
    const payload = { ...recordedPayload("llm-prices", "2025-11-01"), observedAt: "2025-02-01T00:00:00.000Z" };
    const l = listing(llmPricesSource.parse(payload), "deepseek", "deepseek-chat");
    expect(price(l, "input")).toMatchObject({ amount: 0.14, validity: { until: "2025-02-08", next: 0.27 } });
    expect(price(l, "output")).toMatchObject({ amount: 0.28, validity: { until: "2025-02-08", next: 1.1 } });
  });

  it.each(DATES)("at its own date %s no price states an end (the dated move is past)", (date) => {
    const ended = listingsAt(date).flatMap((l) => l.prices.filter((p) => p.validity !== undefined));
    expect(ended).toEqual([]);
    expect(price(listing(listingsAt(date), "deepseek", "deepseek-chat"), "input").amount).toBeGreaterThan(0);
  });
});
