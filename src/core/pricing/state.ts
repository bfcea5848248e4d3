import type { PageEvidence, PublishedPrice } from "../../domain/dataset.js";
import type { StatedValidity } from "../../domain/dated-price.js";
import type { Dimension } from "../../domain/dimension.js";
import type { PendingMove, PriceObservation, SourceId } from "../../domain/observation.js";
import type { SourceInput } from "../build-input.js";
import type { ResolvedListing } from "../identity/resolve.js";
import type { PriorPrice, SourceObservation } from "../reconcile.js";
import type { SlotPricer } from "./price-of.js";

/**
 * The explicit state the passes of pricing share (issue 45 §1, T385), as identity's passes share
 * theirs (T280): each pass reads what the passes before it wrote and adds its own part, in the order
 * of `PRICING_PASSES` (`reconcile-all.ts`). Containers are created once, in {@link newPricingState},
 * and filled in place. Types and the constructor only; pure.
 */

/** A published price before its label is given (the last pass labels them). */
export type UnlabeledPrice = Omit<PublishedPrice, "label">;

/**
 * Where one source's statement of a slot comes from (T385): the source's own spelling of the
 * listing (`PriceEvidence.listing`), the maker's page the amount was read from (T294, null for any
 * other source, or a maker's page not parsed in this run before `reconcileSlots` carries last run's),
 * and the end of the price the source states (T335, null: none stated).
 */
export interface StatementRecord {
  readonly listing: string;
  readonly page: PageEvidence | null;
  readonly validity: StatedValidity | null;
  /** A maker's page's move held until its next fetch (T467); null when none. */
  readonly pending: PendingMove | null;
}

/** One source's statement of a slot, as gathered (`gatherSlots`). */
export interface SlotStatement {
  /** The amount and what reconciliation weighs it by. */
  readonly obs: SourceObservation;
  /** The listing spells the model as its canonical slug: its statement wins within its source. */
  readonly canonical: boolean;
  readonly record: StatementRecord;
}

/** One price slot: a model, channel, seller, dimension and unit, with each source's statement of it. */
export interface Slot {
  /** `priceKey` of the slot (the key of `PricingState.slots` and of `PriorState.prices`). */
  readonly key: string;
  readonly modelId: string;
  readonly channel: PublishedPrice["channel"];
  readonly seller: string;
  readonly dimension: Dimension;
  readonly unit: PriceObservation["unit"];
  readonly bySource: Map<SourceId, SlotStatement>;
}

/** What reconciling one slot reads, and its two reconciliations (`reconcileSlots`). */
export interface SlotContext {
  readonly slot: Slot;
  /** Every statement, marked `coherent` where the guards saw a coherent move (T170). */
  readonly observations: readonly SourceObservation[];
  /** Each source's {@link StatementRecord}, a maker's page carried from last run's provenance (T294). */
  readonly records: ReadonlyMap<SourceId, StatementRecord>;
  /** Last version's price of the slot, as reconciliation reads it. */
  readonly prior: PriorPrice | null;
  /** Last version's published price of the slot, with its provenance. */
  readonly then: PublishedPrice | undefined;
  /** The plain reconciliation: every statement, with the prior, no guard applied. */
  readonly plain: UnlabeledPrice;
  /** The statements of this run alone (no coherent moves), as T332 judges them. */
  readonly statements: readonly SourceObservation[];
  /** The slot reconciled on {@link statements} with no prior, as T332 judges it. */
  readonly judged: UnlabeledPrice;
}

/** What the passes after the plain reconciliation decide for one slot; parallel to `contexts`. */
export interface SlotVerdict {
  /** Set by T332 when no statement of the slot is left: the agreement published in its place. Final. */
  settled: UnlabeledPrice | null;
  /** The sources set aside as lone outliers (T332); empty when none. */
  aside: ReadonlySet<SourceId>;
  /** The sources held back: again on last run's evidence (T375), then by the jump guard (T176), in that order. */
  readonly held: Set<SourceId>;
  /** The sources held back for a run as a lone move of a direct price (`holdLoneMoves`, issue 52 §4, T496). */
  readonly waiting: Set<SourceId>;
  /** The statements still voting after the sources set aside and held are taken out. */
  left: readonly SourceObservation[];
  /** The price the slot publishes so far. */
  price: UnlabeledPrice;
}

/** What every pass may read: the run, fixed before the first pass. */
export interface PricingContext {
  /** D9: the run's time (ISO 8601). */
  readonly runTime: string;
  /** Each configured source's input, by id. */
  readonly sources: ReadonlyMap<SourceId, SourceInput>;
  /** The sources whose statement is current in this run (`currentStatements`, T292). */
  readonly current: ReadonlySet<SourceId>;
  /** Last version's prices as reconciliation reads them, by `priceKey`. */
  readonly priorPrices: ReadonlyMap<string, PriorPrice> | undefined;
  /** Last version's published prices, by `priceKey`. */
  readonly published: ReadonlyMap<string, PublishedPrice>;
  /** The statements that moved coherently in this run (`priceKey|source`), from the guards (T170). */
  readonly coherent: ReadonlySet<string>;
  /** The models of open-weights families: their hosts set their own prices (T332). */
  readonly openWeights: ReadonlySet<string>;
  /** Reconciles a slot's statements once per distinct input, for every pass and both rounds of T327. */
  readonly pricer: SlotPricer;
}

/** What the passes of pricing share; each field names the pass that fills it. */
export interface PricingState {
  /** The screened listings to price (and, in T327's second round, the statements behind aliases). */
  readonly resolved: readonly ResolvedListing[];
  /** `priceKey` → the slot and every source's statement of it (`gatherSlots`). */
  readonly slots: Map<string, Slot>;
  /** Each slot's context and reconciliations, in slot order (`reconcileSlots`). */
  readonly contexts: SlotContext[];
  /** Each slot's verdict, parallel to {@link contexts} (`reconcileSlots`, then every guard). */
  readonly verdicts: SlotVerdict[];
  /** The prices to publish, unlabeled (`publishVerdicts`; filtered by T331, collapsed by T76). */
  reconciled: UnlabeledPrice[];
  /** Per source, its statements held back by T375 and T176 (`publishVerdicts`). */
  readonly held: Map<SourceId, number>;
  /** Per source, its lone moves of a direct price held for a run (`publishVerdicts`, T496). */
  readonly loneMoves: Map<SourceId, number>;
  /** Per source, its statements of a time window the maker's own list does not state (`dropUnstatedWindows`, T534). */
  readonly windowsUnstated: Map<SourceId, number>;
  /** Per source, its discounts held back above their standard price (`holdAboveStandard`, T331). */
  readonly aboveStandard: Map<SourceId, number>;
  /** The labelled prices, sorted (`labelPrices`). */
  prices: PublishedPrice[];
}

/** A fresh state for the listings of one round: every container empty. */
export function newPricingState(resolved: PricingState["resolved"]): PricingState {
  return {
    resolved,
    slots: new Map(),
    contexts: [],
    verdicts: [],
    reconciled: [],
    held: new Map(),
    loneMoves: new Map(),
    windowsUnstated: new Map(),
    aboveStandard: new Map(),
    prices: [],
  };
}
