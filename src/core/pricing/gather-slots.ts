import { roundAmount } from "../../domain/amount.js";
import { priceKey } from "../../domain/dataset.js";
import { type Dimension, dimensionKey } from "../../domain/dimension.js";
import type { PriceObservation } from "../../domain/observation.js";
import { planKind } from "../../domain/sellers.js";
import { NO_CURRENCY } from "../../domain/unit.js";
import type { ResolvedListing } from "../identity/resolve.js";
import type { PricingContext, PricingState, Slot } from "./state.js";

/**
 * Pass 1 (T385): every price of every screened listing lands in its slot (`priceKey`: model,
 * channel, seller, dimension, unit), one statement per source. The seller is the one the price is
 * published under (the maker for its own cloud's listing, T325); the spelling's qualifiers join the
 * dimension (D2); a $0 price of a plan is usage included in the subscription, a credit, never a free
 * money price. Within a source the canonical spelling's statement wins over an alias listing's. A
 * statement is `authoritative` only when it is current (T75, T292) and its source speaks for the
 * seller; the page a maker's statement was read from (T294) and the end of the price the source
 * states (T335) go in its record.
 */
export function gatherSlots(state: PricingState, ctx: PricingContext): void {
  for (const r of state.resolved) {
    const plan = planKind(r.listing.seller);
    for (const p of r.listing.prices) {
      if (!(p.amount >= 0)) continue;
      const dimension: Dimension = { ...p.dimension, qualifiers: { ...p.dimension.qualifiers, ...r.qualifiers } };
      const key = priceKey(
        { modelId: r.modelId, channel: r.channel, seller: r.seller, unit: p.unit, ...dimension },
        dimensionKey(dimension),
      );
      const slot = slotOf(state, key, r, dimension, p.unit);
      const existing = slot.bySource.get(r.source);
      // One vote per source: the canonical spelling's amount wins over an alias listing's.
      if (existing && (existing.canonical || !r.canonicalSpelling)) continue;
      addStatement(slot, r, p, plan !== null && p.amount === 0, ctx);
    }
  }
}

/** The slot of `key`, made (from the first listing that names it) when it is new. */
function slotOf(
  state: PricingState,
  key: string,
  r: ResolvedListing,
  dimension: Dimension,
  unit: PriceObservation["unit"],
): Slot {
  let slot = state.slots.get(key);
  if (!slot) {
    slot = { key, modelId: r.modelId, channel: r.channel, seller: r.seller, dimension, unit, bySource: new Map() };
    state.slots.set(key, slot);
  }
  return slot;
}

/** Sets `r`'s statement of `p` as its source's statement in `slot` (`credit`: a plan's included usage). */
function addStatement(slot: Slot, r: ResolvedListing, p: PriceObservation, credit: boolean, ctx: PricingContext): void {
  const source = ctx.sources.get(r.source)!;
  slot.bySource.set(r.source, {
    canonical: r.canonicalSpelling,
    obs: {
      source: r.source,
      amount: roundAmount(p.amount),
      unit: p.unit,
      denomination: credit ? "credit" : p.denomination,
      currency: credit ? NO_CURRENCY : p.currency,
      weight: source.weight,
      // Only a current statement speaks for the seller (T75, T292): one parsed now, or a maker's
      // page captured within its freshness bound; any other carried list votes like any other.
      authoritative: ctx.current.has(r.source) && source.authoritativeFor.includes(r.listing.seller),
      fresh: source.fresh,
      dated: r.listing.pricesDated ?? null,
    },
    record: {
      listing: r.listing.model,
      page: source.fresh && source.page ? { ...source.page, capturedAt: ctx.runTime } : null,
      validity: p.validity ?? null,
      pending: p.pending ?? null,
    },
  });
}
