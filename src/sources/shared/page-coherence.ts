import { dimensionKey } from "../../domain/dimension.js";
import type { Listing, PriceObservation } from "../../domain/observation.js";
import { SourcePayloadError } from "../source.js";

/**
 * The sense half of a maker page's health gate (issue 46 §4, T408). Pure. Every recorded copy of
 * both pages keeps three rules on every row: output ≥ input, a cache read < input, batch ≤ standard
 * (each compared within one tier, bracket and qualifier set; `tool` prices aside). A copy whose price
 * columns moved under their headers (rotated by one, swapped) breaks them on most rows. Many
 * incoherent rows refuse the WHOLE page — never a part of it — and the refusal names the rule in
 * `/sources` (`lastError`); one odd row is left to the core's per-price quarantine
 * (`output_below_input`, T192).
 */

/** A rule every coherent row keeps. */
export type CoherenceRule = "output_below_input" | "cache_read_not_below_input" | "batch_above_standard";

/** Incoherent rows a page may have before it is refused: more than one, and more than a tenth of its rows. */
export function maxIncoherentRows(rows: number): number {
  return Math.max(1, Math.floor(rows / 10));
}

/** Listings (rows) breaking each rule, with one example each. */
export function incoherentRows(listings: readonly Listing[]): Map<CoherenceRule, { rows: string[]; example: string }> {
  const out = new Map<CoherenceRule, { rows: string[]; example: string }>();
  const flag = (rule: CoherenceRule, model: string, example: string) => {
    const entry = out.get(rule) ?? { rows: [], example };
    if (!entry.rows.includes(model)) entry.rows.push(model);
    out.set(rule, entry);
  };
  for (const l of listings) {
    const at = new Map<string, PriceObservation>();
    for (const p of l.prices) if (p.dimension.direction !== "tool") at.set(dimensionKey(p.dimension), p);
    const twin = (p: PriceObservation, change: Record<string, string>) =>
      at.get(dimensionKey({ ...p.dimension, ...change } as PriceObservation["dimension"]));
    for (const p of at.values()) {
      const d = p.dimension;
      if (d.direction === "output" && d.cache === "none") {
        const input = twin(p, { direction: "input" });
        if (input && p.amount < input.amount)
          flag("output_below_input", l.model, `${l.model} ${d.tier} input ${input.amount} output ${p.amount}`);
      }
      if (d.direction === "input" && d.cache === "read") {
        const input = twin(p, { cache: "none" });
        if (input && p.amount >= input.amount)
          flag(
            "cache_read_not_below_input",
            l.model,
            `${l.model} ${d.tier} input ${input.amount} cache read ${p.amount}`,
          );
      }
      if (d.tier === "batch") {
        const standard = twin(p, { tier: "standard" });
        if (standard && p.amount > standard.amount)
          flag(
            "batch_above_standard",
            l.model,
            `${l.model} ${d.direction} standard ${standard.amount} batch ${p.amount}`,
          );
      }
    }
  }
  return out;
}

/**
 * Refuses a page whose rows make no sense.
 * @param where `<source>: <file>` for the message
 * @throws SourcePayloadError `…: health: incoherent rows: rule output_below_input on 13 of 13 rows (e.g. …); the whole page is refused`
 */
export function checkPageCoherence(where: string, listings: readonly Listing[]): void {
  const limit = maxIncoherentRows(listings.length);
  for (const [rule, { rows, example }] of incoherentRows(listings))
    if (rows.length > limit)
      throw new SourcePayloadError(
        `${where}: health: incoherent rows: rule ${rule} on ${rows.length} of ${listings.length} rows (e.g. ${example}); the whole page is refused`,
      );
}
