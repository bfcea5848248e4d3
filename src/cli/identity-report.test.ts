import { describe, expect, it } from "vitest";
import { formatUnmatched, selectUnmatched } from "./identity-report.js";

// Rows as the 2026-06-01 run records them (openrouter's router and a resold spelling no maker lists).
const rows = [
  {
    source: "openrouter",
    seller: "openrouter",
    model: "openrouter/auto",
    reason: "not a model: a router's automatic model choice",
    nearest: null,
    observations: 2,
  },
  {
    source: "models-dev",
    seller: "nano-gpt",
    model: "Gemma-3-27B-Glitter",
    reason: "names no google model",
    nearest: "google/gemma-3-27b-it",
    observations: 2,
  },
];

describe("tariff identity --unmatched (issue 12 §4)", () => {
  it("lists source, seller, spelling, reason and the nearest model, then counts by reason", () => {
    const text = formatUnmatched(rows);
    expect(text).toMatch(/^2 unmatched listing\(s\)\n/);
    expect(text).toContain("nano-gpt");
    expect(text).toContain("Gemma-3-27B-Glitter");
    expect(text).toContain("(nearest: google/gemma-3-27b-it)");
    expect(text).toMatch(/1 {2}names no model of its maker/);
    expect(text).toMatch(/by source:\n {5}1 {2}models-dev\n {5}1 {2}openrouter\n$/);
  });
  it("filters by source and by reason", () => {
    expect(selectUnmatched(rows, { source: "openrouter" }).map((r) => r.model)).toEqual(["openrouter/auto"]);
    expect(selectUnmatched(rows, { reason: "names no" }).map((r) => r.model)).toEqual(["Gemma-3-27B-Glitter"]);
    expect(formatUnmatched(rows, { source: "x" })).toMatch(/^0 unmatched listing\(s\) \(source x\)/);
  });
});
