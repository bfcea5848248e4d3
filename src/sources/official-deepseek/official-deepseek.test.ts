import { describe, expect, it } from "vitest";
import { recordedPayload } from "../../../test/recorded-payloads.js";
import { officialDeepseekSource } from "./index.js";

// Issue 48 §2–§3 (T430, T431): DeepSeek's two editions, USD published, CNY read and never published.
const payload = recordedPayload("official-deepseek", "2026-01-01");
const withPage = (file: string, edit: (text: string) => string) => {
  const files = new Map(payload.files);
  files.set(file, edit(files.get(file)!));
  return { ...payload, files };
};

describe("official-deepseek 2026-01-01", () => {
  it("prices the API aliases from the merged cells, USD per 1M tokens", () => {
    const { listings, unmapped } = officialDeepseekSource.parseReport(payload);
    expect(listings.map((l) => l.model)).toEqual(["deepseek-chat", "deepseek-reasoner"]);
    for (const l of listings)
      expect(l.prices.map((p) => [p.dimension.direction, p.dimension.cache, p.amount, p.currency])).toEqual([
        ["input", "read", 0.028, "USD"],
        ["input", "none", 0.28, "USD"],
        ["output", "none", 0.42, "USD"],
      ]);
    expect(unmapped).toEqual({});
  });

  it("the CNY edition is read, not converted and not published (T431)", () => {
    const { listings } = officialDeepseekSource.parseReport(payload);
    expect(listings.flatMap((l) => l.prices).every((p) => p.currency === "USD")).toBe(true);
    expect(officialDeepseekSource.info.skippedFields?.["pricing.zh-cn.md"]).toMatch(/CNY/);
    // A CNY cell the grammar does not know is counted, so the CNY edition is really read.
    const broken = withPage("pricing.zh-cn.md", (t) => t.replace("百万tokens输出| 3元", "百万tokens输出| 3 CNY"));
    expect(officialDeepseekSource.parseReport(broken).unmapped).toEqual({ "pricing.zh-cn.md: 百万tokens输出": 2 });
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
