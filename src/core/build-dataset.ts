import { amountsAgree, roundAmount } from "../domain/amount.js";
import type {
  Dataset,
  LifecycleState,
  PublishedModel,
  PublishedPrice,
  PublishedProvider,
  RunRecord,
  SourceHealth,
} from "../domain/dataset.js";
import { type PageEvidence, priceKey } from "../domain/dataset.js";
import type { StatedValidity } from "../domain/dated-price.js";
import { type Dimension, dimensionKey } from "../domain/dimension.js";
import { DAY_MS, VERIFIED_PAGE_MAX_AGE_DAYS } from "../domain/freshness.js";
import type { Listing, PriceObservation, SourceId } from "../domain/observation.js";
import { comparePrices } from "../domain/price-order.js";
import { MAKERS, planKind } from "../domain/sellers.js";
import { displayUnit, NO_CURRENCY } from "../domain/unit.js";
import { collapseRepeatedRegions } from "./collapse-regions.js";
import { corrects, isMarketMove, jumps } from "./detect-changes.js";
import { boundEvidenceAge, capForFreshness, evidenceTimes } from "./freshness.js";
import { knownSpellingsOf } from "./identity/canonical-id.js";
import { PUBLISHER_NAMES } from "./identity/maker-rules.js";
import {
  behindAliases,
  type IdentityResult,
  movingAliasesOf,
  type ResolvedListing,
  resolveIdentities,
  servedSnapshots,
} from "./identity/resolve.js";
import { keyOf } from "./identity/spelling.js";
import { labelDimensions } from "./labels.js";
import { ListedIndex } from "./listed-index.js";
import type { BoundaryReason } from "./listing-boundary.js";
import { LONE_OUTLIER_FACTOR, loneOutliers, windowsAboveStandard } from "./maker-agreement.js";
import { disambiguateNames, modelName } from "./model-names.js";
import { indexListings, type ListingIndex, movedTo } from "./moved-listings.js";
import { hasOpenWeights } from "./open-weights.js";
import type { RejectReason } from "./plausibility.js";
import { validityOf } from "./price-validity.js";
import { type PriorPrice, reconcile, SCORE_BANDS, type SourceObservation } from "./reconcile.js";
import { type ScreenResult, type SourceRejections, screenListings } from "./screen-listings.js";

/**
 * Builds one dataset version from the sources' listings of a run: identity → reconciliation →
 * labels → models and providers (D1–D9, D27–D29). Pure: all inputs are values, time included.
 */

/** One configured source's input to a run. */
export interface SourceInput {
  readonly source: SourceId;
  readonly weight: number;
  /** The source spells models as their makers' API ids and carries their names and limits (T160). */
  readonly makerSpellings?: boolean;
  readonly authoritativeFor: readonly string[];
  /** The listings to use: this run's, or the last good run's when `fresh` is false. */
  readonly listings: readonly Listing[];
  /** True when the source ran and parsed in this run. */
  readonly fresh: boolean;
  /**
   * The source is a maker's own price page (issue 35, T292): its statement stays current for
   * {@link VERIFIED_PAGE_MAX_AGE_DAYS} days after its capture, also when a later run did not
   * bring a new copy (the page failed, or no copy was recorded that month).
   */
  readonly firstPartyPage?: boolean;
  /**
   * The page this run parsed, for a maker's page that parsed now (T294): its public address and the
   * SHA-256 of its text. Carried pages keep the evidence of the run that captured them.
   */
  readonly page?: { readonly url: string; readonly contentHash: string };
  /** Why the source did not contribute fresh data (failed), or null (succeeded or did not run). */
  readonly error: { readonly message: string; readonly httpStatus: number | null } | null;
  /** False when the source had no payload for this run at all (a snapshot date it is missing from). */
  readonly ran: boolean;
  /**
   * Price fields of this run's payload the field map does not know, per field (T70); absent when
   * the source was not parsed in this run (its last counts are kept).
   */
  readonly unmapped?: Readonly<Record<string, number>>;
  /** Prices of this run's payload the adapter boundary dropped, per reason (`listing-boundary.ts`, T252). */
  readonly boundaryRejected?: Readonly<Partial<Record<BoundaryReason, number>>>;
}

/** What the previous dataset version contributes: prices for effectiveFrom/staleSince, models for firstSeenAt and D3. */
export interface PriorState {
  readonly prices: ReadonlyMap<string, PriorPrice>;
  readonly models: ReadonlyMap<string, { readonly firstSeenAt: string; readonly state: LifecycleState }>;
  readonly sources: ReadonlyMap<SourceId, SourceHealth>;
  /** The previous version's models (listed and tombstones), for permanent ids (issue 12 §8, T66). */
  readonly catalogue?: readonly PublishedModel[];
  /** The previous version's prices, for the removal grace (issue 14 T85). */
  readonly published?: readonly PublishedPrice[];
}

export interface BuildInput {
  readonly runId: string;
  /** D9: run start time; also the dataset version. */
  readonly runTime: string;
  readonly finishedAt: string;
  readonly sources: readonly SourceInput[];
  readonly prior: PriorState | null;
}

