/**
 * Calendar days as announcements state them (issue 47 §1, T420): `YYYY-MM-DD` that names a real
 * day of the Gregorian calendar in UTC ("2027-13-45" and "2027-02-30" do not), read as the instant
 * that day starts. Days are compared as instants, never as text.
 */

/** One day in milliseconds. */
const DAY_MS = 86_400_000;

/** The instant (ms since the epoch) 00:00 UTC of `day` starts, or null when `day` is no real calendar day. */
export function dayInstant(day: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  const t = Date.UTC(y, mo - 1, d);
  const back = new Date(t);
  // Date.UTC rolls 2027-02-30 over to 2027-03-02, and years 0–99 over to 1900–1999: both are refused.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return t;
}

/** True when `day` is `YYYY-MM-DD` naming a real calendar day (T420). */
export function isCalendarDay(day: unknown): day is string {
  return typeof day === "string" && dayInstant(day) !== null;
}

/** The UTC day (`YYYY-MM-DD`) an ISO 8601 timestamp or day falls on, as an instant (ms); null when unreadable. */
export function instantOf(timestamp: string): number | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(timestamp)) return dayInstant(timestamp);
  const t = Date.parse(timestamp);
  return Number.isNaN(t) ? null : t;
}

/** Whole days from `from` to `to` (both `YYYY-MM-DD` or ISO timestamps), counted between their UTC day starts; null when either is unreadable. */
export function daysBetween(from: string, to: string): number | null {
  const a = instantOf(from);
  const b = instantOf(to);
  if (a === null || b === null) return null;
  return Math.floor(b / DAY_MS) - Math.floor(a / DAY_MS);
}
