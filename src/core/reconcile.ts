import { amountsAgree } from "../domain/amount.js";
import { type Confidence, confidenceRank, LOW_WEIGHT, RELIABLE_WEIGHT, SCORE_BANDS } from "../domain/confidence.js";
import type { PriceVerdict } from "../domain/dataset.js";
import type { PricesDated, SourceId } from "../domain/observation.js";
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
  /**
   * The seller's own price list states this amount *now* (D8 `verified`, T292): its source parsed
   * in this run, or it is a maker's own page captured within {@link VERIFIED_PAGE_MAX_AGE_DAYS}
   * days (decided by the dataset builder). Such a statement wins outright and makes the price
   * `verified`; differing sources are `dissenting`.
   */
  readonly authoritative: boolean;
  /**
   * False when the source did not run (or failed) in this run and its last good observation is
   * carried forward. A carried observation keeps its place (issue 26 §2, T178): it votes with its
   * full weight and its evidence age, but it re-confirms nothing (`staleSince`, T75), and it
   * overrules as authoritative only as a maker's page still within its freshness bound (T292).
   */
  readonly fresh: boolean;
  /** The source's own statement of how current this amount is (models.dev `last_updated`, genai-prices `start_date`; T170). */
  readonly dated?: PricesDated | null;
  /** The source changed its amount in this run by a coherent move (maker-wide or corroborated, T170). */
  readonly coherent?: boolean;
}

/** The published price of the previous dataset version for the same dimension, if any. */
export interface PriorPrice {
  readonly amount: number;
  readonly unit: Unit;
  readonly effectiveFrom: string;
  readonly staleSince: string | null;
  /**
   * Each source's amount behind it last run, since when the source has shown it (T81), and the
   * amount it left then by a coherent market move (T170).
   */
  readonly observations?: readonly {
    readonly source: SourceId;
    readonly amount: number;
    readonly since?: string;
    readonly movedFrom?: number;
  }[];
}

/** One source's evidence age behind a reconciled price (T81, T82, T170). */
export interface EvidenceAge {
  /** The run in which the source last changed its amount; "" when it never did while we watched. */
  readonly since: string;
  /** It cannot win: it shows an amount older than a move to another amount (T82, T170). */
  readonly lagging: boolean;
  /** The amount the source left at `since` by a coherent market move (T170). */
  readonly movedFrom?: number;
}

/** A reconciled price: the published amount with its confidence and provenance (api-v1.md "Price"). */
export interface ReconciledPrice extends PriceVerdict {
  /** Per source: since when it has shown its amount, whether it lags, what it moved from (T81, T82, T170). */
  readonly evidence: ReadonlyMap<SourceId, EvidenceAge>;
}

/** Context of the run doing the reconciliation. */
export interface ReconcileContext {
  /** ISO time of the run (D9 dataset version). */
  readonly runTime: string;
  readonly prior: PriorPrice | null;
}

// D8's weights and bands live in the vocabulary: the catalogue judges `verified` when serving (T460).
export { LOW_WEIGHT, RELIABLE_WEIGHT, SCORE_BANDS } from "../domain/confidence.js";

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
 * version while the amount stays. Lagging: a source cannot win when it shows an amount older than
 * a move to another amount —
 * - T82: a move that at least two other sources (or the fresh authoritative one) made together;
 * - T170: the freshest market move on the table (a source seen to change its amount by a coherent
 *   move — maker-wide or corroborated, `coherent-moves.ts` — or a source's own dated statement that
 *   its price took effect then), when its amount is the only one moved to at that time and the
 *   source's own evidence (its last change, its stated review or effective date) is older than that
 *   move. Fresh evidence of a move beats a stale majority; counting heads decides only among
 *   sources whose evidence is as fresh.
 */
