import { isCalendarDay } from "../domain/calendar-day.js";
import { withCurrencyQualifier } from "../domain/currency-qualifier.js";
import type { DatedPrice } from "../domain/dated-price.js";
import type { Listing, PriceObservation } from "../domain/observation.js";
import { type AnnouncementReason, screenAnnouncements } from "./announcement-screen.js";
import type { RejectReason } from "./plausibility.js";

/**
 * The adapter boundary (issue 33 §2, T252, T253): what every source's parsed listings pass before
 * anything else reads or stores them (the pipeline's `parseOutcome`, one place for all adapters).
 * Pure. One bad record costs that record, never the source or the run:
 *
 * - a price whose amount or context bracket is not a finite number (OpenRouter `"1e999"`, or
 *   `"1e308"` and LiteLLM's per-token `1e303` once scaled to per 1M tokens) is dropped and counted
 *   as `not_finite` in the source's `rejectedByReason` (`/sources`); a non-finite context window or
 *   output limit becomes unknown (null);
 * - control characters (C0 with NUL, DEL, C1) in an identifier (model id, seller, maker hint,
 *   aliases, canonical slug, weights repo) become U+FFFD, so the listing can be stored by every
 *   store (PostgreSQL refuses NUL) and identity refuses the id with its reason
 *   (`canonical-id.ts`, counted unmatched); in display text (names, family, qualifier values) they
 *   and Unicode format characters (zero-width, bidi overrides, BOM) are removed (a tab or line break
 *   becomes a space: models.dev writes `DeepSeek R1 (Turbo)\t`);
 * - a money price in a currency other than USD carries the qualifier `currency` (its ISO 4217 code),
 *   so a maker's CNY list has slots of its own and is never compared with USD amounts (T508);
 * - a price's announcement (its stated end and successor, T335) is judged like a price when the
 *   run's day is given (`announcement-screen.ts`, issue 47 §1, T420–T422): a refused one is removed
 *   from its price and counted with its reason.
 */

/**
 * Why the boundary dropped a price, or refused its announcement (issue 47 §1, T420–T422): one of the
 * guards' reasons, so `/sources` counts it with them.
 */
export type BoundaryReason = Extract<RejectReason, "not_finite"> | AnnouncementReason;

/** What {@link screenAtBoundary} returns. */
export interface BoundaryResult {
  readonly listings: Listing[];
  /** Prices dropped, per reason (reasons with none are absent). */
  readonly rejected: Readonly<Partial<Record<BoundaryReason, number>>>;
}

/** C0 (NUL included), DEL and C1 control characters (Unicode's `Cc`). */
const CONTROL = /\p{Cc}/gu;
/** Control characters and Unicode format characters (`\p{Cf}`: zero-width, bidi controls, BOM, soft hyphen). */
const INVISIBLE = /\p{Cc}|\p{Cf}/gu;

/** `id` with every control character as U+FFFD (format characters are kept for identity to judge). */
export function markControls(id: string): string {
  return id.replace(CONTROL, "\uFFFD");
}

/** Display `text` without control or format characters (a tab or line break becomes a space). */
export function stripInvisible(text: string): string {
  return text.replace(/[\t\n\r]/g, " ").replace(INVISIBLE, "");
}

const finiteOrNull = (n: number | null): number | null => (n === null || Number.isFinite(n) ? n : null);
const textOrNull = (s: string | null | undefined): string | null | undefined =>
  typeof s === "string" ? stripInvisible(s) : s;
const idOrNull = (s: string | null | undefined): string | null | undefined =>
  typeof s === "string" ? markControls(s) : s;

/** True when every number of the price is finite (amount and context bracket). */
function finitePrice(p: Pick<PriceObservation, "amount" | "dimension">): boolean {
  const { contextMin, contextMax } = p.dimension;
  return (
    Number.isFinite(p.amount) && Number.isFinite(contextMin) && (contextMax === null || Number.isFinite(contextMax))
  );
}

/** A price's qualifiers with display-safe keys and values, and its currency's qualifier (T508). */
function cleanPrice(p: PriceObservation): PriceObservation {
  const q = p.dimension.qualifiers;
  if (!Object.entries(q).some(([k, v]) => stripInvisible(k) !== k || stripInvisible(v) !== v))
    return withCurrencyQualifier(p);
  const qualifiers = Object.fromEntries(Object.entries(q).map(([k, v]) => [stripInvisible(k), stripInvisible(v)]));
  return withCurrencyQualifier({ ...p, dimension: { ...p.dimension, qualifiers } });
}

/**
 * Screens one source's parsed listings at the boundary (see the module's comment).
 * @param day the run's day (`YYYY-MM-DD` or the payload's ISO time) its announcements are judged at;
 *   omitted: announcements are not judged
 */
export function screenAtBoundary(listings: readonly Listing[], day?: string): BoundaryResult {
  let notFinite = 0;
  const out = listings.map((l): Listing => {
    const prices = l.prices.filter(finitePrice);
    notFinite += l.prices.length - prices.length;
    const cleaned: Listing = {
      ...l,
      seller: markControls(l.seller),
      model: markControls(l.model),
      makerHint: idOrNull(l.makerHint) ?? null,
      name: textOrNull(l.name) ?? null,
      family: textOrNull(l.family) ?? null,
      contextWindow: finiteOrNull(l.contextWindow),
      maxOutputTokens: finiteOrNull(l.maxOutputTokens),
      prices: prices.map(cleanPrice),
    };
    const optional: Partial<Record<keyof Listing, unknown>> = {};
    if (l.aliases) optional.aliases = l.aliases.map(markControls);
    if (l.canonicalSlug !== undefined) optional.canonicalSlug = idOrNull(l.canonicalSlug);
    if (l.huggingFaceId !== undefined) optional.huggingFaceId = idOrNull(l.huggingFaceId);
    if (l.publisherName !== undefined) optional.publisherName = textOrNull(l.publisherName);
    return { ...cleaned, ...optional } as Listing;
  });
  const rejected: Partial<Record<BoundaryReason, number>> = notFinite > 0 ? { not_finite: notFinite } : {};
  if (day === undefined) return { listings: out, rejected };
  const announced = screenAnnouncements(out, day);
  for (const [reason, n] of Object.entries(announced.rejected) as [AnnouncementReason, number][])
    rejected[reason] = (rejected[reason] ?? 0) + n;
  return { listings: announced.listings, rejected };
}

/**
 * A source's dated history at the boundary: rows with a non-finite amount, or a date that is no real
 * calendar day (T420), dropped; ids' control characters as U+FFFD.
 */
export function screenHistoryAtBoundary(rows: readonly DatedPrice[]): DatedPrice[] {
  return rows
    .filter(
      (r) =>
        finitePrice(r) &&
        (r.fromDate === null || isCalendarDay(r.fromDate)) &&
        (r.toDate === null || isCalendarDay(r.toDate)),
    )
    .map((r) => ({ ...r, seller: markControls(r.seller), model: markControls(r.model) }));
}
