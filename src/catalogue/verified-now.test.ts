import { describe, expect, it } from "vitest";
import type { PublishedPrice } from "../domain/dataset.js";
import { DAY_MS, VERIFIED_PAGE_MAX_AGE_DAYS } from "../domain/freshness.js";
import {
  judgePrice,
  lastRead,
  type SellerSources,
  sameStalePages,
  staleInterval,
  stalePagesAt,
  stalePagesKey,
} from "./verified-now.js";

// issue 46 §5 (T460, T461): `verified` judged at the moment served. The prices are invented shapes
// (only the fields the judgement reads); the replay's own prices are judged in
// test/verified-when-served.test.ts.

const READ = "2026-06-01T00:00:00.000Z";
const at = (days: number) => Date.parse(READ) + days * DAY_MS;
const sellers: SellerSources = {
  speaksFor: new Map([
    ["official-openai", ["openai"]],
    ["openrouter", ["openrouter"]],
  ]),
  weight: new Map([
    ["official-openai", 1],
    ["openrouter", 0.9],
    ["litellm", 0.7],
    ["portkey", 0.6],
    ["llm-prices", 0.4],
  ]),
};
const price = (over: Partial<PublishedPrice>): PublishedPrice =>
  ({
    seller: "openai",
    confidence: "verified",
    confidenceScore: 0.95,
    sources: ["official-openai", "litellm", "portkey"],
    dissenting: [],
    ...over,
  }) as PublishedPrice;

describe("a seller's page is fresh for the window after its last read (T460)", () => {
  const reads = new Map([["official-openai", READ]]);
  it("stale from the first ms after the window, never before", () => {
    expect(stalePagesAt(reads, at(VERIFIED_PAGE_MAX_AGE_DAYS)).size).toBe(0);
    expect([...stalePagesAt(reads, at(VERIFIED_PAGE_MAX_AGE_DAYS) + 1)]).toEqual([["official-openai", READ]]);
    expect(stalePagesAt(new Map([["official-openai", null]]), 0).has("official-openai")).toBe(true);
  });

  it("the interval around a moment ends where the judgement flips", () => {
    const flip = at(VERIFIED_PAGE_MAX_AGE_DAYS) + 1;
    expect(staleInterval(reads, at(1))).toEqual({ from: Number.NEGATIVE_INFINITY, until: flip });
    expect(staleInterval(reads, at(200))).toEqual({ from: flip, until: Number.POSITIVE_INFINITY });
  });

  it("a successful attempt newer than the version's success is the last read; a failed one is not", () => {
    const later = "2026-07-01T00:00:00.000Z";
    expect(lastRead({ lastSuccessAt: READ, lastAttempt: { at: later, status: "unchanged" } })).toBe(later);
    expect(lastRead({ lastSuccessAt: READ, lastAttempt: { at: later, status: "failed" } })).toBe(READ);
    expect(lastRead({ lastSuccessAt: null, lastAttempt: null })).toBeNull();
  });

  it("the key is empty for no stale page and names the pages with their reads", () => {
    expect(stalePagesKey(new Map())).toBe("");
    const a = new Map([["official-openai", READ]]);
    expect(stalePagesKey(a)).not.toBe(stalePagesKey(new Map([["official-openai", "2026-05-01T00:00:00.000Z"]])));
    expect(sameStalePages(a, new Map(a))).toBe(true);
    expect(sameStalePages(a, new Map())).toBe(false);
  });
});

describe("a price whose seller's page is stale is not verified (T461)", () => {
  const stale = new Map([["official-openai", READ]]);

  it("keeps a price whose page is fresh, or that is not verified", () => {
    const p = price({});
    expect(judgePrice(p, new Map(), sellers)).toBe(p);
    const high = price({ confidence: "high", confidenceScore: 0.8 });
    expect(judgePrice(high, stale, sellers)).toBe(high);
  });

  it("gets the level of its other sources, the page without its authority, and says why", () => {
    const judged = judgePrice(price({}), stale, sellers);
    expect(judged).toMatchObject({
      confidence: "high",
      pageStale: { source: "official-openai", lastReadAt: READ, maxAgeDays: VERIFIED_PAGE_MAX_AGE_DAYS },
    });
    expect(judged.confidenceScore).toBeGreaterThanOrEqual(0.75);
    expect(judged.confidenceScore).toBeLessThan(0.9);
  });

  it("the page alone is medium; against dissent it is low", () => {
    expect(judgePrice(price({ sources: ["official-openai"] }), stale, sellers).confidence).toBe("medium");
    const opposed = price({ sources: ["official-openai"], dissenting: ["litellm", "portkey"] });
    expect(judgePrice(opposed, stale, sellers).confidence).toBe("low");
  });

  it("a reseller's own list follows the same rule", () => {
    const offer = price({ seller: "openrouter", sources: ["openrouter"] });
    const judged = judgePrice(offer, new Map([["openrouter", READ]]), sellers);
    expect(judged).toMatchObject({ confidence: "medium", pageStale: { source: "openrouter" } });
    expect(judgePrice(offer, stale, sellers)).toBe(offer);
  });
});
