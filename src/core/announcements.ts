import { amountsAgree } from "../domain/amount.js";
import { dayInstant, instantOf } from "../domain/calendar-day.js";
import type { ChangeRecord } from "../domain/change.js";
import { type Dataset, type PublishedPrice, priceKey } from "../domain/dataset.js";
import { dimensionKey } from "../domain/dimension.js";
import { changeRecordOf, deltaPct, namesOf } from "./detect-changes.js";

/**
 * The change records of announcements between two consecutive dataset versions (issue 37 §4,
 * issue 35 §5, T337). Pure.
 * - `price_announced`: a price of `next` carries an end (`effectiveUntil`) that the same price of
 *   `previous` did not carry, or carried with another day or successor: `oldAmount` is the price
 *   now, `newAmount` the announced one (null: the price ends with no successor), `effectiveFrom`
 *   the day it takes effect. A new price that comes with an end is announced too.
 * - `announcement_withdrawn`: a price of `previous` announced an end still ahead of `next`'s run day,
 *   and the same price of `next` no longer states it (or states another): `oldAmount` the amount
 *   that was announced (null: the price was to end), `newAmount` the price that stays, `effectiveFrom` the day it was to take
 *   effect. An announcement that came due (its day reached) is not withdrawn; the price move then
 *   shows as the market kinds do. A price that left the catalogue takes its announcement with it
 *   (its `price_removed` says so).
 * `occurredAt` is `next`'s run. The first version (`previous` null) has nothing to compare.
 */
export function announcementChanges(previous: Dataset | null, next: Dataset): ChangeRecord[] {
  if (!previous) return [];
  const runTime = next.run.datasetVersion;
  // T420: days compared as instants (a stored end that is no instant is no end still ahead).
  const day = dayInstant(runTime.slice(0, 10)) ?? Number.NaN;
  const before = new Map(previous.prices.map((p) => [keyOf(p), p]));
  const names = namesOf(next, previous);
  const record = (
    kind: ChangeRecord["kind"],
    p: PublishedPrice,
    oldAmount: number | null,
    newAmount: number | null,
    effectiveFrom: string,
  ): ChangeRecord => ({
    ...changeRecordOf(kind, p, names(p.modelId), {
      oldAmount,
      newAmount,
      deltaPct: oldAmount === null || newAmount === null ? null : deltaPct(oldAmount, newAmount),
      occurredAt: runTime,
    }),
    effectiveFrom,
  });
  const changes: ChangeRecord[] = [];
  for (const now of next.prices) {
    const then = before.get(keyOf(now));
    if (then && sameAnnouncement(then, now)) continue;
    if (then?.effectiveUntil && (instantOf(then.effectiveUntil) ?? Number.NaN) > day)
      changes.push(
        record("announcement_withdrawn", now, then.announced?.amount ?? null, now.amount, then.effectiveUntil),
      );
    if (now.effectiveUntil)
      changes.push(record("price_announced", now, now.amount, now.announced?.amount ?? null, now.effectiveUntil));
  }
  return changes;
}

function keyOf(p: PublishedPrice): string {
  return priceKey(p, dimensionKey(p));
}

/** Whether two versions of a price state the same end and successor (none on both counts as the same). */
function sameAnnouncement(then: PublishedPrice, now: PublishedPrice): boolean {
  if ((then.effectiveUntil ?? null) !== (now.effectiveUntil ?? null)) return false;
  const a = then.announced ?? null;
  const b = now.announced ?? null;
  if (a === null || b === null) return a === b;
  return amountsAgree(a.amount, b.amount);
}
