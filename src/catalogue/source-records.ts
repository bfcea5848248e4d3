import { createHash } from "node:crypto";
import type { Dataset, RunRecord, SourceRunStatus } from "../domain/dataset.js";
import { sourceHealthNow } from "../domain/freshness.js";
import type { SourceAttempt } from "../domain/source-attempt.js";
import { judgeView } from "./judged-view.js";
import type { ApiMeta, ApiSource } from "./schemas.js";
import type { CatalogueView, SourceRecordInfo } from "./view.js";

/**
 * The `/sources` records (D4; additions T65, T75, T225, T310): each configured source's record in
 * the served version, with its last live attempt, the last error that attempt brought when it is
 * newer, and its health judged at `now`.
 * @param attempts the store's last attempt per source (T310), any order; sources without one get null
 * @param now ISO time the health is judged at (the wall clock in a server)
 * @returns the records in registry order, and their digest (the `/sources` ETag's basis, T310)
 */
export function apiSources(
  dataset: Dataset,
  registry: readonly SourceRecordInfo[],
  attempts: readonly SourceAttempt[],
  now: string,
): { sources: ApiSource[]; lastRun: ApiMeta["lastRun"]; sourcesRevision: string } {
  const health = new Map(dataset.sources.map((s) => [s.source as string, s]));
  const lastAttempt = new Map(attempts.map((a) => [a.source as string, a]));
  const sources: ApiSource[] = registry.map((s) => {
    const h = health.get(s.id);
    const version = {
      lastSuccessAt: h?.lastSuccessAt ?? null,
      lastRunStatus: h?.lastRunStatus ?? "not_run",
      lastRunAt: h?.lastRunAt ?? null,
    };
    const attempt = lastAttempt.get(s.id) ?? null;
    const run = lastRunOfSource(version, attempt);
    // The attempt's error is the source's last one when it is newer than what the version records.
    const attemptError =
      attempt?.error && (h?.lastError == null || attempt.at > h.lastError.at)
        ? { at: attempt.at, ...attempt.error }
        : null;
    return {
      source: s.id,
      name: s.info.name,
      license: s.info.license,
      homepage: s.info.homepage,
      weight: s.info.weight,
      authoritative: s.info.authoritativeFor.length > 0,
      lastSuccessAt: version.lastSuccessAt,
      lastError: attemptError ?? (h?.lastError ? { ...h.lastError } : null),
      rowsLastRun: h?.rowsLastRun ?? 0,
      unmatchedLastRun: h?.unmatchedLastRun ?? 0,
      lastRunStatus: run.lastRunStatus,
      lastRunAt: run.lastRunAt,
      rejectedLastRun: h?.rejectedLastRun ?? 0,
      rejectedByReason: { ...(h?.rejectedByReason ?? {}) },
      unmappedLastRun: h?.unmappedLastRun ?? 0,
      unmappedByField: { ...(h?.unmappedByField ?? {}) },
      ...pageCounts(h?.unmappedByField ?? {}),
      skippedFields: { ...(s.info.skippedFields ?? {}) },
      lastAttempt: attempt
        ? { at: attempt.at, status: attempt.status, error: attempt.error ? { ...attempt.error } : null }
        : null,
      health: sourceHealthNow(version, attempt, now),
    };
  });
  const lastRun = lastRunNow(dataset.run, attempts);
  const sourcesRevision = createHash("sha1")
    .update(JSON.stringify([sources, lastRun]))
    .digest("base64url")
    .slice(0, 16);
  return { sources, lastRun, sourcesRevision };
}

/**
 * A maker's page's counts in its Source record (issue 46, T465, T467, T468): the entries of its
 * `unmappedByField` by their prefix, each entry's occurrences added up.
 */
export function pageCounts(
  unmapped: Readonly<Record<string, number>>,
): Pick<ApiSource, "unmatchedPageRows" | "sentencesForReview" | "pendingMoves"> {
  const sum = (prefix: string) => Object.entries(unmapped).reduce((n, [k, v]) => (k.startsWith(prefix) ? n + v : n), 0);
  return {
    unmatchedPageRows: sum("unmatched row: "),
    sentencesForReview: sum("sentence for review: "),
    pendingMoves: sum("pending move: "),
  };
}

/**
 * A source's `lastRunStatus` / `lastRunAt` (issue 50 §4, T450; amends T310): its last live attempt's
 * when that is newer than the served version's run (an answer with the same payload, `unchanged`,
 * is a run that succeeded), else the version's. A live run that published nothing (T221, T240) still
 * ran: `/sources` says what came of it.
 */
export function lastRunOfSource(
  version: { readonly lastRunStatus: SourceRunStatus; readonly lastRunAt: string | null },
  attempt: Pick<SourceAttempt, "at" | "status"> | null,
): { lastRunStatus: SourceRunStatus; lastRunAt: string | null } {
  if (attempt === null || (version.lastRunAt !== null && Date.parse(attempt.at) <= Date.parse(version.lastRunAt)))
    return { lastRunStatus: version.lastRunStatus, lastRunAt: version.lastRunAt };
  return { lastRunStatus: attempt.status === "failed" ? "failed" : "succeeded", lastRunAt: attempt.at };
}

/**
 * `/meta`'s `lastRun` (D28; issue 50 §4, T450): the served version's run, unless a later live run
 * tried the sources and published nothing (T221, T240). That run is then the last one: `failed`
 * when every source it tried failed, `partial` when some did, else `succeeded` (all answered with
 * what the version already holds). Its `id` is `run-<start>` like a published run's, and its
 * `finishedAt` is its start: the attempts are recorded with the run's start time only.
 * @param attempts the store's last attempt per source (T310); a run's attempts share its start as `at`
 */
export function lastRunNow(run: RunRecord, attempts: readonly SourceAttempt[]): ApiMeta["lastRun"] {
  const published = { id: run.id, status: run.status as string, finishedAt: run.finishedAt };
  let newest = Number.NEGATIVE_INFINITY;
  for (const a of attempts) newest = Math.max(newest, Date.parse(a.at));
  if (!(newest > Date.parse(run.startedAt))) return published;
  const tried = attempts.filter((a) => Date.parse(a.at) === newest);
  const failed = tried.filter((a) => a.status === "failed").length;
  const at = new Date(newest).toISOString();
  return {
    id: `run-${at}`,
    status: failed === tried.length ? "failed" : failed > 0 ? "partial" : "succeeded",
    finishedAt: at,
  };
}

/**
 * The view with its `/sources` records rebuilt from the newest attempts and judged at `now` (T310),
 * its prices' `verified` judged again from the pages' last reads (T460), the same object when
 * nothing in them changed (so no response table is rebuilt for nothing).
 */
export function withSourceAttempts(
  view: CatalogueView,
  registry: readonly SourceRecordInfo[],
  attempts: readonly SourceAttempt[],
  now: string,
): CatalogueView {
  const { lastRun, ...next } = apiSources(view.dataset, registry, attempts, now);
  if (next.sourcesRevision === view.sourcesRevision) return view;
  return judgeView({ ...view, ...next, meta: { ...view.meta, lastRun } }, Date.parse(now));
}
