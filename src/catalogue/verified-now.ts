import { createHash } from "node:crypto";
import { type Confidence, LOW_WEIGHT, RELIABLE_WEIGHT, SCORE_BANDS } from "../domain/confidence.js";
import type { PublishedPrice } from "../domain/dataset.js";
import { DAY_MS, VERIFIED_PAGE_MAX_AGE_DAYS } from "../domain/freshness.js";

/**
 * `verified` means fresh, judged when the answer is served (issue 46 §5, T460). A price is
 * `verified` only while the seller's own list that states it (a maker's page, `official-*`, or a
 * reseller's own list) was read successfully within {@link VERIFIED_PAGE_MAX_AGE_DAYS} days of the
 * moment judged; the version's build-time judgement (T292) is otherwise left as it is. Pure.
 */

/** Why a price is not `verified` although its seller's own list states it (the API's `pageStale`, T461). */
export interface PageStale {
  /** The seller's own source whose statement lapsed. */
  readonly source: string;
  /** When it was last read successfully (a published run or a live attempt); null: never. */
  readonly lastReadAt: string | null;
  /** The window: a statement older than this many days makes no price `verified` (T460). */
  readonly maxAgeDays: number;
}

/** A price as served: the published price, with the reason it lost `verified` when it did (T461). */
export type ServedPrice = PublishedPrice & { readonly pageStale?: PageStale };

/** What judging needs of the configured sources: who speaks for which seller, and each source's weight. */
export interface SellerSources {
  /** Source id → the sellers whose own list it is (`authoritativeFor`). */
  readonly speaksFor: ReadonlyMap<string, readonly string[]>;
  /** Source id → its D8 weight. */
  readonly weight: ReadonlyMap<string, number>;
}

/** The seller's own sources last read more than the window before the moment judged, with their last read. */
export type StalePages = ReadonlyMap<string, string | null>;

/** A source's last successful read, from its `/sources` record: its last success, or a newer successful attempt. */
export function lastRead(record: {
  readonly lastSuccessAt: string | null;
  readonly lastAttempt: { readonly at: string; readonly status: string } | null;
}): string | null {
  const attempt = record.lastAttempt;
  const attemptRead = attempt && attempt.status !== "failed" ? attempt.at : null;
  if (attemptRead === null) return record.lastSuccessAt;
  if (record.lastSuccessAt === null) return attemptRead;
  return Date.parse(attemptRead) > Date.parse(record.lastSuccessAt) ? attemptRead : record.lastSuccessAt;
}

/** The last moment (epoch ms) a read at `read` still counts: `read` plus the window (T460). */
function lapsesAfter(read: string): number {
  return Date.parse(read) + VERIFIED_PAGE_MAX_AGE_DAYS * DAY_MS;
}

/**
 * The seller's own sources stale at `atMs` (epoch ms): never read, or last read more than
 * {@link VERIFIED_PAGE_MAX_AGE_DAYS} days before it.
 * @param reads per seller's own source, its last successful read ({@link lastRead})
 */
export function stalePagesAt(reads: ReadonlyMap<string, string | null>, atMs: number): Map<string, string | null> {
  const stale = new Map<string, string | null>();
  for (const [source, read] of reads) if (read === null || atMs > lapsesAfter(read)) stale.set(source, read);
  return stale;
}

/**
 * The clock interval [from, until) (epoch ms) around `atMs` in which {@link stalePagesAt} gives the
 * same pages: a server re-judges only when the clock leaves it (T462).
 */
export function staleInterval(
  reads: ReadonlyMap<string, string | null>,
  atMs: number,
): { from: number; until: number } {
  let from = Number.NEGATIVE_INFINITY;
  let until = Number.POSITIVE_INFINITY;
  for (const read of reads.values()) {
    if (read === null) continue;
    const flip = lapsesAfter(read) + 1; // stale from this ms on
    if (atMs >= flip) from = Math.max(from, flip);
    else until = Math.min(until, flip);
  }
  return { from, until };
}

/** Whether two stale sets name the same pages with the same last reads. */
export function sameStalePages(a: StalePages, b: StalePages): boolean {
  if (a.size !== b.size) return false;
  for (const [source, read] of a) if (!b.has(source) || b.get(source) !== read) return false;
  return true;
}

/** A short digest of a stale set ("" when empty), for the ETag (T462). */
export function stalePagesKey(stale: StalePages): string {
  if (stale.size === 0) return "";
  const list = [...stale].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash("sha1").update(JSON.stringify(list)).digest("base64url").slice(0, 12);
}

/**
 * A price as judged with `stale` (T460, T461): unchanged unless it is `verified` and no fresh source
 * speaks for its seller among its agreeing sources (or, when none agrees, among all of that seller's
 * own sources). Then it gets the D8 level its agreeing and dissenting sources give without that
 * authority (two or more agreeing unopposed: `high`; the page alone: `medium`, `low` against
 * dissent), its score at the same place in that band, and `pageStale` naming the page.
 */
export function judgePrice<P extends PublishedPrice>(
  p: P,
  stale: StalePages,
  sellers: SellerSources,
): P | (P & { pageStale: PageStale }) {
  if (p.confidence !== "verified" || stale.size === 0) return p;
  const speaks = (s: string) => sellers.speaksFor.get(s)?.includes(p.seller) === true;
  const agreeingOwn = p.sources.filter(speaks);
  const own = agreeingOwn.length > 0 ? agreeingOwn : [...sellers.speaksFor.keys()].filter(speaks);
  if (own.length === 0 || own.some((s) => !stale.has(s))) return p;
  const newest = own.reduce((a, b) => (Date.parse(stale.get(b) ?? "") > Date.parse(stale.get(a) ?? "") ? b : a));
  const level = levelWithoutAuthority(p.sources, p.dissenting, sellers.weight);
  const pageStale: PageStale = {
    source: newest,
    lastReadAt: stale.get(newest) ?? null,
    maxAgeDays: VERIFIED_PAGE_MAX_AGE_DAYS,
  };
  return { ...p, confidence: level, confidenceScore: moveScore(p.confidenceScore, level), pageStale };
}

/** D8's level (reconcile's `levelOf`) of agreeing and dissenting sources, none speaking for the seller. */
function levelWithoutAuthority(
  agreeing: readonly string[],
  dissenting: readonly string[],
  weight: ReadonlyMap<string, number>,
): Confidence {
  const w = (list: readonly string[]) => list.reduce((sum, s) => sum + (weight.get(s) ?? 0), 0);
  if (agreeing.length >= 2 && dissenting.length === 0) return "high";
  if (agreeing.length >= 2 && w(agreeing) > w(dissenting)) return "medium";
  if (agreeing.length === 1 && dissenting.length === 0) {
    const one = w(agreeing);
    return one >= RELIABLE_WEIGHT ? "medium" : one < LOW_WEIGHT ? "unverified" : "low";
  }
  return "low";
}

/** A `verified` score moved to the same relative place in `level`'s band (as T75's cap does). */
function moveScore(score: number, level: Confidence): number {
  const [min, max] = SCORE_BANDS.verified;
  const [lMin, lMax] = SCORE_BANDS[level];
  const position = Math.min(Math.max((score - min) / (max - min), 0), 1);
  return Math.min(Math.round((lMin + (lMax - lMin) * position) * 1000) / 1000, lMax - 0.001);
}
