import type { PricingState } from "./state.js";

/**
 * Pass 6 (T332, T176, T375): the sources set aside or held back stay in the price's provenance,
 * dissenting, with the evidence age of their statements (the plain reconciliation's observations):
 * the next run reads its prior from these observations, and a statement missing there would be a
 * first sighting then, its move forgotten. A held one says so (`held`): on the same evidence the
 * next run holds it again (`heldAgain`, T375); a lone move held says `loneMove` (T496), held again on
 * the same evidence (`loneMover`, T523). The price is disputed. Settled slots are skipped.
 */
export function keepHeldProvenance(state: PricingState): void {
  state.contexts.forEach((context, i) => {
    const verdict = state.verdicts[i]!;
    if (verdict.settled || (verdict.aside.size === 0 && verdict.held.size === 0 && verdict.waiting.size === 0)) return;
    const { price, aside, held, waiting } = verdict;
    verdict.price = {
      ...price,
      dissenting: [...new Set([...price.dissenting, ...aside, ...held, ...waiting])],
      disputed: true,
      // A lone move held says so (`loneMove`, T496): on the same evidence the next run holds it again (T523).
      observations: context.plain.observations.map((o) =>
        held.has(o.source) ? { ...o, held: true } : waiting.has(o.source) ? { ...o, loneMove: true } : o,
      ),
    };
  });
}
