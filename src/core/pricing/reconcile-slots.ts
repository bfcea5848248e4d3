import type { PageEvidence, PublishedPrice } from "../../domain/dataset.js";
import type { SourceId } from "../../domain/observation.js";
import type { PricingContext, PricingState, Slot, StatementRecord } from "./state.js";

/**
 * Pass 2 (T385): each slot is reconciled twice, in slot order. Plainly: every statement, those the
 * guards saw move coherently marked so (T170), against last version's price. As judged (T332): this
 * run's statements alone — no tie broken by last run's amount, no move seen against it — so the same
 * statements decide the same whatever was published before. A maker's statement carried from an
 * earlier run keeps the page it was read from, found in last version's provenance (T294). Each slot
 * starts with the plain price as its verdict, every statement voting.
 */
export function reconcileSlots(state: PricingState, ctx: PricingContext): void {
  for (const [key, slot] of state.slots) {
    const prior = ctx.priorPrices?.get(key) ?? null;
    const then = ctx.published.get(key);
    const records = recordsOf(slot, then);
    const observations = [...slot.bySource.values()].map((v) =>
      ctx.coherent.has(`${key}|${v.obs.source}`) ? { ...v.obs, coherent: true } : v.obs,
    );
    const plain = ctx.pricer.price(slot, observations, records, prior);
    const statements = observations.map((o) => ({ ...o, coherent: false }));
    const judged = ctx.pricer.price(slot, statements, records, null);
    state.contexts.push({ slot, observations, records, prior, then, plain, statements, judged });
    state.verdicts.push({
      settled: null,
      aside: new Set(),
      held: new Set(),
      waiting: new Set(),
      left: observations,
      price: plain,
    });
  }
}

/** Each source's record of the slot, a maker's page this run did not parse taken from `then`'s provenance (T294). */
function recordsOf(slot: Slot, then: PublishedPrice | undefined): Map<SourceId, StatementRecord> {
  const page = (source: SourceId, fresh: PageEvidence | null) =>
    fresh ?? then?.observations.find((o) => o.source === source)?.page ?? null;
  return new Map(
    [...slot.bySource].map(([source, v]) => [
      source,
      {
        listing: v.record.listing,
        page: page(source, v.record.page),
        validity: v.record.validity,
        pending: v.record.pending,
      },
    ]),
  );
}
