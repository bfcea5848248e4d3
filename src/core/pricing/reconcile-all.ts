import { priceKey } from "../../domain/dataset.js";
import { dimensionKey } from "../../domain/dimension.js";
import type { SourceId } from "../../domain/observation.js";
import type { BuildInput } from "../build-input.js";
import { behindAliases, type IdentityResult, type ResolvedListing, servedSnapshots } from "../identity/resolve.js";
import type { ScreenResult } from "../screen-listings.js";
import { holdAboveStandard } from "./above-standard.js";
import { collapseRegions } from "./collapse.js";
import { currentStatements } from "./current-statements.js";
import { gatherSlots } from "./gather-slots.js";
import { keepHeldProvenance } from "./held-provenance.js";
import { holdAgain } from "./hold-again.js";
import { guardJumps } from "./jump-guard.js";
import { labelPrices } from "./label-prices.js";
import { holdLoneMoves } from "./lone-move.js";
import { SlotPricer } from "./price-of.js";
import { publishVerdicts } from "./publish-verdicts.js";
import { reconcileSlots } from "./reconcile-slots.js";
import { setAsideOutliers } from "./set-aside.js";
import { newPricingState, type PricingContext, type PricingState } from "./state.js";
import { dropUnstatedWindows } from "./unstated-windows.js";

/**
 * Where prices are decided (D8; issue 45 §1, T385): the screened listings of a run become the
 * published prices through named passes over one {@link PricingState}, in this order. Each reads
 * what the ones before it wrote (`state.ts` says which pass fills which part). Pure.
 */
export const PRICING_PASSES: readonly ((state: PricingState, ctx: PricingContext) => void)[] = [
  gatherSlots, // 1. every statement in its slot, one per source (T75, T292, T325, T335)
  dropUnstatedWindows, // 1b. a time window the maker's own list does not state is not its price (T534)
  reconcileSlots, // 2. each slot reconciled plainly and as judged (T170, T294, T332)
  setAsideOutliers, // 3. lone outliers on the maker's price lose (T332)
  holdAgain, // 4. on last run's evidence, last run's held statements are held again (T375)
  guardJumps, // 5. an unexplained 5× jump does not replace a standing amount (T176)
  holdLoneMoves, // 5b. a direct price one source alone moved against the others waits a run (T496)
  keepHeldProvenance, // 6. the sources set aside or held stay in the provenance, dissenting (T332, T176, T375)
  publishVerdicts, // 7. each slot's price, and the held statements counted per source
  holdAboveStandard, // 8. a discount above its standard price needs two sources (T331)
  collapseRegions, // 9. identical prices repeated per region are one row (T76)
  labelPrices, // 10. labels
];

/** The run's prices, labelled and sorted, and per source the statements held back after reconciliation. */
export interface PricingResult {
  readonly prices: PricingState["prices"];
  /** Held by the jump guard, now (T176) or again (T375): `unexplained_jump`. */
  readonly held: ReadonlyMap<SourceId, number>;
  /** Discounts above their standard price (T331): `above_standard`. */
  readonly aboveStandard: ReadonlyMap<SourceId, number>;
  /** Lone moves of a direct price held for a run (T496): `lone_move`. */
  readonly loneMoves: ReadonlyMap<SourceId, number>;
  /** Time windows on the maker's channel its own list does not state (T534): `window_unstated`. */
  readonly windowsUnstated: ReadonlyMap<SourceId, number>;
}

/** One round of {@link PRICING_PASSES} over `resolved`. */
export function reconcileAll(resolved: readonly ResolvedListing[], ctx: PricingContext): PricingResult {
  const state = newPricingState(resolved);
  for (const pass of PRICING_PASSES) pass(state, ctx);
  const { prices, held, aboveStandard, loneMoves, windowsUnstated } = state;
  return { prices, held, aboveStandard, loneMoves, windowsUnstated };
}

/** What one build's pricing reads besides the listings. */
export interface PricingInput {
  readonly build: BuildInput;
  /** The statements that moved coherently in this run (`priceKey|source`), from the guards (T170). */
  readonly coherent: ReadonlySet<string>;
  /** The models of open-weights families (T332). */
  readonly openWeights: ReadonlySet<string>;
}

/** The context of the passes for one build: the run's fixed inputs and one {@link SlotPricer}. */
export function pricingContext(input: PricingInput): PricingContext {
  const { build } = input;
  return {
    runTime: build.runTime,
    sources: new Map(build.sources.map((s) => [s.source, s])),
    current: currentStatements(build),
    priorPrices: build.prior?.prices,
    published: new Map((build.prior?.published ?? []).map((p) => [priceKey(p, dimensionKey(p)), p])),
    coherent: input.coherent,
    openWeights: input.openWeights,
    pricer: new SlotPricer(build.runTime),
  };
}

/**
 * The prices of a run's screened listings (`reconcileAll`), where an API alias serves a snapshot a
 * source names at the alias's reconciled price, once more with the alias's direct listings also
 * voting on that snapshot (issue 36 §5, T327). Both rounds share one context, so a slot the second
 * round finds as the first left it is not reconciled again (T386).
 */
export function priceListings(identity: IdentityResult, screened: ScreenResult, ctx: PricingContext): PricingResult {
  const first = reconcileAll(screened.kept, ctx);
  if (identity.aliasStatements.size === 0) return first;
  const published = new Map(first.prices.map((p) => [priceKey(p, dimensionKey(p)), p.amount]));
  const behind = behindAliases(screened.kept, servedSnapshots(identity.aliasStatements, first.prices), published);
  return behind.length === 0 ? first : reconcileAll([...screened.kept, ...behind], ctx);
}
