import type { Dataset } from "../domain/dataset.js";
import { priceKey } from "../domain/dataset.js";
import { dimensionKey } from "../domain/dimension.js";
import type { SourceId } from "../domain/observation.js";
import { listSnapshots, readSnapshotPayload } from "../sources/snapshot-reader.js";
import type { SourceAdapter } from "../sources/source.js";
import type { CatalogueStore, SourceState } from "../store/catalogue-store.js";
import { buildDataset, type PriorState, type SourceInput } from "./build-dataset.js";

/** What a caller hears while a replay runs (the CLI prints it as progress lines). */
export interface IngestReporter {
  skipped(date: string, reason: string): void;
  published(dataset: Dataset, index: number, total: number): void;
  sourceFailed(date: string, source: SourceId, message: string): void;
}

export const SILENT_REPORTER: IngestReporter = { skipped() {}, published() {}, sourceFailed() {} };

/**
 * Ingests a snapshot folder laid out as `<source>/<YYYY-MM-DD>/<files>` (issue 2 §6): one run per
 * date in date order, each publishing one dataset version whose version is the date (D9). Dates not
 * newer than the store's latest run are skipped. A source missing from a date did not run: its last
 * good listings are carried (they count, at half weight, and re-confirm nothing). A payload that does
 * not parse fails that source only; the run publishes with status `partial`.
 * @returns the published datasets, oldest first
 */
export async function ingestSnapshots(
  store: CatalogueStore,
  root: string,
  adapters: readonly SourceAdapter[],
  reporter: IngestReporter = SILENT_REPORTER,
): Promise<Dataset[]> {
  const layout = listSnapshots(root);
  const latest = await store.latestRun();
  const dates = [...layout.keys()].filter((date) => {
    const version = `${date}T00:00:00.000Z`;
    if (latest && version <= latest.datasetVersion) {
      reporter.skipped(date, `not newer than the store's latest run ${latest.datasetVersion}`);
      return false;
    }
    return true;
  });
  const published: Dataset[] = [];
  let prior = latest ? await priorOf(store) : null;
  let states = await store.loadSourceStates();
  for (const [i, date] of dates.entries()) {
    const present = new Set(layout.get(date) ?? []);
    const runTime = `${date}T00:00:00.000Z`;
    const inputs: SourceInput[] = [];
    const fresh: SourceState[] = [];
    for (const adapter of adapters) {
      const base = { source: adapter.id, weight: adapter.info.weight, authoritativeFor: adapter.info.authoritativeFor };
      const carried = states.get(adapter.id);
      if (!present.has(adapter.id)) {
        inputs.push({ ...base, listings: carried?.listings ?? [], fresh: false, error: null, ran: false });
        continue;
      }
      try {
        const payload = readSnapshotPayload(root, adapter.id, date);
        const listings = adapter.parse(payload);
        inputs.push({ ...base, listings, fresh: true, error: null, ran: true });
        fresh.push({ source: adapter.id, observedAt: payload.observedAt, listings });
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        reporter.sourceFailed(date, adapter.id, message);
        inputs.push({
          ...base,
          listings: carried?.listings ?? [],
          fresh: false,
          error: { message, httpStatus: null },
          ran: true,
        });
      }
    }
    const dataset = buildDataset({
      runId: `run-${runTime}`,
      runTime,
      finishedAt: new Date().toISOString(),
      sources: inputs,
      prior,
    });
    await store.publish(dataset, fresh);
    for (const s of fresh) states.set(s.source, s);
    prior = priorFromDataset(dataset);
    published.push(dataset);
    reporter.published(dataset, i + 1, dates.length);
  }
  states = new Map();
  return published;
}

async function priorOf(store: CatalogueStore): Promise<PriorState | null> {
  const dataset = await store.loadDataset();
  return dataset ? priorFromDataset(dataset) : null;
}

/** The parts of a published dataset the next run builds on. */
export function priorFromDataset(dataset: Dataset): PriorState {
  return {
    prices: new Map(
      dataset.prices.map((p) => [
        priceKey(p, dimensionKey(p)),
        { amount: p.amount, unit: p.unit, effectiveFrom: p.effectiveFrom, staleSince: p.staleSince },
      ]),
    ),
    models: new Map(dataset.models.map((m) => [m.id, { firstSeenAt: m.firstSeenAt, state: m.lifecycle.state }])),
    sources: new Map(dataset.sources.map((s) => [s.source, s])),
  };
}