export function evidenceAge(obs: readonly SourceObservation[], context: ReconcileContext): Map<SourceId, EvidenceAge> {
  const prior = context.prior;
  const before = new Map((prior?.observations ?? []).map((o) => [o.source, o]));
  // `since` is the run in which the source last changed its amount; "" when it never changed while
  // we watched (a first sighting is no move). `movedFrom`: the amount it left by a coherent move.
  const since = new Map<SourceId, string>();
  const movedFrom = new Map<SourceId, number>();
  for (const o of obs) {
    const then = before.get(o.source);
    if (!then) since.set(o.source, "");
    else if (amountsAgree(then.amount, o.amount)) {
      since.set(o.source, then.since ?? "");
      if (then.movedFrom !== undefined) movedFrom.set(o.source, then.movedFrom);
    } else {
      since.set(o.source, context.runTime);
      // A coherent move is evidence of the market (T170); a lone rewrite of one entry is not.
      if (o.coherent) movedFrom.set(o.source, then.amount);
    }
  }
  const market = freshestMove(obs, since, movedFrom);
  const result = new Map<SourceId, EvidenceAge>();
  for (const o of obs) {
    const mine = since.get(o.source)!;
    // Sources that moved after `o` last changed (T82). Sources first seen beside them joined the move
    // only in the run they appeared; counting them then and not in the next run of the same evidence
    // made the published amount flip back (found by the property test of T170), so only movers count.
    const groups = new Map<number, SourceObservation[]>();
    for (const x of obs) {
      if (agrees(x, o)) continue;
      const theirs = since.get(x.source)!;
      if (theirs === "" || theirs <= mine) continue;
      groups.set(x.amount, [...(groups.get(x.amount) ?? []), x]);
    }
    const lagsT82 = [...groups.values()].some(
      (movers) => movers.length >= 2 || movers.some((x) => x.authoritative && x.fresh),
    );
    const lagsT170 = market !== null && !agrees(o, market.mover) && freshness(o, mine) < market.at;
    const lagging = !(o.authoritative && o.fresh) && (lagsT82 || lagsT170);
    const from = movedFrom.get(o.source);
    result.set(o.source, { since: mine, lagging, ...(from !== undefined ? { movedFrom: from } : {}) });
  }
  return result;
}

/**
 * When a source's evidence for its amount dates from (T170): its last change (`since`), or the day
 * the source itself states for the amount (reviewed or effective), whichever is later. "" when it
 * has neither (a statement never seen to change, of unknown age). Compared as strings: a stated day
 * `YYYY-MM-DD` sorts before any run time of that day.
 */
function freshness(o: SourceObservation, since: string): string {
  return later(o.dated?.on ?? "", since);
}

/** When the source's amount was last seen to move (a watched change, or its stated effective date); "" when never. */
function moveTime(o: SourceObservation, since: string, movedFrom: ReadonlyMap<SourceId, number>): string {
  const watched = movedFrom.has(o.source) ? since : "";
  return later(o.dated?.kind === "effective" ? o.dated.on : "", watched);
}

/** The later of two times (ISO strings, a bare day sorting before the runs of that day; "" earliest). */
function later(a: string, b: string): string {
  if (a > b) return a;
  return b;
}

/**
 * The freshest move on the table (T170): its time and one source that made it, when every source
 * that moved at that time moved to the same amount; null when nobody moved or the freshest movers
 * disagree (then heads decide, T80).
 */
function freshestMove(
  obs: readonly SourceObservation[],
  since: ReadonlyMap<SourceId, string>,
  movedFrom: ReadonlyMap<SourceId, number>,
): { at: string; mover: SourceObservation } | null {
  let at = "";
  let movers: SourceObservation[] = [];
  for (const o of obs) {
    const t = moveTime(o, since.get(o.source)!, movedFrom);
    if (t === "" || t < at) continue;
    if (t > at) {
      at = t;
      movers = [];
    }
    movers.push(o);
  }
  if (movers.length === 0) return null;
  const mover = movers[0]!;
  return movers.every((m) => agrees(m, mover)) ? { at, mover } : null;
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

/** A source's weight in the vote: a carried statement keeps its full weight (issue 26 §2, T178). */
function effectiveWeight(o: SourceObservation): number {
  return o.weight;
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
  // Only a current authoritative statement overrules (`authoritative` is set only for one, T292).
  const authoritative = obs.find((o) => o.authoritative);
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
 * T80: the amount most sources state (a carried statement counts as one, T178); on a tie the memory
 * decides — the amount published last run, then an amount some source backed last run — then the
 * agreeing weight, the heaviest single source, the lower amount. So a redundant agreeing source
 * never decides, and the same evidence always publishes the same amount.
 */
function rankKey(o: SourceObservation, obs: readonly SourceObservation[], memory: TieMemory): RankKey {
  const agreeing = obs.filter((x) => agrees(x, o));
  const published = memory.published !== null && amountsAgree(memory.published, o.amount) ? 1 : 0;
  const backed = memory.backed.some((a) => amountsAgree(a, o.amount)) ? 1 : 0;
  const count = agreeing.length;
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
  if (winner.authoritative) return false;
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