const STATE_ORDER: readonly LifecycleState[] = ["preview", "active", "deprecated", "retired"];

/** Builds the dataset. Never throws on data: odd listings are skipped and counted. */
export function buildDataset(input: BuildInput): Dataset {
  return buildDatasetWithIdentity(input).dataset;
}

/** Where each source spelling landed: `source|seller|model` → model id and channel. */
export type SpellingIndex = ReadonlyMap<
  string,
  { readonly modelId: string; readonly channel: PublishedPrice["channel"] }
>;

/** {@link buildDataset}, also returning where every source spelling resolved (for dated upstream history). */
export function buildDatasetWithIdentity(input: BuildInput): {
  dataset: Dataset;
  spellings: SpellingIndex;
  /** Ids of the previous version that now answer as another model (old → new), T66. */
  renames: ReadonlyMap<string, string>;
  /** Which source listings and prices this run's payloads still hold, placed or not (T175). */
  listed: ListedIndex;
} {
  const identity = resolveIdentities(
    input.sources.map((s) => ({ source: s.source, listings: s.listings, makerSpellings: s.makerSpellings ?? false })),
    {
      movingAliases: movingAliasesOf(input.prior?.catalogue ?? []),
      // A lookalike of last run's ids is refused too, listed this run or not (T316).
      knownSpellings: knownSpellingsOf(input.prior?.catalogue ?? []),
    },
  );
  const spellings = new Map<string, { modelId: string; channel: PublishedPrice["channel"] }>();
  for (const r of identity.resolved)
    spellings.set(`${r.source}|${r.listing.seller}|${r.listing.model}`, { modelId: r.modelId, channel: r.channel });
  const bySource = new Map(input.sources.map((s) => [s.source, s]));

  // Plausibility guards (T73/T74, T171–T173): quarantined rows never reach reconciliation.
  const screened = screenListings(
    identity.resolved,
    new Set(input.sources.filter((s) => s.fresh).map((s) => s.source)),
    input.prior?.prices,
  );
  const listed = new ListedIndex(identity.resolved, identity.unmatched);
  const current = buildModels(identity.resolved, identity.aliases, input);
  const openWeights = new Set(current.filter((m) => m.openWeights).map((m) => m.id));
  const {
    prices: reconciled,
    held,
    aboveStandard,
  } = reconciledWithSnapshots(identity, screened, bySource, input, openWeights);
  const listings = indexListings(reconciled);
  const carried = carryPriorIds(current, identity, input, listings);
  const models = disambiguateNames(carried.models);
  const evidenceAt = evidenceTimes(input.runTime, input.sources, input.prior?.sources); // T224
  const prices = boundEvidenceAge(
    withRemovalGrace(reconciled, models, input, listings, listed),
    evidenceAt,
    input.runTime,
  );
  const renames = carried.renames;
  const providers = buildProviders(models, prices, identity.publisherNames);
  const rejected = withBoundary(
    withHeld(withHeld(screened.rejected, held, "unexplained_jump"), aboveStandard, "above_standard"),
    input.sources,
  );
  const sources = buildHealth(input, rejected, identity.unresolved);
  const failed: Record<string, string> = {};
  for (const s of input.sources) if (s.error) failed[s.source] = s.error.message;
  const observations: Record<string, number> = {};
  for (const s of input.sources)
    if (s.fresh) observations[s.source] = s.listings.reduce((n, l) => n + l.prices.length, 0);
  const run: RunRecord = {
    id: input.runId,
    datasetVersion: input.runTime,
    status: input.sources.some((s) => s.error) ? "partial" : "succeeded",
    startedAt: input.runTime,
    finishedAt: input.finishedAt,
    summary: {
      observations,
      rejected: Object.fromEntries(
        input.sources.filter((s) => s.fresh).map((s) => [s.source, rejected.get(s.source)?.total ?? 0]),
      ),
      unresolved: Object.fromEntries(identity.unresolved),
      unmatched: identity.unmatched,
      failed,
      models: models.filter((m) => m.listed).length,
      prices: prices.length,
      disputed: prices.filter((p) => p.disputed).length,
    },
  };
  return { dataset: { run, providers, models, prices, sources }, spellings, renames, listed };
}

/** Adds the prices the adapter boundary dropped (T252) to the guards' rejections, per fresh source. */
function withBoundary(
  rejected: ReadonlyMap<SourceId, SourceRejections>,
  sources: readonly SourceInput[],
): Map<SourceId, SourceRejections> {
  const out = new Map(rejected);
  for (const s of sources) {
    if (!s.fresh || !s.boundaryRejected) continue;
    for (const [reason, n] of Object.entries(s.boundaryRejected) as [BoundaryReason, number][]) {
      const r = out.get(s.source);
      out.set(s.source, {
        total: (r?.total ?? 0) + n,
        byReason: { ...(r?.byReason ?? {}), [reason]: (r?.byReason[reason] ?? 0) + n },
      });
    }
  }
  return out;
}

