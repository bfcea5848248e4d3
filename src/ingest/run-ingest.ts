import type { Dataset } from "../domain/dataset.js";
import type { SourceId } from "../domain/observation.js";
import { listSnapshots, readSnapshotPayload, snapshotTime } from "../sources/snapshot-reader.js";
import type { SourceAdapter } from "../sources/source.js";
import type { CatalogueStore } from "../store/catalogue-store.js";
import { listManifestFolders, readRunManifest } from "./payload-archive.js";
import { loadRunContext, publishRun, type SourceOutcome } from "./run-pipeline.js";

/** What a caller hears while a replay runs (the CLI prints it as progress lines). */
export interface IngestReporter {
  skipped(date: string, reason: string): void;
  published(dataset: Dataset, index: number, total: number, changes: number): void;
  sourceFailed(date: string, source: SourceId, message: string): void;
}

export const SILENT_REPORTER: IngestReporter = { skipped() {}, published() {}, sourceFailed() {} };

/**
 * Ingests a snapshot folder laid out as `<source>/<YYYY-MM-DD>/<files>` (issue 2 §6), or a live
 * run archive (`<source>/<run time>/<files>` plus `runs/<run>.json` manifests, T40): one run per
 * folder in time order, through the pipeline the live ingester uses (`run-pipeline.ts`), each publishing one dataset version whose version is the date (D9), with the
 * change records against the version before it and the new history points (issue 3). Dates not
 * newer than the store's latest run are skipped, so re-running a snapshot changes nothing. A source
 * missing from a date did not run: its last good listings are carried (T11). A payload that does
 * not parse fails that source only; the run publishes with status `partial`.
 * Between runs it yields to the event loop, so signals are heard; once `signal` is aborted it stops
 * there (the run in progress finishes and is published, none after it is started).
 * @returns the published datasets, oldest first
 */
export async function ingestSnapshots(
  store: CatalogueStore,
  root: string,
  adapters: readonly SourceAdapter[],
  reporter: IngestReporter = SILENT_REPORTER,
  signal?: AbortSignal,
): Promise<Dataset[]> {
  const layout = listSnapshots(root);
  for (const folder of listManifestFolders(root)) if (!layout.has(folder)) layout.set(folder, []);
  const latest = await store.latestRun();
  const dates = [...layout.keys()].sort().filter((date) => {
    const version = snapshotTime(date);
    if (latest && version <= latest.datasetVersion) {
      reporter.skipped(date, `not newer than the store's latest run ${latest.datasetVersion}`);
      return false;
    }
    return true;
  });
  if (dates.length === 0) return [];
  const published: Dataset[] = [];
  const ctx = await loadRunContext(store);
  for (const [i, date] of dates.entries()) {
    await new Promise((resolve) => setImmediate(resolve));
    if (signal?.aborted) break;
    const present = new Set(layout.get(date) ?? []);
    const manifest = readRunManifest(root, date);
    const outcomes = new Map<SourceId, SourceOutcome>();
    for (const adapter of adapters) {
      if (present.has(adapter.id)) {
        try {
          outcomes.set(adapter.id, { kind: "payload", payload: readSnapshotPayload(root, adapter.id, date) });
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          outcomes.set(adapter.id, { kind: "failed", message, httpStatus: null });
        }
        continue;
      }
      // A live run's recorded failure replays as that failure (T40).
      const error = manifest?.sources[adapter.id]?.error;
      if (error) outcomes.set(adapter.id, { kind: "failed", ...error });
    }
    const { dataset, changes } = await publishRun(store, ctx, adapters, {
      runTime: snapshotTime(date),
      outcomes,
      guards: null,
      finishedAt: manifest?.finishedAt,
      onSourceFailed: (source, failure) => reporter.sourceFailed(date, source, failure.message),
    });
    published.push(dataset);
    reporter.published(dataset, i + 1, dates.length, changes);
  }
  return published;
}

export { priorFromDataset } from "../core/prior-state.js";
