import { amountsAgree } from "../domain/amount.js";
import { dimensionKey } from "../domain/dimension.js";
import { lookupTable } from "../domain/lookup-table.js";
import type { PriceObservation, SourceId } from "../domain/observation.js";
import type { ResolvedListing } from "./identity/resolve.js";
import { parseSpelling } from "./identity/spelling.js";

/**
 * Prices a source copied from another model (issue 36, T365): reviewed lines, one reason each.
 * source → the spelling key of the listing whose prices are copied → [the spelling keys of the
 * siblings they were copied from, reason]. A price of such a listing that equals the same source's
 * price of a sibling (same seller, dimension and unit) is no evidence for the model: it is dropped
 * before reconciliation and counted `copied_price` in `/sources`. A price that differs from every
 * sibling's (the source corrected it, or stated the model's own before) stays evidence.
 *
 * A general rule (any lone source whose amounts for a model equal its amounts for a sibling of
 * another generation) was not taken: makers do price siblings alike (Moonshot's Kimi K2 0711, 0905
 * and K2 Thinking all at 0.6 / 2.5), so the copy is told from the price only by a review.
 */
export const COPIED_PRICES: Readonly<
  Record<string, Readonly<Record<string, readonly [siblings: readonly string[], reason: string]>>>
> = lookupTable({
  litellm: lookupTable({
    "kimi-thinking-preview": [
      ["kimi-k2-0711-preview", "kimi-k2-thinking"],
      "LiteLLM listed Moonshot's Kimi Thinking Preview at 30 / 30 until 2025-12, then from 2026-01 at Kimi K2's 0.6 / 2.5 / cache read 0.15, the amounts of its kimi-k2-0711-preview and kimi-k2-thinking entries; no other source states Moonshot's price for it (nano-gpt's 31.46 is a reseller's)",
    ] as const,
  }),
});

/** A price's slot within its listing: dimension, unit and money. */
function slotOf(p: PriceObservation): string {
  return `${dimensionKey(p.dimension)}|${p.unit}|${p.denomination}|${p.currency}`;
}

/**
 * The copied prices of a run (T365): `listing#price` indexes into `resolved` of every price that a
 * {@link COPIED_PRICES} line names and that equals the same source's price of a sibling listing of
 * the same seller. Pure.
 */
export function copiedPrices(resolved: readonly ResolvedListing[]): Set<string> {
  const out = new Set<string>();
  const bySource = new Map<SourceId, number[]>();
  resolved.forEach((r, li) => {
    if (COPIED_PRICES[r.source]) bySource.set(r.source, [...(bySource.get(r.source) ?? []), li]);
  });
  for (const [source, indexes] of bySource) {
    const lines = COPIED_PRICES[source]!;
    for (const li of indexes) {
      const r = resolved[li]!;
      const line = lines[parseSpelling(r.listing.model).key];
      if (!line) continue;
      const siblings = new Set(line[0]);
      const theirs = new Map<string, number[]>();
      for (const j of indexes) {
        const s = resolved[j]!;
        if (s.listing.seller !== r.listing.seller || !siblings.has(parseSpelling(s.listing.model).key)) continue;
        for (const p of s.listing.prices) theirs.set(slotOf(p), [...(theirs.get(slotOf(p)) ?? []), p.amount]);
      }
      r.listing.prices.forEach((p, pi) => {
        if ((theirs.get(slotOf(p)) ?? []).some((a) => amountsAgree(a, p.amount))) out.add(`${li}#${pi}`);
      });
    }
  }
  return out;
}