/**
 * Adds the rows held back after reconciliation — by the jump guard (T176, `unexplained_jump`) or as a
 * discount above its standard price (T331, `above_standard`) — to the guards' rejections, per source.
 */
function withHeld(
  rejected: ReadonlyMap<SourceId, SourceRejections>,
  held: ReadonlyMap<SourceId, number>,
  reason: RejectReason,
): Map<SourceId, SourceRejections> {
  const out = new Map(rejected);
  for (const [source, n] of held) {
    const r = out.get(source);
    out.set(source, {
      total: (r?.total ?? 0) + n,
      byReason: { ...(r?.byReason ?? {}), [reason]: (r?.byReason[reason] ?? 0) + n },
    });
  }
  return out;
}

interface Slot {
  readonly modelId: string;
  readonly channel: PublishedPrice["channel"];
  readonly seller: string;
  readonly dimension: Dimension;
  readonly unit: PriceObservation["unit"];
  readonly bySource: Map<
    SourceId,
    {
      obs: SourceObservation;
      canonical: boolean;
      listing: string;
      page: PageEvidence | null;
      /** The source's stated end of this price (T335). */
      validity?: StatedValidity;
    }
  >;
}

/**
 * The sources whose statement is current in this run (T292): those that parsed now, and the makers'
 * own pages whose last good copy was captured at most {@link VERIFIED_PAGE_MAX_AGE_DAYS} days
 * before the run.
 */
function currentStatements(input: BuildInput): ReadonlySet<SourceId> {
  const evidenceAt = evidenceTimes(input.runTime, input.sources, input.prior?.sources);
  const oldest = Date.parse(input.runTime) - VERIFIED_PAGE_MAX_AGE_DAYS * DAY_MS;
  return new Set(
    input.sources
      .filter((s) => {
        if (s.fresh) return true;
        const at = evidenceAt.get(s.source);
        return s.firstPartyPage === true && typeof at === "string" && Date.parse(at) >= oldest;
      })
      .map((s) => s.source),
  );
}

/**
 * Reconciliation of the screened listings (`reconcileAll`), where an API alias serves a snapshot a
 * source names at the alias's reconciled price, once more with the alias's direct listings also
 * voting on that snapshot (issue 36 §5, T327).
 */
function reconciledWithSnapshots(
  identity: IdentityResult,
  screened: ScreenResult,
  bySource: ReadonlyMap<SourceId, SourceInput>,
  input: BuildInput,
  /** The models of open-weights families (T332). */
  openWeights: ReadonlySet<string>,
): ReturnType<typeof reconcileAll> {
  const first = reconcileAll(screened.kept, bySource, input, screened.coherent, openWeights);
  if (identity.aliasStatements.size === 0) return first;
  const published = new Map(first.prices.map((p) => [priceKey(p, dimensionKey(p)), p.amount]));
  const behind = behindAliases(screened.kept, servedSnapshots(identity.aliasStatements, first.prices), published);
  return behind.length === 0
    ? first
    : reconcileAll([...screened.kept, ...behind], bySource, input, screened.coherent, openWeights);
}

