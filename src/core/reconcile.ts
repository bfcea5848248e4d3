import { amountsAgree } from "../domain/amount.js";
import { type Confidence, confidenceRank } from "../domain/confidence.js";
import type { PriceVerdict } from "../domain/dataset.js";
import type { SourceId } from "../domain/observation.js";
import type { Denomination, Unit } from "../domain/unit.js";

/**
 * Reconciliation of one price dimension (one model, channel, seller and dimension) across sources
 * (D8). Pure and order-independent: the result depends on the set of observations, never on their
 * order.
 */

/** One source's statement of the amount, with the weight reconciliation gives it. */
export interface SourceObservation {
  readonly source: SourceId;
  /** Display units (e.g. USD per 1M tokens). */
  readonly amount: number;
  readonly unit: Unit;
  readonly denomination: Denomination;
  readonly currency: string;
  /** Source weight in (0, 1]. */
  readonly weight: number;
  /** The source is the seller's own price list (D8 `verified`). */
  readonly authoritative: boolean;
  /**
   * False when the source did not run (or failed) in this run and its last good observation is
   * carried forward; such an observation counts at half weight and re-confirms nothing.
   */
  readonly fresh: boolean;
}

/** The published price of the previous dataset version for the same dimension, if any. */
export interface PriorPrice {
  readonly amount: number;
  readonly unit: Unit;
  readonly effectiveFrom: string;
  readonly staleSince: string | null;
  /** Each source's amount behind it last run, and since when the source has shown it (T81). */
  readonly observations?: readonly { readonly source: SourceId; readonly amount: number; readonly since?: string }[];
}

/** A reconciled price: the published amount with its confidence and provenance (api-v1.md "Price"). */
export interface ReconciledPrice extends PriceVerdict {
  /** Per source: since when it has shown its amount, and whether it lags (T81, T82). */
  readonly evidence: ReadonlyMap<SourceId, { readonly since: string; readonly lagging: boolean }>;
}

/** Context of the run doing the reconciliation. */
export interface ReconcileContext {
  /** ISO time of the run (D9 dataset version). */
  readonly runTime: string;
  readonly prior: PriorPrice | null;
}

/** A source at or above this weight is "reliable" (D8 `medium` on its own). */
export const RELIABLE_WEIGHT = 0.7;
/** A lone source below this weight is `unverified` (D8 "a single low-weight source"). */
export const LOW_WEIGHT = 0.5;

/** Score band [min, max) of each level: the score orders prices within and across levels. */
export const SCORE_BANDS: Readonly<Record<Confidence, readonly [number, number]>> = {
  verified: [0.9, 1],
  high: [0.75, 0.9],
  medium: [0.5, 0.75],
  low: [0.25, 0.5],
  unverified: [0, 0.25],
};

/**
 * Reconciles the observations of one dimension.
 * @throws RangeError when `observations` is empty
 */
export function reconcile(observations: readonly SourceObservation[], context: ReconcileContext): ReconciledPrice {
  if (observations.length === 0) throw new RangeError("reconcile needs at least one observation");
  const all = [...observations].sort(byWeightThenId);
  const evidence = evidenceAge(all, context);
  // T82: a lagging source stays listed as dissenting, but neither wins nor disputes the price.
  const lagging = all.filter((o) => evidence.get(o.source)?.lagging);
  const obs = lagging.length < all.length ? all.filter((o) => !evidence.get(o.source)?.lagging) : all;
  const memory = tieMemory(context.prior, all);
  const winner = pickWinner(obs, memory);
  const agreeing = obs.filter((o) => agrees(o, winner));
  const dissenting = all.filter((o) => !agrees(o, winner));
  const disputing = obs.filter((o) => !agrees(o, winner));
  const primary = agreeing[0]!;

  const tie = isTie(obs, winner, memory);
  const confidence = levelOf(agreeing, disputing, tie);
  const confidenceScore = scoreOf(confidence, agreeing, disputing);

  const others = obs.filter((o) => o.source !== primary.source);
  const fallbackAmount = others.length > 0 ? (pickWinner(others, memory).amount ?? null) : null;

  const prior = context.prior;
  const sameAsPrior = prior !== null && prior.unit === primary.unit && amountsAgree(prior.amount, primary.amount);
  const confirmedNow = agreeing.some((o) => o.fresh);
  return {
    amount: primary.amount,
    unit: primary.unit,
    denomination: primary.denomination,
    currency: primary.currency,
    confidence,
    confidenceScore,
    sources: agreeing.map((o) => o.source),
    dissenting: dissenting.map((o) => o.source),
    disputed: disputing.length > 0,
    fallbackAmount,
    effectiveFrom: sameAsPrior ? prior.effectiveFrom : context.runTime,
    staleSince: confirmedNow ? null : (prior?.staleSince ?? context.runTime),
    evidence,
  };
}

