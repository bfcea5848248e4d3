import { daysBetween, isCalendarDay } from "../domain/calendar-day.js";
import type { Listing, PriceObservation } from "../domain/observation.js";
import { OUTLIER_FACTOR, type RejectReason } from "./plausibility.js";
import { outsideBounds } from "./price-bounds.js";

/**
 * An announcement is evidence, judged like a price (issue 47 §1, T420–T422). Pure. Each price a
 * source dates (`validity: {until, next}`, T335) passes, at the adapter boundary, the guards today's
 * prices pass; one that fails loses its stated end and successor (the price itself stays, judged by
 * the plausibility guards as any other), and is counted in its source's rejections with its reason
 * (`/sources` `rejectedByReason`):
 * - `invalid_date`: `until` is no real calendar day (`2027-13-45`, `2027-02-30`; T420);
 * - `beyond_horizon`: `until` lies more than {@link ANNOUNCEMENT_HORIZON_DAYS} days after the run (T421);
 * - `not_finite`: the announced amount is no finite number (T252);
 * - `announced_out_of_bounds`: the announced amount is outside the bounds of its unit and direction
 *   (`price-bounds.ts` BOUNDS: 3996 USD per 1M output tokens), or not above 0 (T422);
 * - `announced_jump`: the announced amount is {@link OUTLIER_FACTOR} times or more off the price it
 *   replaces (gpt-4o's 2.5 → 999): a unit slip or an invented record, never a price move (T422).
 * A stated end on or before the run's day is history, not an announcement, and is left to the
 * reconciliation (a carried statement that came true announces nothing, T335).
 */

/** How far ahead an announced day may lie, in days after the run (T421): a year and a month's notice. */
export const ANNOUNCEMENT_HORIZON_DAYS = 400;

/** Why an announcement was refused (a subset of the guards' reasons, counted with them). */
export type AnnouncementReason = Extract<
  RejectReason,
  "invalid_date" | "beyond_horizon" | "not_finite" | "announced_out_of_bounds" | "announced_jump"
>;

/**
 * The verdict on one price's stated end (T420–T422): null when it may stand (or the price states
 * none), else the reason it is refused.
 * @param day the run's day (`YYYY-MM-DD` or an ISO timestamp of the run)
 */
export function judgeAnnouncement(p: PriceObservation, day: string): AnnouncementReason | null {
  const v = p.validity;
  if (!v) return null;
  if (!isCalendarDay(v.until)) return "invalid_date";
  const ahead = daysBetween(day, v.until);
  if (ahead === null || ahead <= 0) return null; // history: the reconciliation ignores it (T335)
  if (ahead > ANNOUNCEMENT_HORIZON_DAYS) return "beyond_horizon";
  if (v.next === null) return null;
  if (!Number.isFinite(v.next)) return "not_finite";
  if (!(v.next > 0) || outsideBounds(v.next, p.unit, p.dimension.direction)) return "announced_out_of_bounds";
  if (p.amount > 0 && Math.max(v.next / p.amount, p.amount / v.next) >= OUTLIER_FACTOR) return "announced_jump";
  return null;
}

/** What {@link screenAnnouncements} returns. */
export interface AnnouncementScreen {
  /** The listings with every refused announcement removed from its price (same order, same prices). */
  readonly listings: Listing[];
  /** Announcements refused, per reason (reasons with none are absent). */
  readonly rejected: Readonly<Partial<Record<AnnouncementReason, number>>>;
}

/**
 * Judges every announcement of one source's parse (see the module's comment).
 * @param day the run's day (`YYYY-MM-DD` or an ISO timestamp of the run)
 */
export function screenAnnouncements(listings: readonly Listing[], day: string): AnnouncementScreen {
  const rejected: Partial<Record<AnnouncementReason, number>> = {};
  const out = listings.map((l): Listing => {
    if (!l.prices.some((p) => p.validity)) return l;
    return {
      ...l,
      prices: l.prices.map((p) => {
        const reason = judgeAnnouncement(p, day);
        if (reason === null) return p;
        rejected[reason] = (rejected[reason] ?? 0) + 1;
        const { validity: _refused, ...rest } = p;
        return rest;
      }),
    };
  });
  return { listings: out, rejected };
}
