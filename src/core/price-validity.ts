import { type AnnouncedPrice, dayStart, type PriceValidity, type StatedValidity } from "../domain/dated-price.js";
import type { SourceId } from "../domain/observation.js";

/**
 * A published price's announced end (issue 37 §4, issue 35 §5, T335): the stated end of the first
 * agreeing source (in `agreeing` order: primary first) that states one for a day after the run's,
 * as `effectiveUntil` (00:00 UTC of that day) and `announced` (the amount it states from then, or
 * null when it states none). A source that agrees on the amount but states no end does not cancel
 * another's statement; a stated end on or before the run's day is past (a carried statement that
 * came true) and announces nothing. Pure.
 */
export function validityOf(
  agreeing: readonly SourceId[],
  stated: (source: SourceId) => StatedValidity | null | undefined,
  runTime: string,
): PriceValidity {
  const day = runTime.slice(0, 10);
  for (const source of agreeing) {
    const v = stated(source);
    if (!v || v.until <= day) continue;
    const effectiveUntil = dayStart(v.until);
    const announced: AnnouncedPrice | null =
      v.next === null ? null : { amount: v.next, effectiveFrom: effectiveUntil, source };
    return { effectiveUntil, announced };
  }
  return { effectiveUntil: null, announced: null };
}
