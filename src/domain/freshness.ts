import type { SourceRunStatus } from "./dataset.js";
import type { SourceAttempt } from "./source-attempt.js";

/**
 * How fresh data must be to count as current (issue 27, T223–T225): the bounds every layer shares
 * (the pure core caps confidence with them, the catalogue judges source health with them, the web
 * catalogue shows its notice with them). Pure.
 */

/** One day in milliseconds. */
export const DAY_MS = 86_400_000;

/**
 * Evidence older than this many days before a run counts for nothing toward `verified` or `high`
 * (D8), from any source; a price whose newest evidence is that old is stale (T224).
 */
export const EVIDENCE_MAX_AGE_DAYS = 90;

/**
 * A maker's own price page counts as current for this many days after its capture (issue 35,
 * T292): within it, the page's amount makes a direct price `verified` and outranks every
 * aggregator, also in runs that bring no new copy. The pages change monthly at most in the
 * recorded history and their recorders capture them daily to monthly: a month and a few days'
 * slack (the 2026-05-01 Anthropic copy still speaks in the 2026-06-01 run, 31 days later).
 */
export const VERIFIED_PAGE_MAX_AGE_DAYS = 35;

/**
 * A source that has not succeeded within this many days before the dataset version is not healthy,
 * and data older than this is not current: the web catalogue says so (T225).
 */
export const CURRENT_WITHIN_DAYS = 7;

/**
 * A source's health as a person reads it (T225), judged at the dataset version: `fresh` (its
 * evidence is current), `stale` (it did not fail, but it has not succeeded within
 * {@link CURRENT_WITHIN_DAYS}: absent from the runs, or never succeeded), `failing` (its run for
 * this version failed; its last good listings are carried).
 */
export const SOURCE_HEALTH = ["fresh", "stale", "failing"] as const;
export type SourceHealthState = (typeof SOURCE_HEALTH)[number];

/**
 * The health of a source in a dataset version (T225).
 * @param lastSuccessAt when the source last succeeded (ISO), null when never
 * @param lastRunStatus its outcome in the run of `datasetVersion`
 * @param datasetVersion the version judged (ISO); the clock plays no part, so a version's answer never changes
 */
export function sourceHealth(
  lastSuccessAt: string | null,
  lastRunStatus: SourceRunStatus,
  datasetVersion: string,
): SourceHealthState {
  if (lastRunStatus === "failed") return "failing";
  if (lastSuccessAt === null) return "stale";
  return Date.parse(datasetVersion) - Date.parse(lastSuccessAt) > CURRENT_WITHIN_DAYS * DAY_MS ? "stale" : "fresh";
}

/**
 * Whole days from `then` to `now` (both ISO or epoch ms), never negative: the "N days old" of the
 * start log and the web catalogue.
 */
export function daysBetween(then: string | number, now: string | number): number {
  const a = typeof then === "string" ? Date.parse(then) : then;
  const b = typeof now === "string" ? Date.parse(now) : now;
  return Math.max(0, Math.floor((b - a) / DAY_MS));
}

/** An age in whole days as the start log and the web catalogue say it: "less than a day", "1 day", "12 days". */
export function describeDays(days: number): string {
  return days < 1 ? "less than a day" : days === 1 ? "1 day" : `${days} days`;
}

/**
 * A source's health now (issue 38 §1, T310; amends T225's "judged at the version"): what the newest
 * of the served version's run and the source's last live attempt says, against the current time.
 * `failing` when that newest outcome is a failure; `stale` when the source has not succeeded (in a
 * published run or an attempt) within {@link CURRENT_WITHIN_DAYS} before `now`, or never; else `fresh`.
 * @param version the served version's record of the source (`lastRunAt` null when it never ran)
 * @param attempt its last live attempt, null when no live run ever tried it
 * @param now the time judged at (ISO), the wall clock in a server
 */
export function sourceHealthNow(
  version: {
    readonly lastSuccessAt: string | null;
    readonly lastRunStatus: SourceRunStatus;
    readonly lastRunAt: string | null;
  },
  attempt: Pick<SourceAttempt, "at" | "status"> | null,
  now: string,
): SourceHealthState {
  const attemptIsNewest = attempt !== null && (version.lastRunAt === null || attempt.at >= version.lastRunAt);
  if (attemptIsNewest ? attempt.status === "failed" : version.lastRunStatus === "failed") return "failing";
  const successes = [version.lastSuccessAt, attempt && attempt.status !== "failed" ? attempt.at : null].filter(
    (t): t is string => t !== null,
  );
  if (successes.length === 0) return "stale";
  const last = Math.max(...successes.map((t) => Date.parse(t)));
  return Date.parse(now) - last > CURRENT_WITHIN_DAYS * DAY_MS ? "stale" : "fresh";
}
