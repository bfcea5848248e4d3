import type { SourceId } from "../../domain/observation.js";
import { displayUnit } from "../../domain/unit.js";
import { capForFreshness } from "../freshness.js";
import { overruledEnds, validityOf } from "../price-validity.js";
import { type PriorPrice, reconcile, type SourceObservation } from "../reconcile.js";
import type { Slot, StatementRecord, UnlabeledPrice } from "./state.js";

/**
 * One slot's price from a set of its statements: reconciliation (D8), the freshness cap (T75), the
 * announced end (T335) and the provenance (`observations`, T81, T170, T294). Pure.
 */
export function priceOf(
  slot: Slot,
  observations: readonly SourceObservation[],
  records: ReadonlyMap<SourceId, StatementRecord>,
  runTime: string,
  prior: PriorPrice | null,
): UnlabeledPrice {
  const r = capForFreshness(reconcile(observations, { runTime, prior }));
  const stated = (s: SourceId) => records.get(s)?.validity;
  const voice = (s: SourceId) => observations.find((o) => o.source === s); // T423: an announcement's confidence follows its sources
  const validity = validityOf(r.sources, stated, runTime, voice);
  // T466: an aggregator still dating a price the seller's page states no end of dissents.
  const overruled = overruledEnds(r.sources, stated, runTime, voice);
  return {
    modelId: slot.modelId,
    channel: slot.channel,
    seller: slot.seller,
    ...slot.dimension,
    amount: r.amount,
    unit: r.unit,
    displayUnit: displayUnit(r.unit, r.denomination, r.currency),
    denomination: r.denomination,
    currency: r.currency,
    confidence: r.confidence,
    confidenceScore: r.confidenceScore,
    sources: overruled.length === 0 ? r.sources : r.sources.filter((s) => !overruled.includes(s)),
    dissenting: overruled.length === 0 ? r.dissenting : [...r.dissenting, ...overruled],
    disputed: r.disputed,
    fallbackAmount: r.fallbackAmount,
    effectiveFrom: r.effectiveFrom,
    staleSince: r.staleSince,
    ...(validity.effectiveUntil !== null ? validity : {}),
    observations: observations
      .map((o) => {
        const age = r.evidence.get(o.source);
        const record = records.get(o.source)!;
        return {
          source: o.source,
          amount: o.amount,
          fresh: o.fresh,
          ...(age?.since ? { since: age.since } : {}),
          ...(age?.lagging ? { lagging: true } : {}),
          listing: record.listing,
          ...(o.authoritative ? { authoritative: true } : {}),
          ...(record.page ? { page: record.page } : {}),
          ...(record.pending ? { pending: record.pending } : {}),
          ...(age?.movedFrom !== undefined ? { movedFrom: age.movedFrom } : {}),
        };
      })
      .sort((a, b) => (a.source < b.source ? -1 : 1)),
  };
}

/**
 * {@link priceOf} for one build, each distinct input reconciled once (issue 45 §1, T386): the plain
 * and judged reconciliations, T332's and the jump guard's narrowed sets, and T327's second round
 * (where every slot an alias statement does not touch is the first round's again) ask for the same
 * statements of a slot more than once. The key is the slot (its `priceKey` and dimension), whether a
 * prior is read (a slot's prior is fixed for the build), and each statement with its record, read
 * field by field ({@link statementKey}): equal keys are equal inputs, so the answer is the same
 * object `priceOf` would build again. The prices are never mutated by the passes that share them.
 */
export class SlotPricer {
  readonly #runTime: string;
  readonly #cache = new Map<string, UnlabeledPrice>();
  /** Prices asked for, and reconciliations run (the rest answered from the cache). */
  readonly counts = { asked: 0, reconciled: 0 };

  constructor(runTime: string) {
    this.#runTime = runTime;
  }

  /** The slot's price from these statements; see {@link priceOf}. */
  price(
    slot: Slot,
    observations: readonly SourceObservation[],
    records: ReadonlyMap<SourceId, StatementRecord>,
    prior: PriorPrice | null,
  ): UnlabeledPrice {
    this.counts.asked++;
    const key = `${slot.key}\u0000${JSON.stringify(slot.dimension)}\u0000${prior === null ? 0 : 1}\u0000${observations
      .map((o) => statementKey(o, records.get(o.source)))
      .join("\u0000")}`;
    const known = this.#cache.get(key);
    if (known) return known;
    this.counts.reconciled++;
    const price = priceOf(slot, observations, records, this.#runTime, prior);
    this.#cache.set(key, price);
    return price;
  }
}

/**
 * Every field of a statement that {@link priceOf} reads, in a fixed order. The mapped type makes a
 * field added to `SourceObservation` a compile error here until the key reads it. `coherent` is
 * read as reconciliation reads it (set or not), `dated` absent as null.
 */
export function statementKey(o: SourceObservation, record: StatementRecord | undefined): string {
  const fields: { readonly [K in keyof Required<SourceObservation>]: unknown } = {
    source: o.source,
    amount: o.amount,
    unit: o.unit,
    denomination: o.denomination,
    currency: o.currency,
    weight: o.weight,
    authoritative: o.authoritative,
    fresh: o.fresh,
    dated: o.dated ?? null,
    coherent: o.coherent === true,
  };
  return JSON.stringify([fields, record ?? null]);
}