/**
 * Evidence age (T81): the run in which each source last changed its amount, carried from the prior
 * version while the amount stays. Lagging (T82): a source still showing an amount older than a move
 * that at least two other sources (or the fresh authoritative one) made together to one new amount.
 */
function evidenceAge(
  obs: readonly SourceObservation[],
  context: ReconcileContext,
): Map<SourceId, { since: string; lagging: boolean }> {
  const before = new Map((context.prior?.observations ?? []).map((o) => [o.source, o]));
  // `since` is the run in which the source last changed its amount; "" when it never changed while
  // we watched (a first sighting is no move).
  const since = new Map<SourceId, string>();
  for (const o of obs) {
    const then = before.get(o.source);
    if (!then) since.set(o.source, "");
    else if (amountsAgree(then.amount, o.amount)) since.set(o.source, then.since ?? "");
    else since.set(o.source, context.runTime);
  }
  const result = new Map<SourceId, { since: string; lagging: boolean }>();
  for (const o of obs) {
    const mine = since.get(o.source)!;
    // Sources that moved after `o` last changed, and sources first seen now beside them.
    const groups = new Map<number, { movers: number; members: SourceObservation[] }>();
    for (const x of obs) {
      if (agrees(x, o)) continue;
      const theirs = since.get(x.source)!;
      const mover = theirs !== "" && theirs > mine;
      if (!mover && before.has(x.source)) continue;
      const g = groups.get(x.amount) ?? { movers: 0, members: [] };
      g.members.push(x);
      if (mover) g.movers++;
      groups.set(x.amount, g);
    }
    const lagging =
      !(o.authoritative && o.fresh) &&
      [...groups.values()].some(
        (g) => g.movers >= 1 && (g.members.length >= 2 || g.members.some((x) => x.authoritative && x.fresh)),
      );
    result.set(o.source, { since: mine, lagging });
  }
  return result;
}

/** What a tie remembers (T80): last run's published amount, and the amounts sources backed then. */
interface TieMemory {
  readonly published: number | null;
  readonly backed: readonly number[];
  /** A source that backed last run's amount states another now: memory only breaks weight ties. */
  readonly defected?: boolean;
}

function tieMemory(prior: PriorPrice | null, now: readonly SourceObservation[] = []): TieMemory {
  const backed = (prior?.observations ?? []).map((o) => o.amount);
  if (!prior) return { published: null, backed };
  // The evidence moved: a source that backed last run's amount now states another one. Last run's
  // amount then keeps its privilege only below the weights (it moves only when the evidence moves,
  // T80): a heavier mover wins, an equal one does not.
  const current = new Map(now.map((o) => [o.source, o.amount]));
  const defected = (prior.observations ?? []).some(
    (o) =>
      amountsAgree(o.amount, prior.amount) &&
      current.has(o.source) &&
      !amountsAgree(current.get(o.source)!, prior.amount),
  );
  return { published: prior.amount, backed, defected };
}

function effectiveWeight(o: SourceObservation): number {
  return o.fresh ? o.weight : o.weight / 2;
}

function byWeightThenId(a: SourceObservation, b: SourceObservation): number {
  return effectiveWeight(b) - effectiveWeight(a) || (a.source < b.source ? -1 : a.source > b.source ? 1 : 0);
}

function agrees(o: SourceObservation, target: SourceObservation): boolean {
  return (
    o.unit === target.unit &&
    o.denomination === target.denomination &&
    o.currency === target.currency &&
    amountsAgree(o.amount, target.amount)
  );
}

function support(candidate: SourceObservation, obs: readonly SourceObservation[]): number {
  let total = 0;
  for (const o of obs) if (agrees(o, candidate)) total += effectiveWeight(o);
  return total;
}

/**
 * The observation whose amount wins: a fresh authoritative source wins outright; otherwise the
 * amount with the most agreeing weight, then the most sources, then the heaviest single source,
 * then the lower amount. `obs` must be sorted by {@link byWeightThenId}.
 */
