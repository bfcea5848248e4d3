import { describe, expect, it } from "vitest";
import { recordedPayload } from "../../../test/recorded-payloads.js";
import { screenAtBoundary } from "../../core/listing-boundary.js";
import { officialMoonshotSource } from "./index.js";
import { readBracket } from "./price-tables.js";

// Issue 48 §1–§2 (T508, T509): Moonshot's Chinese page, its tables read by header, CNY per 1M tokens.
const payload = recordedPayload("official-moonshot", "2026-01-01");
const FILE = "pricing-chat.zh-cn.md";
const withPage = (edit: (text: string) => string) => {
  const files = new Map(payload.files);
  files.set(FILE, edit(files.get(FILE)!));
  return { ...payload, files };
};
const row = (p: { dimension: { direction: string; cache: string; contextMin: number; contextMax: number | null } }) =>
  `${p.dimension.direction} ${p.dimension.cache} ${p.dimension.contextMin}–${p.dimension.contextMax ?? "∞"}`;

describe("official-moonshot 2026-01-01", () => {
  const { listings, unmapped } = officialMoonshotSource.parseReport(payload);
  const model = (id: string) => listings.find((l) => l.model === id)!;

  it("reads every row of the three tables: twelve models, in CNY, nothing unmatched", () => {
    expect(listings.map((l) => l.model)).toEqual([
      "kimi-k2-0905-preview",
      "kimi-k2-0711-preview",
      "kimi-k2-turbo-preview",
      "kimi-k2-thinking",
      "kimi-k2-thinking-turbo",
      "kimi-latest",
      "moonshot-v1-8k",
      "moonshot-v1-32k",
      "moonshot-v1-128k",
      "moonshot-v1-8k-vision-preview",
      "moonshot-v1-32k-vision-preview",
      "moonshot-v1-128k-vision-preview",
    ]);
    expect(listings.every((l) => l.seller === "moonshotai" && l.makerHint === "moonshotai")).toBe(true);
    expect(listings.flatMap((l) => l.prices).every((p) => p.currency === "CNY" && p.unit === "mtok")).toBe(true);
    expect(unmapped).toEqual({});
  });

  it("the K2 table's cache-hit column is the cache read; moonshot-v1's lone 输入价格 is the uncached input", () => {
    expect(model("kimi-k2-thinking").prices.map((p) => [row(p), p.amount])).toEqual([
      ["input none 0–∞", 4],
      ["input read 0–∞", 1],
      ["output none 0–∞", 16],
    ]);
    expect(model("kimi-k2-turbo-preview").prices.map((p) => p.amount)).toEqual([8, 1, 58]); // badge 推荐 dropped
    expect(model("moonshot-v1-128k").prices.map((p) => [row(p), p.amount])).toEqual([
      ["input none 0–∞", 10],
      ["output none 0–∞", 30],
    ]);
  });

  it("kimi-latest: one price per request-size bracket, the merged model cell carried to its rows", () => {
    expect(model("kimi-latest").prices.map((p) => [row(p), p.amount])).toEqual([
      ["input none 0–8192", 2],
      ["input read 0–8192", 1],
      ["output none 0–8192", 10],
      ["input none 8192–32768", 5],
      ["input read 8192–32768", 1],
      ["output none 8192–32768", 20],
      ["input none 32768–131072", 10],
      ["input read 32768–131072", 1],
      ["output none 32768–131072", 30],
    ]);
    expect(readBracket("≤ 8,192 tokens")).toEqual([0, 8192]);
    expect(readBracket("32,768 < 长度 ≤ 131,072 tokens")).toEqual([32768, 131072]);
    expect(readBracket("> 131,072 tokens")).toBeNull();
  });

  it("columns are found by header, not position (the K2 table with input and output swapped reads the same)", () => {
    const swapped = withPage((t) =>
      t
        .replace("| 输入价格 （缓存未命中） | 输出价格 |", "| 输出价格 | 输入价格 （缓存未命中） |")
        .replace(/^\| (kimi-k2[^|]*)\| ([^|]*)\| ([^|]*)\| ([^|]*)\| ([^|]*)\|/gm, "| $1| $2| $3| $5| $4|"),
    );
    expect(swapped.files.get(FILE)).not.toEqual(payload.files.get(FILE));
    expect(officialMoonshotSource.parse(swapped)).toEqual(listings);
  });

  // Invented rows (the copy has none): each is an unmatched row with its reason, never a price.
  it("a row it cannot read is an unmatched page row with its reason", () => {
    const edited = withPage((t) =>
      t.replace(
        "| kimi-k2-thinking | 1M tokens |",
        [
          "| kimi-k2-thinking新 | 1M tokens | ￥1.00 | ￥4.00 | ￥16.00 | 262,144 tokens |",
          "| deepseek-chat | 1M tokens | ￥0.20 | ￥2.00 | ￥3.00 | 131,072 tokens |",
          "| kimi-k2-mini | 1K tokens | ￥0.01 | ￥0.04 | ￥0.16 | 131,072 tokens |",
          "| kimi-k2-max | 1M tokens | ￥1.00 | $4.00 | ￥16.00 | 262,144 tokens |",
          "| kimi-k2-thinking | 1M tokens |",
        ].join("\n"),
      ),
    );
    const report = officialMoonshotSource.parseReport(edited);
    const table = "unmatched row: table 1 (kimi-k2-0905-preview)";
    expect(report.unmapped).toEqual({
      [`${table}: "kimi-k2-thinking新" — "kimi-k2-thinking新" is no moonshot model name (no rule of the grammar)`]: 1,
      [`${table}: "deepseek-chat" — another maker's model (deepseek: "deepseek-chat"); a page lists only its maker's models`]: 1,
      [`${table}: "kimi-k2-mini" — its billing unit "1k tokens" is not 1M tokens`]: 1,
      [`${table}: "kimi-k2-max" — its input cell is no CNY price per 1M tokens ("$4.00")`]: 1,
    });
    expect(report.listings).toEqual(listings);
  });

  it("at the adapter boundary every CNY price carries the qualifier currency: CNY (T508)", () => {
    const screened = screenAtBoundary(listings).listings.flatMap((l) => l.prices);
    expect(screened.length).toBe(listings.flatMap((l) => l.prices).length);
    expect(screened.every((p) => p.dimension.qualifiers.currency === "CNY")).toBe(true);
  });
});
