import { describe, expect, it } from "vitest";
import { recordedPayload } from "../../../test/recorded-payloads.js";
import { cellAmounts } from "./cell.js";
import { officialGoogleSource } from "./index.js";

// Issue 48 §2 (T430, T434): what one paid-tier cell of Google's page states.
describe("a paid-tier cell", () => {
  it("two brackets in one cell: from 0 and from 200K", () => {
    expect(
      cellAmounts("$2.00, prompts \\<= 200k tokens $4.00, prompts \\> 200k tokens").map((a) => [
        a.amount,
        a.contextMin,
      ]),
    ).toEqual([
      ["2.00", 0],
      ["4.00", 200_000],
    ]);
  });

  it("modalities in one cell, and the storage price per hour is no token price", () => {
    const amounts = cellAmounts(
      "$0.03 (text / image / video) $0.1 (audio) $1.00 / 1,000,000 tokens per hour (storage price)",
    );
    expect(amounts.map((a) => [a.amount, a.modalities, a.otherUnit])).toEqual([
      ["0.03", ["text", "image", "video"], null],
      ["0.1", ["audio"], null],
      ["1.00", ["text"], "cache storage per 1M tokens per hour"],
    ]);
  });

  it("per-image and footnoted amounts are another unit", () => {
    expect(cellAmounts("$12.00 (text and thinking) $0.134 per 1K/2K image^\\*\\*^").map((a) => a.otherUnit)).toEqual([
      null,
      "per image",
    ]);
    expect(cellAmounts("$2.00 (text), $0.0011 (image)^\\*^")[1]?.otherUnit).toMatch(/footnote/);
  });
});

describe("official-google 2025-12-01", () => {
  const { listings, unmapped } = officialGoogleSource.parseReport(recordedPayload("official-google", "2025-12-01"));
  const price = (model: string, f: (d: Record<string, unknown>) => boolean) =>
    listings.find((l) => l.model === model)?.prices.filter((p) => f(p.dimension as unknown as Record<string, unknown>));

  it("one listing per section naming one API id; nothing unknown", () => {
    expect(listings.map((l) => l.model)).toContain("gemini-3-pro-preview");
    expect(listings.some((l) => l.model.startsWith("imagen") || l.model.startsWith("veo"))).toBe(false);
    expect(unmapped).toEqual({});
  });

  it("Gemini 2.5 Pro: brackets, batch, and grounding as a tool price per 1K prompts", () => {
    const input = price("gemini-2.5-pro", (d) => d.direction === "input" && d.cache === "none");
    expect(input?.map((p) => [p.dimension.tier, p.dimension.contextMin, p.amount])).toEqual([
      ["standard", 0, 1.25],
      ["standard", 200_000, 2.5],
      ["batch", 0, 0.625],
      ["batch", 200_000, 1.25],
    ]);
    const tools = price("gemini-2.5-pro", (d) => d.direction === "tool" && d.tier === "standard");
    expect(tools?.map((p) => [p.dimension.qualifiers.tool, p.amount, p.unit])).toEqual([
      ["google_search", 35, "kcalls"],
      ["google_maps", 25, "kcalls"],
    ]);
  });

  it("Gemini 2.5 Flash: the text/image/video group is the text price, audio its own; no storage price", () => {
    const input = price("gemini-2.5-flash", (d) => d.direction === "input" && d.tier === "standard");
    expect(input?.map((p) => [p.dimension.modality, p.dimension.cache, p.amount])).toEqual([
      ["text", "none", 0.3],
      ["audio", "none", 1],
      ["text", "read", 0.03],
      ["audio", "read", 0.1],
    ]);
    expect(
      listings
        .flatMap((l) => l.prices)
        .some((p) => p.amount === 4.5 || (p.amount === 1 && p.dimension.cache === "read")),
    ).toBe(false);
  });

  it("Gemini 3 Pro Preview's grounding is 'Coming soon': not published", () => {
    expect(price("gemini-3-pro-preview", (d) => d.direction === "tool")).toEqual([]);
  });
});