function pickWinner(
  obs: readonly SourceObservation[],
  memory: TieMemory = { published: null, backed: [] },
): SourceObservation {
  // Only a fresh authoritative statement overrules; a carried one votes like any other source.
  const authoritative = obs.find((o) => o.authoritative && o.fresh);
  if (authoritative) return authoritative;
  let best = obs[0]!;
  let bestKey = rankKey(best, obs, memory);
  for (const o of obs.slice(1)) {
    const key = rankKey(o, obs, memory);
    if (compareRank(key, bestKey) > 0) {
      best = o;
      bestKey = key;
    }
  }
  return best;
}

type RankKey = readonly [number, number, number, number, number, number, number];

/**
 * T80: the amount most sources state (a carried statement counts half); on a tie the memory
 * decides — the amount published last run, then an amount some source backed last run — then the
 * agreeing weight, the heaviest single source, the lower amount. So a redundant agreeing source
 * never decides, and the same evidence always publishes the same amount.
 */
function rankKey(o: SourceObservation, obs: readonly SourceObservation[], memory: TieMemory): RankKey {
  const agreeing = obs.filter((x) => agrees(x, o));
  const published = memory.published !== null && amountsAgree(memory.published, o.amount) ? 1 : 0;
  const backed = memory.backed.some((a) => amountsAgree(a, o.amount)) ? 1 : 0;
  const count = agreeing.reduce((n, x) => n + (x.fresh ? 1 : 0.5), 0);
  const weight = round6(support(o, obs));
  const heaviest = Math.max(...agreeing.map(effectiveWeight));
  if (memory.defected) return [count, weight, heaviest, published, backed, o.amount > 0 ? 1 : 0, -o.amount];
  return [
    count,
    published,
    backed,
    weight,
    heaviest,
    // A tie between 0 and a positive amount never publishes 0 (issue 13 §4).
    o.amount > 0 ? 1 : 0,
    -o.amount,
  ];
}

function compareRank(a: RankKey, b: RankKey): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}

function round6(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

/** An unresolved tie: another amount has exactly the winner's support and source count (D8 `unverified`). */
function isTie(obs: readonly SourceObservation[], winner: SourceObservation, memory: TieMemory): boolean {
  if (winner.authoritative && winner.fresh) return false;
  const w = rankKey(winner, obs, memory);
  // Unresolved: another amount has as many sources, and memory did not tell them apart.
  return obs.some((o) => {
    if (agrees(o, winner)) return false;
    const k = rankKey(o, obs, memory);
    return memory.defected ? k[0] === w[0] && k[1] === w[1] : k[0] === w[0] && k[1] === w[1] && k[2] === w[2];
  });
}

function levelOf(
  agreeing: readonly SourceObservation[],
  dissenting: readonly SourceObservation[],
  tie: boolean,
): Confidence {
  if (agreeing.some((o) => o.authoritative)) return "verified";
  if (tie) return "unverified";
  const agreeWeight = agreeing.reduce((s, o) => s + effectiveWeight(o), 0);
  const dissentWeight = dissenting.reduce((s, o) => s + effectiveWeight(o), 0);
  if (agreeing.length >= 2 && dissenting.length === 0) return "high";
  if (agreeing.length >= 2 && agreeWeight > dissentWeight) return "medium";
  if (agreeing.length === 1 && dissenting.length === 0) {
    const w = effectiveWeight(agreeing[0]!);
    if (w >= RELIABLE_WEIGHT) return "medium";
    if (w < LOW_WEIGHT) return "unverified";
    return "low";
  }
  return "low";
}

/**
 * Score within the level's band: corroboration (1 − Π(1 − wᵢ) over agreeing sources) times the
 * agreeing share of all weight. Adding an agreeing source raises both factors.
 */
function scoreOf(
  level: Confidence,
  agreeing: readonly SourceObservation[],
  dissenting: readonly SourceObservation[],
): number {
  const agreeWeight = agreeing.reduce((s, o) => s + effectiveWeight(o), 0);
  const dissentWeight = dissenting.reduce((s, o) => s + effectiveWeight(o), 0);
  const corroboration = 1 - agreeing.reduce((p, o) => p * (1 - Math.min(effectiveWeight(o), 0.999)), 1);
  const share = agreeWeight / (agreeWeight + dissentWeight);
  const [min, max] = SCORE_BANDS[level];
  return Math.round((min + (max - min) * corroboration * share) * 1000) / 1000;
}

/** True when `a` is at least as confident as `b` (level first, then score). */
export function atLeastAsConfident(a: ReconciledPrice, b: ReconciledPrice): boolean {
  const ra = confidenceRank(a.confidence);
  const rb = confidenceRank(b.confidence);
  return ra > rb || (ra === rb && a.confidenceScore >= b.confidenceScore);
}
