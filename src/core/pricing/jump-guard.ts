import { amountsAgree } from "../../domain/amount.js";
import { corrects, isMarketMove, jumps } from "../detect-changes.js";
import type { PricingContext, PricingState } from "./state.js";

/**
 * Pass 5 (T176): the slot is priced on the statements left after T332 and T375 (its plain price when
 * none was taken out); then an amount that jumps 5× or more from last run's without the evidence of
 * a market move, and corrects no earlier error, does not replace an amount a source still states:
 * the sources stating the jumping amount are held, and the slot is priced again without them, until
 * the price no longer jumps or no source left states last run's amount. Settled slots are skipped.
 */
export function guardJumps(state: PricingState, ctx: PricingContext): void {
  state.contexts.forEach((context, i) => {
    const verdict = state.verdicts[i]!;
    if (verdict.settled) return;
    const { slot, records, prior, then } = context;
    let left = verdict.left;
    let price =
      verdict.aside.size > 0 || verdict.held.size > 0 ? ctx.pricer.price(slot, left, records, prior) : verdict.price;
    while (
      then &&
      jumps(then, price) &&
      !isMarketMove(then, { ...price, label: then.label }) &&
      !corrects(then, price)
    ) {
      const jumping = price.amount;
      const rest = left.filter((o) => !amountsAgree(o.amount, jumping));
      if (!rest.some((o) => amountsAgree(o.amount, then.amount))) break;
      for (const o of left) if (amountsAgree(o.amount, jumping)) verdict.held.add(o.source);
      left = rest;
      price = ctx.pricer.price(slot, left, records, prior);
    }
    verdict.left = left;
    verdict.price = price;
  });
}