function reconcileAll(
  resolved: readonly ResolvedListing[],
  bySource: ReadonlyMap<SourceId, SourceInput>,
  input: BuildInput,
  /** The statements that moved coherently in this run (`priceKey|source`), from the guards (T170). */
  coherent: ReadonlySet<string>,
  /** The models of open-weights families (their hosts set their own prices, T332). */
  openWeights: ReadonlySet<string>,
): { prices: PublishedPrice[]; held: Map<SourceId, number>; aboveStandard: Map<SourceId, number> } {
  const slots = new Map<string, Slot>();
  const current = currentStatements(input);
  for (const r of resolved) {
    const source = bySource.get(r.source)!;
    const plan = planKind(r.listing.seller);
    for (const p of r.listing.prices) {
      if (!(p.amount >= 0)) continue;
      const dimension: Dimension = { ...p.dimension, qualifiers: { ...p.dimension.qualifiers, ...r.qualifiers } };
      // A $0 listing of a plan is usage included in the subscription, never a free money price.
      const credit = plan !== null && p.amount === 0;
      const denomination = credit ? "credit" : p.denomination;
      const currency = credit ? NO_CURRENCY : p.currency;
      const key = priceKey(
        // (the seller the price is published under: the maker for its own cloud's listing, T325)
        { modelId: r.modelId, channel: r.channel, seller: r.seller, unit: p.unit, ...dimension },
        dimensionKey(dimension),
      );
      let slot = slots.get(key);
      if (!slot) {
        slot = {
          modelId: r.modelId,
          channel: r.channel,
          seller: r.seller,
          dimension,
          unit: p.unit,
          bySource: new Map(),
        };
        slots.set(key, slot);
      }
      const existing = slot.bySource.get(r.source);
      // One vote per source: the canonical spelling's amount wins over an alias listing's.
      if (existing && (existing.canonical || !r.canonicalSpelling)) continue;
      slot.bySource.set(r.source, {
        canonical: r.canonicalSpelling,
        listing: r.listing.model,
        obs: {
          source: r.source,
          amount: roundAmount(p.amount),
          unit: p.unit,
          denomination,
          currency,
          weight: source.weight,
          // Only a current statement speaks for the seller (T75, T292): one parsed now, or a maker's
          // page captured within its freshness bound; any other carried list votes like any other.
          authoritative: current.has(r.source) && source.authoritativeFor.includes(r.listing.seller),
          fresh: source.fresh,
          dated: r.listing.pricesDated ?? null,
        },
        page: source.fresh && source.page ? { ...source.page, capturedAt: input.runTime } : null,
        ...(p.validity ? { validity: p.validity } : {}),
      });
    }
  }

  let reconciled: Omit<PublishedPrice, "label">[] = [];
  const held = new Map<SourceId, number>();
  const published = new Map((input.prior?.published ?? []).map((p) => [priceKey(p, dimensionKey(p)), p]));
  const contexts: SlotContext[] = [];
  for (const [key, slot] of slots) {
    const prior = input.prior?.prices.get(key) ?? null;
    const then = published.get(key);
    // The page behind a maker's statement (T294): this run's, else the one the carried statement came from.
    const page = (source: SourceId, fresh: PageEvidence | null) =>
      fresh ?? then?.observations.find((o) => o.source === source)?.page ?? null;
    const listings = new Map(
      [...slot.bySource].map(([source, v]) => [
        source,
        { listing: v.listing, page: page(source, v.page), validity: v.validity ?? null },
      ]),
    );
    const observations = [...slot.bySource.values()].map((v) =>
      coherent.has(`${key}|${v.obs.source}`) ? { ...v.obs, coherent: true } : v.obs,
    );
    const context = { slot, observations, listings, prior, then };
    const plain = priceOf(slot, observations, listings, input.runTime, prior);
    // T332 judges this run's statements alone: no tie broken by last run's amount, no move seen
    // against it (a source showing evidence of a move is not judged at all, T170).
    const statements = observations.map((o) => ({ ...o, coherent: false }));
    const judged = priceOf(slot, statements, listings, input.runTime, null);
    contexts.push({ ...context, plain, judged, statements });
  }
  // Issue 36 §6 (T332): a lone outlier on the maker's price does not win. Judged on this run's evidence
  // alone (the plain reconciliation of every slot), before the jump guard, so the same evidence decides
  // the same whatever was published before.
  const outliers = setAside(contexts, openWeights, bySource, input.runTime);
  contexts.forEach((context, i) => {
    const { slot, observations, listings, prior, then, plain } = context;
    const aside = outliers.get(i);
    if (aside && "published" in aside) {
      reconciled.push(aside.published);
      return;
    }
    let left = aside ? observations.filter((o) => !aside.sources.has(o.source)) : observations;
    // T375: on last run's evidence, what the jump guard held back then is held again first.
    const heldHere = then ? heldAgain(then, observations) : new Set<SourceId>();
    for (const source of heldHere) if (aside?.sources.has(source)) heldHere.delete(source);
    if (heldHere.size > 0) {
      left = left.filter((o) => !heldHere.has(o.source));
      for (const source of heldHere) held.set(source, (held.get(source) ?? 0) + 1);
    }
    let price = aside || heldHere.size > 0 ? priceOf(slot, left, listings, input.runTime, prior) : plain;
    // T176: an amount that jumps 5× or more from last run's without the evidence of a market move, and
    // corrects no earlier error, does not replace an amount a source still states: that amount stands.
    while (
      then &&
      jumps(then, price) &&
      !isMarketMove(then, { ...price, label: then.label }) &&
      !corrects(then, price)
    ) {
      const jumping = price.amount;
      const rest = left.filter((o) => !amountsAgree(o.amount, jumping));
      if (!rest.some((o) => amountsAgree(o.amount, then.amount))) break;
      for (const o of left)
        if (amountsAgree(o.amount, jumping)) {
          held.set(o.source, (held.get(o.source) ?? 0) + 1);
          heldHere.add(o.source);
        }
      left = rest;
      price = priceOf(slot, left, listings, input.runTime, prior);
    }
    // The sources set aside (T332) or held back (T176) stay in the provenance, dissenting, with the
    // evidence age of their statements (T375): the next run reads its prior from these observations,
    // and a statement missing there would be a first sighting then, its move forgotten. A held one
    // says so (`held`): on the same evidence the next run holds it again ({@link heldAgain}).
    if (aside || heldHere.size > 0)
      price = {
        ...price,
        dissenting: [...new Set([...price.dissenting, ...(aside?.sources ?? []), ...heldHere])],
        disputed: true,
        observations: plain.observations.map((o) => (heldHere.has(o.source) ? { ...o, held: true } : o)),
      };
    reconciled.push(price);
  });
  // Issue 36 §4 (T331): a discount priced above its standard price needs two sources, judged against
  // the standard prices published now.
  const aboveStandard = new Map<SourceId, number>();
  const over = windowsAboveStandard(reconciled);
  for (const i of over.keys())
    for (const source of reconciled[i]!.sources) aboveStandard.set(source, (aboveStandard.get(source) ?? 0) + 1);
  if (over.size > 0) reconciled = reconciled.filter((_, i) => !over.has(i));
  // Identical prices repeated per region collapse into one row (T76).
  const unlabeled = collapseRepeatedRegions(reconciled).sort(comparePrices);
  const groups = new Map<string, number[]>();
  unlabeled.forEach((p, i) => {
    const g = `${p.modelId}|${p.channel}`;
    groups.set(g, [...(groups.get(g) ?? []), i]);
  });
  const labels = new Array<string>(unlabeled.length);
  for (const members of groups.values()) {
    const texts = labelDimensions(members.map((i) => ({ dimension: unlabeled[i]!, unit: unlabeled[i]!.unit })));
    members.forEach((i, j) => {
      labels[i] = texts[j]!;
    });
  }
  return { prices: unlabeled.map((p, i) => ({ ...p, label: labels[i]! })), held, aboveStandard };
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
function heldAgain(then: PublishedPrice, observations: readonly SourceObservation[]): Set<SourceId> {
  const before = new Map(then.observations.map((o) => [o.source, o]));
  const same =
    observations.length === before.size &&
    observations.every((o) => {
      const b = before.get(o.source);
      return b !== undefined && amountsAgree(b.amount, o.amount);
    });
  return new Set(same ? observations.filter((o) => before.get(o.source)!.held === true).map((o) => o.source) : []);
}

/** What reconciling one slot reads, and its plain reconciliation (every statement, no jump guard). */
interface SlotContext {
  readonly slot: Slot;
  readonly observations: readonly SourceObservation[];
  readonly listings: ReadonlyMap<
    SourceId,
    { readonly listing: string; readonly page: PageEvidence | null; readonly validity: StatedValidity | null }
  >;
  readonly prior: PriorPrice | null;
  readonly then: PublishedPrice | undefined;
  readonly plain: Omit<PublishedPrice, "label">;
  /** The slot reconciled on this run's statements alone (no prior, no coherent moves), as T332 judges it. */
  readonly judged: Omit<PublishedPrice, "label">;
  readonly statements: readonly SourceObservation[];
}

/** The source shows evidence of a market move for this slot (T170): a coherent move, a move it still states, a dated price. */
function moving(context: SlotContext, source: SourceId): boolean {
  const o = context.observations.find((x) => x.source === source);
  const seen = context.plain.observations.find((x) => x.source === source);
  return o?.coherent === true || o?.dated?.kind === "effective" || seen?.movedFrom !== undefined;
}

/** T332's verdict on one slot: the sources set aside, or the price to publish when none is left. */
type Aside = { readonly sources: ReadonlySet<SourceId> } | { readonly published: Omit<PublishedPrice, "label"> };

/**
 * T332 (issue 36 §6): each lone outlier ({@link loneOutliers}, judged on the plain reconciliations)
 * loses. Its slot is reconciled again without its source, and again while the new winner is itself
 * a lone outlier against the same agreement; the sources so set aside are `dissenting` (their
 * statements stay in the provenance) and the price is disputed. When no statement of the slot is
 * left, the agreement the outlier stood against is published for the slot, backed by the sources
 * that state it elsewhere (not those set aside), at `low` confidence: the maker's price seen only
 * through other channels. When only sources set aside state the agreement, nothing is set aside.
 */
function setAside(
  contexts: readonly SlotContext[],
  openWeights: ReadonlySet<string>,
  bySource: ReadonlyMap<SourceId, SourceInput>,
  runTime: string,
): Map<number, Aside> {
  const out = new Map<number, Aside>();
  for (const [i, agreement] of loneOutliers(
    contexts.map((c) => c.judged),
    openWeights,
  )) {
    const context = contexts[i]!;
    const { slot, statements, listings, prior, plain, judged } = context;
    if (moving(context, judged.sources[0]!)) continue;
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
      now = priceOf(slot, left, listings, runTime, null);
      if (now.sources.length === 1 && moving(context, now.sources[0]!)) break;
    }
    if (left.length > 0) {
      if (aside.size > 0) out.set(i, { sources: aside });
      continue;
    }
    const sources = agreement.sources.filter((s) => !aside.has(s));
    if (sources.length === 0) continue; // only the sources set aside state the agreement: no evidence left
    const weight = (s: SourceId) => bySource.get(s)?.weight ?? 0;
    const agreeWeight = sources.reduce((n, s) => n + weight(s), 0);
    const dissentWeight = [...aside].reduce((n, s) => n + weight(s), 0);
    const corroboration = 1 - sources.reduce((n, s) => n * (1 - Math.min(weight(s), 0.999)), 1);
    const [min, max] = SCORE_BANDS.low;
    out.set(i, {
      published: {
        ...plain,
        amount: agreement.amount,
        confidence: "low",
        confidenceScore:
          Math.round((min + (max - min) * corroboration * (agreeWeight / (agreeWeight + dissentWeight))) * 1000) / 1000,
        sources: [...sources].sort((a, b) => weight(b) - weight(a) || cmp(a, b)),
        dissenting: [...aside],
        disputed: true,
        fallbackAmount: null,
        effectiveFrom: prior && amountsAgree(prior.amount, agreement.amount) ? prior.effectiveFrom : runTime,
      },
    });
  }
  return out;
}

