import { createHash } from "node:crypto";
import type { Dataset } from "../domain/dataset.js";
import { sourceHealthNow } from "../domain/freshness.js";
import type { SourceAttempt } from "../domain/source-attempt.js";
import type { ApiSource } from "./schemas.js";
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
): { sources: ApiSource[]; sourcesRevision: string } {
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
      lastRunStatus: version.lastRunStatus,
      lastRunAt: version.lastRunAt,
      rejectedLastRun: h?.rejectedLastRun ?? 0,
      rejectedByReason: { ...(h?.rejectedByReason ?? {}) },
      unmappedLastRun: h?.unmappedLastRun ?? 0,
      unmappedByField: { ...(h?.unmappedByField ?? {}) },
      skippedFields: { ...(s.info.skippedFields ?? {}) },
      lastAttempt: attempt
        ? { at: attempt.at, status: attempt.status, error: attempt.error ? { ...attempt.error } : null }
        : null,
      health: sourceHealthNow(version, attempt, now),
    };
  });
  const sourcesRevision = createHash("sha1").update(JSON.stringify(sources)).digest("base64url").slice(0, 16);
  return { sources, sourcesRevision };
}

/**
 * The view with its `/sources` records rebuilt from the newest attempts and judged at `now` (T310),
 * the same object when nothing in them changed (so no response table is rebuilt for nothing).
 */
export function withSourceAttempts(
  view: CatalogueView,
  registry: readonly SourceRecordInfo[],
  attempts: readonly SourceAttempt[],
  now: string,
): CatalogueView {
  const next = apiSources(view.dataset, registry, attempts, now);
  if (next.sourcesRevision === view.sourcesRevision) return view;
  return { ...view, ...next };
}
