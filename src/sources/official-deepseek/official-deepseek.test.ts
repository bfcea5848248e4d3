import { describe, expect, it } from "vitest";
import { recordedPayload } from "../../../test/recorded-payloads.js";
import { officialDeepseekSource } from "./index.js";

// Issue 48 §2–§3 (T430, T512): DeepSeek's two editions, two price lists, each in its own currency.
const payload = recordedPayload("official-deepseek", "2026-01-01");
const withPage = (file: string, edit: (text: string) => string) => {
  const files = new Map(payload.files);
  files.set(file, edit(files.get(file)!));
  return { ...payload, files };
};

describe("official-deepseek 2026-01-01", () => {
  it("prices the API aliases from the merged cells, USD and CNY per 1M tokens, never converted (T512)", () => {
    const { listings, unmapped } = officialDeepseekSource.parseReport(payload);
    expect(listings.map((l) => l.model)).toEqual(["deepseek-chat", "deepseek-reasoner"]);
    for (const l of listings)
      expect(l.prices.map((p) => [p.dimension.direction, p.dimension.cache, p.amount, p.currency])).toEqual([
        ["input", "read", 0.028, "USD"],
        ["input", "none", 0.28, "USD"],
        ["output", "none", 0.42, "USD"],
        ["input", "read", 0.2, "CNY"],
        ["input", "none", 2, "CNY"],
        ["output", "none", 3, "CNY"],
      ]);
    expect(unmapped).toEqual({});
    expect(officialDeepseekSource.info.skippedFields?.["pricing.zh-cn.md"]).toBeUndefined();
  });

  it("the CNY edition's cells are read by its own grammar: one it does not know is counted, not published", () => {
    const broken = withPage("pricing.zh-cn.md", (t) => t.replace("百万tokens输出| 3元", "百万tokens输出| 3 CNY"));
    const report = officialDeepseekSource.parseReport(broken);
    expect(report.unmapped).toEqual({ "pricing.zh-cn.md: 百万tokens输出": 2 });
    expect(report.listings[0]!.prices.filter((p) => p.currency === "CNY").map((p) => p.amount)).toEqual([0.2, 2]);
  });

  // Invented: the recorded copy has no off-peak row (DeepSeek printed them until 2025-09). Such a row
  // is counted, never read as the standard price.
  it("an off-peak row is counted as unmapped, never published as the standard price", () => {
    const offPeak = withPage("pricing.md", (t) =>
      t.replace(
        "1M OUTPUT TOKENS| $0.42",
        "1M OUTPUT TOKENS| $0.42  \n1M OUTPUT TOKENS (OFF-PEAK 16:30-00:30 UTC)| $0.21",
      ),
    );
    const { listings, unmapped } = officialDeepseekSource.parseReport(offPeak);
    expect(unmapped).toEqual({ "pricing.md: 1M OUTPUT TOKENS (OFF-PEAK 16:30-00:30 UTC)": 2 });
    expect(listings.flatMap((l) => l.prices.map((p) => p.amount))).not.toContain(0.21);
  });
});
