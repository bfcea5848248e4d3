import { describe, expect, it } from "vitest";
import { recordedAdapter } from "../../../test/recorded-payloads.js";
import type { Listing } from "../../domain/observation.js";
import { officialAnthropicSource } from "../official-anthropic/index.js";
import { officialOpenaiSource } from "../official-openai/index.js";
import { checkPageCoherence, incoherentRows, maxIncoherentRows } from "./page-coherence.js";

// Issue 46 §4 (T408): the gate judges sense. Every recorded copy keeps the rules on every row.
const COPIES = [
  ...["2025-11-01", "2025-12-01", "2026-02-01", "2026-03-01", "2026-04-01", "2026-05-01"].map(
    (d) => [officialAnthropicSource, d] as const,
  ),
  [officialOpenaiSource, "2026-06-01"] as const,
];

describe("coherence of the recorded copies", () => {
  it.each(COPIES.map(([a, d]) => [a.id, d, a] as const))("%s %s: no incoherent row", (_, date, adapter) => {
    expect([...incoherentRows(recordedAdapter(adapter).listings(date)).keys()]).toEqual([]);
  });
});

describe("incoherent pages", () => {
  const ls = recordedAdapter(officialAnthropicSource).listings("2026-05-01");
  const swapped = (l: Listing): Listing => ({
    ...l,
    prices: l.prices.map((p) =>
      p.dimension.tier === "standard" && p.dimension.cache === "none" && p.dimension.direction !== "tool"
        ? { ...p, dimension: { ...p.dimension, direction: p.dimension.direction === "input" ? "output" : "input" } }
        : p,
    ),
  });

  it("one odd row is left to the core's quarantine; more than a tenth refuse the whole page, naming the rule", () => {
    expect(maxIncoherentRows(13)).toBe(1);
    expect(() => checkPageCoherence("p", [swapped(ls[0] as Listing), ...ls.slice(1)])).not.toThrow();
    expect(() => checkPageCoherence("p", [...ls.slice(0, 2).map(swapped), ...ls.slice(2)])).toThrow(
      /p: health: incoherent rows: rule output_below_input on 2 of 13 rows .*the whole page is refused/,
    );
  });
});