/** One slot's price from a set of its observations (reconciliation, freshness cap, provenance). */
function priceOf(
  slot: Slot,
  observations: readonly SourceObservation[],
  listings: ReadonlyMap<
    SourceId,
    { readonly listing: string; readonly page: PageEvidence | null; readonly validity: StatedValidity | null }
  >,
  runTime: string,
  prior: PriorPrice | null,
): Omit<PublishedPrice, "label"> {
  const r = capForFreshness(reconcile(observations, { runTime, prior }));
  const validity = validityOf(
    r.sources,
    (s) => listings.get(s)?.validity,
    runTime,
    (s) => observations.find((o) => o.source === s), // T423: an announcement's confidence follows its sources
  );
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
    sources: r.sources,
    dissenting: r.dissenting,
    disputed: r.disputed,
    fallbackAmount: r.fallbackAmount,
    effectiveFrom: r.effectiveFrom,
    staleSince: r.staleSince,
    ...(validity.effectiveUntil !== null ? validity : {}),
    observations: observations
      .map((o) => {
        const age = r.evidence.get(o.source);
        return {
          source: o.source,
          amount: o.amount,
          fresh: o.fresh,
          ...(age?.since ? { since: age.since } : {}),
          ...(age?.lagging ? { lagging: true } : {}),
          listing: listings.get(o.source)!.listing,
          ...(o.authoritative ? { authoritative: true } : {}),
          ...(listings.get(o.source)!.page ? { page: listings.get(o.source)!.page! } : {}),
          ...(age?.movedFrom !== undefined ? { movedFrom: age.movedFrom } : {}),
        };
      })
      .sort((a, b) => (a.source < b.source ? -1 : 1)),
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function buildModels(
  resolved: readonly ResolvedListing[],
  aliases: ReadonlyMap<string, readonly string[]>,
  input: BuildInput,
): PublishedModel[] {
  const byModel = new Map<string, ResolvedListing[]>();
  for (const r of resolved) byModel.set(r.modelId, [...(byModel.get(r.modelId) ?? []), r]);
  const weight = new Map(input.sources.map((s) => [s.source, s.weight]));
  const makerSpellings = new Set(input.sources.filter((s) => s.makerSpellings).map((s) => s.source));
  const runDate = input.runTime.slice(0, 10);
  const models: PublishedModel[] = [];
  for (const [id, listings] of byModel) {
    // Metadata preference: the maker's own listing, canonical spelling, heavier source, then source id.
    const ordered = [...listings].sort(
      (a, b) =>
        Number(b.channel === "direct") - Number(a.channel === "direct") ||
        Number(b.canonicalSpelling) - Number(a.canonicalSpelling) ||
        // A source of the makers' own spellings carries their display names and limits (T160); then weight.
        Number(makerSpellings.has(b.source)) - Number(makerSpellings.has(a.source)) ||
        (weight.get(b.source) ?? 0) - (weight.get(a.source) ?? 0) ||
        cmp(a.source, b.source),
    );
    const pick = <T>(f: (l: Listing) => T | null): T | null => {
      for (const r of ordered) {
        const v = f(r.listing);
        if (v !== null && v !== undefined) return v;
      }
      return null;
    };
    const [provider, ...rest] = id.split("/");
    const slug = rest.join("/");
    const direct = ordered.filter((r) => r.channel === "direct");
    const metaSource = direct.length > 0 ? direct : ordered;
    const deprecatedOn = firstOf(metaSource, (l) => l.deprecatedOn);
    const retiresOn = firstOf(metaSource, (l) => l.retiresOn);
    const status = firstOf(metaSource, (l) => l.status);
    let state: LifecycleState = status === "preview" ? "preview" : status === "deprecated" ? "deprecated" : "active";
    if (deprecatedOn && deprecatedOn <= runDate) state = max(state, "deprecated");
    if (retiresOn && retiresOn <= runDate) state = "retired";
    const prior = input.prior?.models.get(id);
    if (prior) state = max(state, prior.state); // D3: transitions only move forward
    models.push({
      id,
      provider: provider!,
      slug,
      name: modelName(
        ordered.map((r) => ({ name: r.listing.name, model: r.listing.model, official: r.channel === "direct" })),
        slug,
      ),
      family: pick((l) => l.family),
      // D4: unknown is null, never 0 (issue 12 §9)
      contextWindow: pick((l) => (l.contextWindow ? l.contextWindow : null)),
      maxOutputTokens: pick((l) => (l.maxOutputTokens ? l.maxOutputTokens : null)),
      // A family whose maker published the weights is open weights whatever a reseller says (T183);
      // a reviewed API-only model is closed whatever a reseller says (T344).
      openWeights: hasOpenWeights(provider!, keyOf(slug), ordered),
      firstSeenAt: prior?.firstSeenAt ?? input.runTime,
      lifecycle: { state, releasedOn: pick((l) => l.releasedOn), deprecatedOn, retiresOn },
      aliases: aliases.get(id) ?? [],
      formerIds: [],
      listed: true,
    });
  }
  return models.sort((a, b) => cmp(a.id, b.id));
}

/**
 * T85: a price gone from every source is served one more run, with `staleSince` and every
 * observation marked not fresh, and removed only when a second run in a row has no fresh evidence
 * for it. Its model must still be listed and its label free in its channel. Not graced (T87, T173,
 * T175): a price whose listing moved to another model (its evidence went elsewhere), a context
 * bracket (a bracket no source states goes in that run), and a price a source still lists but the
 * guards quarantined (its evidence is there and was judged). A graced price whose listings are gone
 * from their payloads records the run they went (`absentSince`): its removal is dated then (T174).
 */
function withRemovalGrace(
  prices: PublishedPrice[],
  models: readonly PublishedModel[],
  input: BuildInput,
  listings: ListingIndex,
  listed: ListedIndex,
): PublishedPrice[] {
  const prior = input.prior?.published;
  if (!prior || prior.length === 0) return prices;
  const keys = new Set(prices.map((p) => priceKey(p, dimensionKey(p))));
  const labels = new Set(prices.map((p) => `${p.modelId}|${p.channel}|${p.seller}|${p.label}`));
  const listedModels = new Set(models.filter((m) => m.listed).map((m) => m.id));
  const graced: PublishedPrice[] = [];
  for (const p of prior) {
    const key = priceKey(p, dimensionKey(p));
    if (keys.has(key) || !listedModels.has(p.modelId)) continue;
    const label = `${p.modelId}|${p.channel}|${p.seller}|${p.label}`;
    if (!p.observations.some((o) => o.fresh)) continue; // already graced once: now removed
    if (movedTo(p, listings) !== null) continue; // its listing backs another model now (T87)
    if (p.contextMin > 0) continue; // a bracket no source states any more goes now (T173)
    const where = listed.whereListed(p);
    if (where === "placed") continue; // still listed, quarantined by the guards (T175)
    if (labels.has(label)) continue;
    labels.add(label);
    graced.push({
      ...staled(p, input.runTime),
      // Gone from the payloads now (not merely unplaced by identity): the market moved in this run.
      observations: p.observations.map((o) => ({
        ...o,
        fresh: false,
        ...(where === "absent" ? { absentSince: input.runTime } : {}),
      })),
    });
  }
  return graced.length === 0 ? prices : [...prices, ...graced].sort(comparePrices);
}

/** `p` served on without fresh evidence: stale since this run (or before), at most `medium` (T75, T85). */
function staled(p: PublishedPrice, runTime: string): PublishedPrice {
  return {
    ...p,
    ...(p.confidence === "verified" || p.confidence === "high"
      ? { confidence: "medium" as const, confidenceScore: Math.min(p.confidenceScore, 0.749) }
      : {}),
    staleSince: p.staleSince ?? runTime,
  };
}

/**
 * Permanent ids (issue 12 §8, T66): each id of the previous version that is no model now answers
 * on: as a former id of the model its slug names now (its first sighting kept, D17 history merged by
 * the view), else as a tombstone (`listed: false`, no prices). Former ids accumulate.
 */
function carryPriorIds(
  current: readonly PublishedModel[],
  identity: { lookup(maker: string, slug: string): string | null },
  input: BuildInput,
  listings: ListingIndex,
): { models: PublishedModel[]; renames: Map<string, string> } {
  const byId = new Map(current.map((m) => [m.id, { ...m }]));
  const renames = new Map<string, string>();
  // T85: a model gone from every source stays listed one more run (its prices graced), then rests;
  // one whose listings all moved to other models (T87) has nothing to grace.
  const freshLastRun = new Set(
    (input.prior?.published ?? [])
      .filter((p) => p.observations.some((o) => o.fresh) && movedTo(p, listings) === null)
      .map((p) => p.modelId),
  );
  const tombstones: PublishedModel[] = [];
  for (const prior of input.prior?.catalogue ?? []) {
    const now = byId.get(prior.id);
    if (now) {
      now.formerIds = [...new Set([...now.formerIds, ...prior.formerIds])].sort();
      if (prior.firstSeenAt < now.firstSeenAt) now.firstSeenAt = prior.firstSeenAt;
      continue;
    }
    const target = identity.lookup(prior.provider, prior.slug);
    const into = target ? byId.get(target) : undefined;
    if (into) {
      into.formerIds = [...new Set([...into.formerIds, prior.id, ...prior.formerIds])].sort();
      if (prior.firstSeenAt < into.firstSeenAt) into.firstSeenAt = prior.firstSeenAt;
      into.aliases = [...new Set([...into.aliases, prior.slug])].filter((a) => a !== into.slug).sort();
      renames.set(prior.id, into.id);
      for (const f of prior.formerIds) renames.set(f, into.id);
    } else tombstones.push({ ...prior, listed: prior.listed && freshLastRun.has(prior.id) });
  }
  const all = [...byId.values(), ...tombstones];
  const slugs = new Set(all.filter((m) => m.listed).map((m) => m.id));
  const models = all
    .map((m) => ({
      ...m,
      formerIds: m.formerIds.filter((f) => f !== m.id),
      // an alias never names another listed model (D1), a graced one included
      aliases: m.aliases.filter((a) => !slugs.has(`${m.provider}/${a}`)),
    }))
    .sort((a, b) => cmp(a.id, b.id));
  return { models, renames };
}

function firstOf<T>(listings: readonly ResolvedListing[], f: (l: Listing) => T | null): T | null {
  for (const r of listings) {
    const v = f(r.listing);
    if (v !== null && v !== undefined) return v;
  }
  return null;
}

function max(a: LifecycleState, b: LifecycleState): LifecycleState {
  return STATE_ORDER.indexOf(a) >= STATE_ORDER.indexOf(b) ? a : b;
}

function buildProviders(
  models: readonly PublishedModel[],
  prices: readonly PublishedPrice[],
  publisherNames: ReadonlyMap<string, string>,
): PublishedProvider[] {
  const counts = new Map<string, number>();
  for (const m of models) if (m.listed) counts.set(m.provider, (counts.get(m.provider) ?? 0) + 1);
  const official = new Set<string>();
  for (const p of prices) if (p.channel === "direct") official.add(p.modelId.split("/")[0]!);
  return [...counts.entries()]
    .sort(([a], [b]) => cmp(a, b))
    .map(([slug, n]) => {
      const known = MAKERS[slug];
      return {
        slug,
        name: known?.name ?? PUBLISHER_NAMES[slug] ?? publisherNames.get(slug) ?? titleCase(slug),
        website: known?.website ?? null,
        pricingUrl: known?.pricingUrl ?? null,
        official: official.has(slug),
        models: n,
      };
    });
}

function titleCase(slug: string): string {
  return slug
    .split("-")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
}

/**
 * Source health (D4, T75). A source parsed now reports this run; one that failed reports the
 * failure (0 rows); one absent from the run says so (`not_run`) and keeps the figures of the run
 * it last took part in (`lastRunAt`). `unmatchedLastRun` counts listings no model took (T65).
 */
function buildHealth(
  input: BuildInput,
  rejected: ReadonlyMap<SourceId, SourceRejections>,
  unmatched: ReadonlyMap<SourceId, number>,
): SourceHealth[] {
  return input.sources
    .map((s): SourceHealth => {
      const prior = input.prior?.sources.get(s.source);
      const unmapped = s.unmapped ?? prior?.unmappedByField ?? {};
      if (s.fresh) {
        const r = rejected.get(s.source);
        return {
          source: s.source,
          lastSuccessAt: input.runTime,
          lastError: null,
          rowsLastRun: s.listings.reduce((n, l) => n + l.prices.length, 0),
          unmatchedLastRun: unmatched.get(s.source) ?? 0,
          lastRunStatus: "succeeded",
          lastRunAt: input.runTime,
          rejectedLastRun: r?.total ?? 0,
          rejectedByReason: sortedRecord(r?.byReason ?? {}),
          unmappedLastRun: Object.values(unmapped).reduce((n, c) => n + c, 0),
          unmappedByField: sortedRecord(unmapped),
        };
      }
      if (s.ran)
        return {
          source: s.source,
          lastSuccessAt: prior?.lastSuccessAt ?? null,
          lastError: s.error ? { at: input.runTime, message: s.error.message, httpStatus: s.error.httpStatus } : null,
          rowsLastRun: 0,
          unmatchedLastRun: 0,
          lastRunStatus: "failed",
          lastRunAt: input.runTime,
          rejectedLastRun: 0,
          rejectedByReason: {},
          unmappedLastRun: 0,
          unmappedByField: {},
        };
      return {
        source: s.source,
        lastSuccessAt: prior?.lastSuccessAt ?? null,
        lastError: prior?.lastError ?? null,
        rowsLastRun: prior?.rowsLastRun ?? 0,
        unmatchedLastRun: prior?.unmatchedLastRun ?? 0,
        lastRunStatus: "not_run",
        lastRunAt: prior?.lastRunAt ?? null,
        rejectedLastRun: prior?.rejectedLastRun ?? 0,
        rejectedByReason: prior?.rejectedByReason ?? {},
        unmappedLastRun: prior?.unmappedLastRun ?? 0,
        unmappedByField: prior?.unmappedByField ?? {},
      };
    })
    .sort((a, b) => cmp(a.source, b.source));
}

function sortedRecord(record: Readonly<Partial<Record<string, number>>>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(record)
      .filter((e): e is [string, number] => typeof e[1] === "number" && e[1] > 0)
      .sort(([a], [b]) => cmp(a, b)),
  );
}
