import { amountsAgree } from "../../domain/amount.js";
import type { PublishedPrice } from "../../domain/dataset.js";
import type { SourceId } from "../../domain/observation.js";
import type { SourceObservation } from "../reconcile.js";
import type { PricingState } from "./state.js";

/**
 * Pass 4 (T375): on last run's evidence, what the jump guard held back then is held again first
 * ({@link heldAgain}), before the jump guard judges the slot; a source T332 set aside stays set
 * aside, not held. Settled slots are skipped.
 */
export function holdAgain(state: PricingState): void {
  state.contexts.forEach((context, i) => {
    const verdict = state.verdicts[i]!;
    if (verdict.settled || !context.then) return;
    for (const source of heldAgain(context.then, context.observations))
      if (!verdict.aside.has(source)) verdict.held.add(source);
    if (verdict.held.size > 0) verdict.left = verdict.left.filter((o) => !verdict.held.has(o.source));
  });
}

/**
 * T375: the statements the jump guard held back last run (`held` in last run's provenance) are held
 * again, before anything is reconciled, when the slot's evidence is last run's: the same sources
 * state the same amounts. The run that held them judged this evidence and reconciled the slot without
 * them; doing the same publishes the same amount. Judged again instead, against the amount published
 * since, their kept evidence age reads as a move the published amount never followed (T170): their
 * move makes the other statements lag, or passes for a market move one run late. Once any statement
 * of the slot changes, the slot is judged afresh (T176).
 */
export function heldAgain(then: PublishedPrice, observations: readonly SourceObservation[]): Set<SourceId> {
  const before = new Map(then.observations.map((o) => [o.source, o]));
  const same =
    observations.length === before.size &&
    observations.every((o) => {
      const b = before.get(o.source);
      return b !== undefined && amountsAgree(b.amount, o.amount);
    });
  return new Set(same ? observations.filter((o) => before.get(o.source)!.held === true).map((o) => o.source) : []);
}
