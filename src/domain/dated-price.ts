import { dayInstant, instantOf } from "./calendar-day.js";
import { type Confidence, confidenceRank } from "./confidence.js";
import type { PriceVerdict } from "./dataset.js";
import type { Dimension } from "./dimension.js";
import type { SourceId } from "./observation.js";
import type { Denomination, Unit } from "./unit.js";

/** A price an upstream dates itself: in force from `fromDate` (inclusive) to `toDate` (exclusive). */
export interface DatedPrice {
  readonly seller: string;
  /** Model id as the source spells it. */
  readonly model: string;
  readonly dimension: Dimension;
  /** Display units. */
  readonly amount: number;
  readonly unit: Unit;
  readonly currency: string;
  readonly denomination: Denomination;
  /** YYYY-MM-DD, or null when the upstream does not say since when. */
  readonly fromDate: string | null;
  readonly toDate: string | null;
}

/**
 * What a source states about the end of one of its current prices (issue 37 §4, issue 35 §5, T335):
 * the price stops on `until` (YYYY-MM-DD, exclusive: the first day it no longer applies), and from
 * that day the source states `next` (display units, same dimension and unit), or null when it
 * states no price of this dimension from then (a bracket that ends, a promotion with no successor
 * named). Only a day after the run that read it is an announcement; a past end is history (T18).
 */
export interface StatedValidity {
  readonly until: string;
  readonly next: number | null;
}

/**
 * A source's memory of an announcement it withdrew (issue 47 §1, T425): the statement a price of its
 * last good run carried (`until`, `next`, as {@link StatedValidity}) and the run day (`on`,
 * YYYY-MM-DD) whose payload no longer stated it, while its day was still ahead. Kept with the
 * source's last good listings for {@link WITHDRAWAL_MEMORY_DAYS}; the same statement made again
 * within that time is a flip, and fails the source (`announcement-guard.ts`).
 */
export interface WithdrawnStatement extends StatedValidity {
  readonly on: string;
}

/** How long a withdrawn announcement is remembered, in days (T425). */
export const WITHDRAWAL_MEMORY_DAYS = 30;

/** The announced successor of a published price (api-v1.md "Price" `announced`, T335). */
export interface AnnouncedPrice {
  /** Display units, as the price's `amount`. */
  readonly amount: number;
  /** ISO 8601 timestamp, 00:00 UTC of the day it takes effect (= the price's `effectiveUntil`). */
  readonly effectiveFrom: string;
  /** The source that states it. */
  readonly source: SourceId;
  /**
   * How far the announcement is confirmed (issue 47 §1, T423): the level its stating sources earn
   * together, as a price's (D8) — one aggregator alone is never `verified`. The price answered from
   * `effectiveFrom` on (`at=`, `/cost`) carries it. Provenance, not in the API's `announced` object;
   * absent on versions published before T423 (then the successor answers at most `medium`).
   */
  readonly confidence?: Confidence;
  /** The score within {@link confidence}'s band (D8), with it. */
  readonly confidenceScore?: number;
}

/**
 * A published price's announced end (T335): `effectiveUntil` (ISO 8601 timestamp, 00:00 UTC of the
 * first day it no longer applies) and the price announced from then (null: none stated, the price
 * ends). Both null for a price with no stated end.
 */
export interface PriceValidity {
  readonly effectiveUntil: string | null;
  readonly announced: AnnouncedPrice | null;
}

/** A price with no stated end. */
export const OPEN_VALIDITY: PriceValidity = { effectiveUntil: null, announced: null };

/** 00:00 UTC of a YYYY-MM-DD day, as an ISO 8601 timestamp. */
export function dayStart(day: string): string {
  return `${day}T00:00:00.000Z`;
}

/**
 * Whether a price with `validity` has ended by `day` (YYYY-MM-DD): its `effectiveUntil` is on or
 * before that day (T336: `at=` and `/cost` on that day use the announced price). Compared as instants
 * (T420); an end or a day that is no real instant ends nothing.
 */
export function endedBy(validity: Partial<PriceValidity>, day: string): boolean {
  if (validity.effectiveUntil == null) return false;
  const until = instantOf(validity.effectiveUntil);
  const on = dayInstant(day);
  return until !== null && on !== null && until <= on;
}

/** The highest level the successor of a version published before T423 answers at (one source's statement). */
const UNRATED_SUCCESSOR: { confidence: Confidence; confidenceScore: number } = {
  confidence: "medium",
  confidenceScore: 0.5,
};

/** The successor's confidence: the announcement's own, else the price's capped at {@link UNRATED_SUCCESSOR}. */
function successorConfidence(
  price: { confidence: Confidence; confidenceScore: number },
  next: AnnouncedPrice,
): { confidence: Confidence; confidenceScore: number } {
  if (next.confidence !== undefined && next.confidenceScore !== undefined)
    return { confidence: next.confidence, confidenceScore: next.confidenceScore };
  return confidenceRank(price.confidence) > confidenceRank(UNRATED_SUCCESSOR.confidence)
    ? UNRATED_SUCCESSOR
    : { confidence: price.confidence, confidenceScore: price.confidenceScore };
}

/**
 * A price as it applies on `day` (YYYY-MM-DD; issue 37 §4, T336): itself while its stated end is
 * after that day; from its `effectiveUntil` on, its announced successor — the amount announced, in
 * force from `effectiveFrom`, stated by one source (`sources: [source]`, no dissent, no fallback,
 * no further end), at the announcement's own confidence (T423: what its stating sources earn, never
 * the confidence of the price it replaces), with the rest of the price unchanged — or null when it
 * ends with none announced.
 */
export function priceOnDay<P extends Partial<PriceValidity> & PriceSuccessorFields>(price: P, day: string): P | null {
  if (!endedBy(price, day)) return price;
  const next = price.announced;
  if (!next) return null;
  return {
    ...price,
    amount: next.amount,
    effectiveFrom: next.effectiveFrom,
    ...successorConfidence(price, next),
    sources: [next.source],
    dissenting: [],
    disputed: false,
    fallbackAmount: null,
    effectiveUntil: null,
    announced: null,
  };
}

/** The fields of a published price that its announced successor replaces. */
type PriceSuccessorFields = Pick<
  PriceVerdict,
  | "amount"
  | "confidence"
  | "confidenceScore"
  | "effectiveFrom"
  | "sources"
  | "dissenting"
  | "disputed"
  | "fallbackAmount"
>;
