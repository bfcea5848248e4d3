import { amountsAgree } from "../domain/amount.js";
import { dayInstant } from "../domain/calendar-day.js";
import type { Confidence } from "../domain/confidence.js";
import { type AnnouncedPrice, dayStart, type PriceValidity, type StatedValidity } from "../domain/dated-price.js";
import type { SourceId } from "../domain/observation.js";
import { LOW_WEIGHT, RELIABLE_WEIGHT, SCORE_BANDS } from "./reconcile.js";

/** What a source's voice weighs in an announcement (T423): its weight, and whether it speaks for the seller (D8 `verified`). */
export interface AnnouncementVoice {
  readonly weight: number;
  /** The source is the seller's own current price list (a maker's page, T292). */
  readonly authoritative?: boolean;
}

/**
 * A published price's announced end (issue 37 §4, issue 35 §5, T335; issue 47 §1, T420, T423).
 * - The maker's page outranks: when an agreeing authoritative source (the seller's own current price
 *   list) states no end of this price, none is published, whatever an aggregator dates — the
 *   aggregator's dated price is its dissent, not the price's end.
 * - Otherwise the stated end of the first agreeing source (in `agreeing` order: primary first) that
 *   states one for a day after the run's gives `effectiveUntil` (00:00 UTC of that day) and
 *   `announced` (the amount it states from then, or null when it states none). A source that agrees
 *   on the amount but states no end does not cancel another's statement; a stated end on or before
 *   the run's day is past (a carried statement that came true) and announces nothing. Days are
 *   compared as instants; a day that is no calendar day announces nothing (T420).
 * - The announcement's confidence follows its own sources (T423): those agreeing sources that state
 *   the same day and successor. One that speaks for the seller makes it `verified`; two or more are
 *   `high` (`medium` when another agreeing source dates the price otherwise); one alone is `medium`
 *   at {@link RELIABLE_WEIGHT} or more, `unverified` below {@link LOW_WEIGHT}, else `low` — as a
 *   lone source's price (D8), so one aggregator alone is never `verified`. Its score lies in the
 *   level's band by the corroboration of its sources (1 − Π(1 − wᵢ)).
 * Pure.
 */
export function validityOf(
  agreeing: readonly SourceId[],
  stated: (source: SourceId) => StatedValidity | null | undefined,
  runTime: string,
  voice: (source: SourceId) => AnnouncementVoice | undefined,
): PriceValidity {
  const today = dayInstant(runTime.slice(0, 10)) ?? Number.NaN;
  const ahead = (source: SourceId): StatedValidity | null => {
    const v = stated(source);
    const until = v ? dayInstant(v.until) : null;
    return v && until !== null && until > today ? v : null;
  };
  // T423: the seller's own page that states no end of this price outranks any aggregator's date.
  if (agreeing.some((s) => voice(s)?.authoritative === true && ahead(s) === null)) return OPEN;
  for (const source of agreeing) {
    const v = ahead(source);
    if (!v) continue;
    const effectiveUntil = dayStart(v.until);
    const same = (w: StatedValidity | null) =>
      w !== null &&
      w.until === v.until &&
      (w.next === null || v.next === null ? w.next === v.next : amountsAgree(w.next, v.next));
    const backing = agreeing.filter((s) => same(ahead(s)));
    const otherwise = agreeing.some((s) => ahead(s) !== null && !same(ahead(s)));
    const announced: AnnouncedPrice | null =
      v.next === null
        ? null
        : {
            amount: v.next,
            effectiveFrom: effectiveUntil,
            source,
            ...announcementConfidence(backing, otherwise, voice),
          };
    return { effectiveUntil, announced };
  }
  return OPEN;
}

const OPEN: PriceValidity = { effectiveUntil: null, announced: null };

/**
 * The agreeing sources whose stated end the seller's own page overrules (issue 46 §3, T466): when an
 * agreeing authoritative source states no end of the price (T423: its page withdrew the
 * announcement, or never made it), each agreeing source that still dates it for a day after the run
 * — genai-prices keeping the old end date — dissents on the price (`dissenting`), no longer agrees.
 * Empty otherwise. Pure; the arguments as {@link validityOf}'s.
 */
export function overruledEnds(
  agreeing: readonly SourceId[],
  stated: (source: SourceId) => StatedValidity | null | undefined,
  runTime: string,
  voice: (source: SourceId) => AnnouncementVoice | undefined,
): SourceId[] {
  const today = dayInstant(runTime.slice(0, 10)) ?? Number.NaN;
  const ahead = (source: SourceId) => {
    const until = dayInstant(stated(source)?.until ?? "");
    return until !== null && until > today;
  };
  if (!agreeing.some((s) => voice(s)?.authoritative === true && !ahead(s))) return [];
  return agreeing.filter((s) => voice(s)?.authoritative !== true && ahead(s));
}

/** The confidence of an announcement stated by `backing` (T423; see {@link validityOf}). */
function announcementConfidence(
  backing: readonly SourceId[],
  otherwise: boolean,
  voice: (source: SourceId) => AnnouncementVoice | undefined,
): { confidence: Confidence; confidenceScore: number } {
  const weight = (s: SourceId) => Math.min(voice(s)?.weight ?? 0, 0.999);
  let level: Confidence;
  if (backing.some((s) => voice(s)?.authoritative === true)) level = "verified";
  else if (backing.length >= 2) level = otherwise ? "medium" : "high";
  else if (otherwise) level = "low";
  else {
    const w = weight(backing[0]!);
    level = w >= RELIABLE_WEIGHT ? "medium" : w < LOW_WEIGHT ? "unverified" : "low";
  }
  const corroboration = 1 - backing.reduce((p, s) => p * (1 - weight(s)), 1);
  const [min, max] = SCORE_BANDS[level];
  return { confidence: level, confidenceScore: Math.round((min + (max - min) * corroboration) * 1000) / 1000 };
}
