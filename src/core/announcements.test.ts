import { describe, expect, it } from "vitest";
import { inventedDataset, inventedPrice } from "../../test/invented-datasets.js";
import type { PublishedPrice } from "../domain/dataset.js";
import { priceOnDay } from "../domain/dated-price.js";
import type { SourceId } from "../domain/observation.js";
import { announcementChanges } from "./announcements.js";
import { overruledEnds, validityOf } from "./price-validity.js";

// Invented two-version datasets around one real statement: genai-prices' 2025-08-01 copy gives
// OpenAI's o3 10 / 40 until 2025-06-10, then 2 / 8 (read on 2025-06-01). The pipeline end to end,
// on the real copies, is test/announced-prices.test.ts.
const UNTIL = "2025-06-10T00:00:00.000Z";
const ANNOUNCED = { amount: 2, effectiveFrom: UNTIL, source: "genai-prices" } as const;
/** The registry's weights of the sources named here (genai-prices 0.8, LiteLLM 0.7): no maker's page. */
const voice = (s: string) => ({ weight: s === "genai-prices" ? 0.8 : 0.7 });

/** o3's direct input (USD per 1M tokens) as two sources state it, models-dev dissenting. */
function input(amount: number, extra: Partial<PublishedPrice> = {}): PublishedPrice {
  return inventedPrice("openai/o3", "Input", amount, {
    sources: ["genai-prices", "litellm"],
    dissenting: ["models-dev"],
    disputed: true,
    fallbackAmount: 10,
    effectiveFrom: "2025-05-01T00:00:00.000Z",
    observations: [],
    ...extra,
  });
}

const dataset = inventedDataset;

const announcedPrice = input(10, { effectiveUntil: UNTIL, announced: ANNOUNCED });

describe("validityOf (T335)", () => {
  it("takes the first agreeing source that states an end after the run's day", () => {
    const stated = { litellm: { until: "2025-06-10", next: 3 }, "genai-prices": { until: "2025-06-10", next: 2 } };
    const of = (s: string) => stated[s as keyof typeof stated];
    // T423: LiteLLM dates the price otherwise, so genai-prices' statement stands alone against it: low.
    expect(validityOf(["genai-prices", "litellm"], of, "2025-06-01T00:00:00.000Z", voice)).toEqual({
      effectiveUntil: UNTIL,
      announced: { ...ANNOUNCED, confidence: "low", confidenceScore: 0.45 },
    });
    expect(validityOf(["models-dev"], of, "2025-06-01T00:00:00.000Z", voice)).toEqual({
      effectiveUntil: null,
      announced: null,
    });
  });

  it("a stated end on or before the run's day announces nothing (a carried statement that came true)", () => {
    const of = () => ({ until: "2025-06-10", next: 2 });
    expect(validityOf(["genai-prices"], of, "2025-06-10T00:00:00.000Z", voice).effectiveUntil).toBeNull();
  });

  it("a dropped successor is an end with no announced price", () => {
    const of = () => ({ until: "2025-06-10", next: null });
    expect(validityOf(["genai-prices"], of, "2025-06-01T00:00:00.000Z", voice)).toEqual({
      effectiveUntil: UNTIL,
      announced: null,
    });
  });
});

describe("overruledEnds (issue 46 §3, T466)", () => {
  // Invented: the maker's page (official-openai, authoritative) states o3's price with no end, as a
  // page that withdrew its announcement does; genai-prices still dates it.
  const maker = (s: string) => (s === "official-openai" ? { weight: 1, authoritative: true } : voice(s));
  const stated = (s: string) => (s === "genai-prices" ? { until: "2025-06-10", next: 2 } : undefined);
  const run = "2025-06-01T00:00:00.000Z";

  it("the aggregator still dating a price the maker's page states no end of dissents", () => {
    const agreeing: SourceId[] = ["official-openai", "genai-prices", "litellm"];
    expect(validityOf(agreeing, stated, run, maker)).toEqual({ effectiveUntil: null, announced: null });
    expect(overruledEnds(agreeing, stated, run, maker)).toEqual(["genai-prices"]);
  });

  it("no maker's page, or a past end: no one is overruled", () => {
    expect(overruledEnds(["genai-prices", "litellm"], stated, run, maker)).toEqual([]);
    expect(overruledEnds(["official-openai", "genai-prices"], stated, "2025-06-10T00:00:00.000Z", maker)).toEqual([]);
  });

  it("a maker's page that dates the price itself overrules no one who agrees", () => {
    const both = (s: string) => (s === "litellm" ? undefined : { until: "2025-06-10", next: 2 });
    expect(overruledEnds(["official-openai", "genai-prices"], both, run, maker)).toEqual([]);
  });
});

describe("priceOnDay (T336)", () => {
  it("is the price itself before its end, the announced price from the end's day on", () => {
    expect(priceOnDay(announcedPrice, "2025-06-09")).toBe(announcedPrice);
    expect(priceOnDay(announcedPrice, "2025-06-10")).toEqual({
      ...announcedPrice,
      amount: 2,
      effectiveFrom: UNTIL,
      sources: ["genai-prices"],
      dissenting: [],
      disputed: false,
      fallbackAmount: null,
      effectiveUntil: null,
      announced: null,
    });
  });

  it("a price that ends with no successor is gone from its end's day", () => {
    expect(priceOnDay({ ...announcedPrice, announced: null }, "2025-06-10")).toBeNull();
    expect(priceOnDay(input(10), "2099-01-01")?.amount).toBe(10);
  });
});

describe("announcementChanges (T337)", () => {
  const V1 = "2025-05-01T00:00:00.000Z";
  const V2 = "2025-06-01T00:00:00.000Z";
  const V3 = "2025-06-05T00:00:00.000Z";

  it("announces an end the previous version did not state, once", () => {
    const changes = announcementChanges(dataset(V1, [input(10)]), dataset(V2, [announcedPrice]));
    expect(changes).toEqual([
      expect.objectContaining({
        kind: "price_announced",
        oldAmount: 10,
        newAmount: 2,
        deltaPct: -80,
        effectiveFrom: UNTIL,
        occurredAt: V2,
      }),
    ]);
    expect(announcementChanges(dataset(V2, [announcedPrice]), dataset(V3, [announcedPrice]))).toEqual([]);
  });

  it("withdraws an end still ahead that the next version no longer states", () => {
    const changes = announcementChanges(dataset(V2, [announcedPrice]), dataset(V3, [input(10)]));
    expect(changes).toEqual([
      expect.objectContaining({
        kind: "announcement_withdrawn",
        oldAmount: 2,
        newAmount: 10,
        effectiveFrom: UNTIL,
        occurredAt: V3,
      }),
    ]);
  });

  it("an end that came due is not withdrawn; a changed successor is withdrawn and announced again", () => {
    const due = "2025-06-10T06:00:00.000Z";
    expect(announcementChanges(dataset(V2, [announcedPrice]), dataset(due, [input(2)]))).toEqual([]);
    const other = input(10, { effectiveUntil: UNTIL, announced: { ...ANNOUNCED, amount: 3 } });
    const kinds = announcementChanges(dataset(V2, [announcedPrice]), dataset(V3, [other])).map((c) => [
      c.kind,
      c.newAmount,
    ]);
    expect(kinds).toEqual([
      ["announcement_withdrawn", 10],
      ["price_announced", 3],
    ]);
  });

  it("the first version has nothing to compare", () => {
    expect(announcementChanges(null, dataset(V2, [announcedPrice]))).toEqual([]);
  });
});
