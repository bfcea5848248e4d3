import { amountsAgree } from "../../domain/amount.js";
import type { PublishedPrice } from "../../domain/dataset.js";
import type { SourceId } from "../../domain/observation.js";
import type { SourceObservation } from "../reconcile.js";
import type { PricingContext, PricingState } from "./state.js";

/**
 * Pass 5b (issue 52 §4, T496): a direct price that one source alone moved in this run, while
 * another source still states last run's amount, waits a run. The mover is held back
 * (`verdict.waiting`) and the slot is priced again without it, so the version publishes last run's
 * amount; the mover stays in the provenance (`loneMove`, `keepHeldProvenance`). On the same
 * evidence it is held again (T375: the same run twice records nothing): it waits while a source
 * still states the old amount, and publishes once a second source moves with it (a market move) or
 * the dissent goes. LiteLLM alone repointing `xai/grok-code-fast-1` to another model's prices
 * (cache read 0.02 → 0.2) was published at `medium` over three dissenting sources. Not held: the
 * seller's own list (an authoritative statement), a `verified` price, a move two sources make, a
 * coherent move (T170: the source moved the maker's prices together, or another source corroborates).
 * Settled slots are skipped.
 */
export function holdLoneMoves(state: PricingState, ctx: PricingContext): void {
  state.contexts.forEach((context, i) => {
    const verdict = state.verdicts[i]!;
    const { slot, then, records, prior } = context;
    if (verdict.settled || !then || slot.channel !== "direct") return;
    const mover = loneMover(then, verdict.price, verdict.left);
    if (mover === null) return;
    verdict.waiting.add(mover);
    verdict.left = verdict.left.filter((o) => o.source !== mover);
    verdict.price = ctx.pricer.price(slot, verdict.left, records, prior);
  });
}

/**
 * The source that alone moved `then`'s amount to `now`'s in this run against a source still stating
 * `then`'s, or null (see {@link holdLoneMoves}). `left` are the statements still voting. When the vote
 * kept `then`'s amount, the source held last run (`loneMove`) that still states the amount it waited
 * on is the one (T523): held again, not merely outvoted.
 */
export function loneMover(
  then: PublishedPrice,
  now: Pick<PublishedPrice, "amount" | "confidence">,
  left: readonly SourceObservation[],
): SourceId | null {
  if (now.confidence === "verified") return null;
  const mover = amountsAgree(then.amount, now.amount) ? waitingAgain(then, left) : onlyBacker(left, now.amount);
  if (!mover) return null;
  // A coherent move (maker-wide or corroborated, T170) is the market: DeepSeek's cache-read cut
  // that Portkey showed first, models.dev's Grok 4.20 cut of 2026-06-01 (issue 24's Must show).
  if (!mover.fresh || mover.authoritative || mover.coherent) return null;
  const before = then.observations.find((o) => o.source === mover.source);
  // It moved now: last run it stated the published amount (a first sighting is no move); or it
  // waited last run on this amount and still does (the same evidence holds it again, as T375).
  const movedNow = before !== undefined && amountsAgree(before.amount, then.amount);
  const waited = before?.loneMove === true && amountsAgree(before.amount, mover.amount);
  if (!movedNow && !waited) return null;
  const dissent = left.some((o) => o.source !== mover.source && o.fresh && amountsAgree(o.amount, then.amount));
  return dissent ? mover.source : null;
}

/** The one statement of `amount` among `left`, or null when none or several state it. */
function onlyBacker(left: readonly SourceObservation[], amount: number): SourceObservation | null {
  const backing = left.filter((o) => amountsAgree(o.amount, amount));
  return backing.length === 1 ? backing[0]! : null;
}

/**
 * T523: the statement held last run as a lone move (`loneMove`) that states the same amount now, off
 * `then`'s, and is still the only one stating it; null when there is none. The vote keeps `then`'s
 * amount on this evidence by itself (T80: the mover no longer left the published amount, so last
 * run's amount wins the tie), so without this the second run on the same evidence published the same
 * amount with the mover as a plain dissent: no `lone_move` in `/sources`, no `loneMove` in the
 * provenance, though T496 holds it again.
 */
function waitingAgain(then: PublishedPrice, left: readonly SourceObservation[]): SourceObservation | null {
  const waited = left.filter((o) =>
    then.observations.some(
      (b) =>
        b.source === o.source &&
        b.loneMove === true &&
        amountsAgree(b.amount, o.amount) &&
        !amountsAgree(o.amount, then.amount),
    ),
  );
  if (waited.length !== 1) return null;
  return onlyBacker(left, waited[0]!.amount);
}
