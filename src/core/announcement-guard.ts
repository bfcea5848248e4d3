import { amountsAgree } from "../domain/amount.js";
import { daysBetween, instantOf } from "../domain/calendar-day.js";
import { type StatedValidity, WITHDRAWAL_MEMORY_DAYS, type WithdrawnStatement } from "../domain/dated-price.js";
import { dimensionKey } from "../domain/dimension.js";
import type { Listing, PriceObservation } from "../domain/observation.js";
import type { GuardFailure, LastGoodRun } from "./source-guard.js";

/**
 * A source's announcements are part of its source guard (issue 47 §1, T424, T425). Pure. Checked,
 * like the guards of `source-guard.ts`, against the source's own last good run; a failure fails the
 * source (its last good data is kept, `/sources` shows the guard and its figure; `--accept` lets a
 * real one through):
 * - `announcement-flood` (T424): more announcements new since the last good run (a price that
 *   states an end and successor it did not state then) than {@link ANNOUNCEMENT_FLOOD_FACTOR} × the
 *   announcements of that run, and more than {@link ANNOUNCEMENT_FLOOD_MIN}. The recorded history
 *   announces at most 10 prices at once (genai-prices, Claude Opus and Sonnet 4.6's > 200K brackets
 *   on three sellers, read before 2026-03-13) and llm-prices 2 (DeepSeek Chat, before 2025-02-08);
 *   an invented payload of 1,194 is a flood.
 * - `announcement-flip` (T425): a price states again an announcement (same day, same successor) that
 *   the source withdrew at most {@link WITHDRAWAL_MEMORY_DAYS} days before, while its day was still
 *   ahead: a statement switched off and on, which would publish `price_announced` and
 *   `announcement_withdrawn` again on every run. The withdrawals are remembered on the stored
 *   listings ({@link withWithdrawals}).
 * An announcement is a price's stated end on a day after the run's (`validity`, T335).
 */

/** Fewest new announcements that can make a flood (T424): four times the most the history made at once. */
export const ANNOUNCEMENT_FLOOD_MIN = 40;
/** New announcements beyond this multiple of the last good run's are a flood (T424). */
export const ANNOUNCEMENT_FLOOD_FACTOR = 2;

/** A price's key in a source's listings: seller, model as spelled, dimension and unit. */
function keyOf(l: Listing, p: PriceObservation): string {
  return `${l.seller}\u0000${l.model}\u0000${dimensionKey(p.dimension)}\u0000${p.unit}`;
}

/** Whether a stated end lies after `day` (compared as instants, T420). */
function ahead(v: StatedValidity | undefined, day: string): v is StatedValidity {
  if (!v) return false;
  const until = instantOf(v.until);
  const today = instantOf(day.slice(0, 10));
  return until !== null && today !== null && until > today;
}

/** Two statements of an end: the same day and the same successor (none on both counts as the same). */
function sameStatement(a: StatedValidity, b: StatedValidity): boolean {
  if (a.until !== b.until) return false;
  if (a.next === null || b.next === null) return a.next === b.next;
  return amountsAgree(a.next, b.next);
}

/** Every price of `listings` by key (the first of duplicate keys wins). */
function pricesByKey(listings: readonly Listing[]): Map<string, PriceObservation> {
  const out = new Map<string, PriceObservation>();
  for (const l of listings) for (const p of l.prices) if (!out.has(keyOf(l, p))) out.set(keyOf(l, p), p);
  return out;
}

/**
 * Checks a parse's announcements against the source's last good run (see the module's comment).
 * @param day the run's day (`YYYY-MM-DD` or the payload's ISO time)
 * @returns the failure, or null when the announcements may be used (always null without a last good run)
 */
export function checkAnnouncements(
  next: readonly Listing[],
  last: LastGoodRun | null,
  day: string,
): GuardFailure | null {
  if (!last) return null;
  const before = pricesByKey(last.listings);
  let announcedBefore = 0;
  for (const p of before.values()) if (ahead(p.validity, day)) announcedBefore += 1;
  let added = 0;
  let flips = 0;
  let example: string | null = null;
  for (const l of next)
    for (const p of l.prices) {
      if (!ahead(p.validity, day)) continue;
      const then = before.get(keyOf(l, p));
      if (then?.validity && sameStatement(then.validity, p.validity)) continue;
      added += 1;
      const w = then?.withdrawn;
      if (
        w &&
        sameStatement(w, p.validity) &&
        (daysBetween(w.on, day) ?? Number.POSITIVE_INFINITY) <= WITHDRAWAL_MEMORY_DAYS
      ) {
        flips += 1;
        example ??= `${l.seller}/${l.model} until ${w.until}, withdrawn on ${w.on}`;
      }
    }
  const bound = Math.max(ANNOUNCEMENT_FLOOD_MIN, ANNOUNCEMENT_FLOOD_FACTOR * announcedBefore);
  if (added > bound)
    return {
      guard: "announcement-flood",
      figure: added,
      detail:
        `${added} prices announce an end or successor new since the last good run, which announced ` +
        `${announcedBefore} (more than the allowed ${bound})`,
    };
  if (flips > 0)
    return {
      guard: "announcement-flip",
      figure: flips,
      detail:
        `${flips} announcements withdrawn within the last ${WITHDRAWAL_MEMORY_DAYS} days are stated again ` +
        `(e.g. ${example}): an announcement switched off and on is not published again`,
    };
  return null;
}

/**
 * The listings to keep as the source's last good run, with its withdrawals remembered (T425): a price
 * whose announcement of the last good run (its day still ahead) is gone or changed now carries it as
 * `withdrawn` (`on`: this run's day); a memory of the last good run is carried while the price
 * states no announcement, its day is ahead and it is at most {@link WITHDRAWAL_MEMORY_DAYS} days old.
 * @param day the run's day (`YYYY-MM-DD` or the payload's ISO time)
 */
export function withWithdrawals(next: readonly Listing[], last: LastGoodRun | null, day: string): Listing[] {
  if (!last) return [...next];
  const before = pricesByKey(last.listings);
  const today = day.slice(0, 10);
  return next.map((l) => {
    let changed = false;
    const prices = l.prices.map((p) => {
      const then = before.get(keyOf(l, p));
      if (!then) return p;
      let memory: WithdrawnStatement | undefined;
      if (ahead(then.validity, day) && !(p.validity && sameStatement(then.validity, p.validity)))
        memory = { until: then.validity.until, next: then.validity.next, on: today };
      else if (
        !p.validity &&
        then.withdrawn &&
        ahead(then.withdrawn, day) &&
        (daysBetween(then.withdrawn.on, day) ?? Number.POSITIVE_INFINITY) <= WITHDRAWAL_MEMORY_DAYS
      )
        memory = then.withdrawn;
      if (!memory) return p;
      changed = true;
      return { ...p, withdrawn: memory };
    });
    return changed ? { ...l, prices } : l;
  });
}
