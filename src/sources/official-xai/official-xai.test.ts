import { describe, expect, it } from "vitest";
import { recordedPayload } from "../../../test/recorded-payloads.js";
import { officialXaiSource } from "./index.js";

// Issue 48 §2 (T430): xAI's glued `$in$out` cells, section rows and tool fees.
describe("official-xai 2026-01-01", () => {
  const { listings, unmapped } = officialXaiSource.parseReport(recordedPayload("official-xai", "2026-01-01"));
  const model = (id: string) => listings.find((l) => l.model === id)!;

  it("a glued `$3.00$15.00` cell is input then output per 1M tokens; Context is the window", () => {
    expect(
      model("grok-4-0709")
        .prices.slice(0, 2)
        .map((p) => [p.dimension.direction, p.amount]),
    ).toEqual([
      ["input", 3],
      ["output", 15],
    ]);
    expect(model("grok-4-0709").contextWindow).toBe(256_000);
    expect(unmapped).toEqual({});
  });

  it("under 'Per image output', one amount per image; tool fees per 1K calls on language models only", () => {
    expect(model("grok-2-image-1212").prices.map((p) => [p.dimension.modality, p.unit, p.amount])).toEqual([
      ["image", "image", 0.07],
    ]);
    const tools = model("grok-3").prices.filter((p) => p.dimension.direction === "tool");
    expect(tools.map((p) => [p.dimension.qualifiers.tool, p.amount])).toEqual([
      ["web_search", 5],
      ["x_search", 5],
      ["code_execution", 5],
      ["document_search", 5],
      ["collections_search", 2.5],
    ]);
  });
});
