import { amountsAgree } from "../../domain/amount.js";
import type { SourceId } from "../../domain/observation.js";
import { cmp } from "../byte-order.js";
import { type Agreement, LONE_OUTLIER_FACTOR, loneOutliers } from "../maker-agreement.js";
import { SCORE_BANDS } from "../reconcile.js";
import type { PricingContext, PricingState, SlotContext, UnlabeledPrice } from "./state.js";

/**
 * Pass 3 (issue 36 §6, T332): each lone outlier ({@link loneOutliers}, judged on every slot's
 * `judged` reconciliation, before the jump guard, so the same statements decide the same whatever
 * was published before) loses. Its slot is reconciled again without its source, and again while the
 * new winner is itself a lone outlier against the same agreement; the sources so set aside leave the
 * slot's verdict (`aside`, `left`) and `keepHeldProvenance` keeps them as dissenting. A source that
 * shows a market move for the slot ({@link moving}) is not judged. When no statement of the slot is
 * left, the agreement is published for the slot ({@link agreementPrice}) and the slot is settled.
 * When only sources set aside state the agreement, nothing is set aside.
 */
export function setAsideOutliers(state: PricingState, ctx: PricingContext): void {
  const outliers = loneOutliers(
    state.contexts.map((c) => c.judged),
    ctx.openWeights,
  );
  for (const [i, agreement] of outliers) {
    const context = state.contexts[i]!;
    const verdict = state.verdicts[i]!;
    const { judged } = context;
    if (moving(context, judged.sources[0]!)) continue;
    const { aside, left } = outliersOf(context, agreement, ctx);
    if (left.length > 0) {
      if (aside.size === 0) continue;
      verdict.aside = aside;
      verdict.left = context.observations.filter((o) => !aside.has(o.source));
      continue;
    }
    const published = agreementPrice(context, agreement, aside, ctx);
    if (published === null) continue;
    verdict.settled = published;
    verdict.price = published;
  }
}

/** The sources T332 sets aside in one slot against `agreement`, and the statements left after them. */
function outliersOf(
  context: SlotContext,
  agreement: Agreement,
  ctx: PricingContext,
): { aside: Set<SourceId>; left: SlotContext["statements"] } {
  const { slot, statements, records, judged } = context;
  const aside = new Set<SourceId>();
  let now = judged;
  let left = statements;
  while (
    now.sources.length === 1 &&
    !amountsAgree(now.amount, agreement.amount) &&
    Math.max(now.amount / agreement.amount, agreement.amount / now.amount) >= LONE_OUTLIER_FACTOR
  ) {
    aside.add(now.sources[0]!);
    left = left.filter((o) => !aside.has(o.source));
    if (left.length === 0) break;
    now = ctx.pricer.price(slot, left, records, null);
    if (now.sources.length === 1 && moving(context, now.sources[0]!)) break;
  }
  return { aside, left };
}

/**
 * The source shows evidence of a market move for this slot (T170): a coherent move, a dated price
 * it states as in effect, or a move it still states (`movedFrom` in the plain reconciliation).
 */
export function moving(context: SlotContext, source: SourceId): boolean {
  const o = context.observations.find((x) => x.source === source);
  const seen = context.plain.observations.find((x) => x.source === source);
  return o?.coherent === true || o?.dated?.kind === "effective" || seen?.movedFrom !== undefined;
}

/**
 * The agreement published for a slot none of whose statements is left (T332): backed by the sources
 * that state it elsewhere (not those set aside), at `low` confidence scored by their corroboration
 * and weight against the dissenters' — the maker's price seen only through other channels. Null
 * when only the sources set aside state it: no evidence is left.
 */
export function agreementPrice(
  context: SlotContext,
  agreement: Agreement,
  aside: ReadonlySet<SourceId>,
  ctx: PricingContext,
): UnlabeledPrice | null {
  const sources = agreement.sources.filter((s) => !aside.has(s));
  if (sources.length === 0) return null;
  const weight = (s: SourceId) => ctx.sources.get(s)?.weight ?? 0;
  const agreeWeight = sources.reduce((n, s) => n + weight(s), 0);
  const dissentWeight = [...aside].reduce((n, s) => n + weight(s), 0);
  const corroboration = 1 - sources.reduce((n, s) => n * (1 - Math.min(weight(s), 0.999)), 1);
  const [min, max] = SCORE_BANDS.low;
  const { plain, prior } = context;
  return {
    ...plain,
    amount: agreement.amount,
    confidence: "low",
    confidenceScore:
      Math.round((min + (max - min) * corroboration * (agreeWeight / (agreeWeight + dissentWeight))) * 1000) / 1000,
    sources: [...sources].sort((a, b) => weight(b) - weight(a) || cmp(a, b)),
    dissenting: [...aside],
    disputed: true,
    fallbackAmount: null,
    effectiveFrom: prior && amountsAgree(prior.amount, agreement.amount) ? prior.effectiveFrom : ctx.runTime,
  };
}
