import type { HistoryPoint } from "../domain/change.js";
import type { Dataset } from "../domain/dataset.js";
import { priceKey } from "../domain/dataset.js";
import { dimensionKey } from "../domain/dimension.js";
import type { SourceId } from "../domain/observation.js";
import { displayUnit } from "../domain/unit.js";
import { listSnapshots, readSnapshotPayload } from "../sources/snapshot-reader.js";
import type { DatedPrice, SourceAdapter } from "../sources/source.js";
import type { CatalogueStore, SourceState } from "../store/catalogue-store.js";
import { buildDatasetWithIdentity, type PriorState, type SourceInput, type SpellingIndex } from "./build-dataset.js";
import { detectChanges, newHistoryPoints } from "./detect-changes.js";
import { baseLabel } from "./labels.js";

/** What a caller hears while a replay runs (the CLI prints it as progress lines). */
export interface IngestReporter {
  skipped(date: string, reason: string): void;
  published(dataset: Dataset, index: number, total: number, changes: number): void;
  sourceFailed(date: string, source: SourceId, message: string): void;
}

export const SILENT_REPORTER: IngestReporter = { skipped() {}, published() {}, sourceFailed() {} };

/**
 * Ingests a snapshot folder laid out as `<source>/<YYYY-MM-DD>/<files>` (issue 2 §6): one run per
 * date in date order, each publishing one dataset version whose version is the date (D9), with the
 * change records against the version before it and the new history points (issue 3). Dates not
 * newer than the store's latest run are skipped, so re-running a snapshot changes nothing. A source
 * missing from a date did not run: its last good listings are carried (T11). A payload that does
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
  if (dates.length === 0) return [];
  const published: Dataset[] = [];
  let previous = latest ? await store.loadDataset() : null;
  const states = await store.loadSourceStates();
  const lastPoints = lastPointIndex(await store.loadHistory());
  const firstRunDate = (await store.listRuns())[0]?.datasetVersion.slice(0, 10) ?? dates[0]!;
  for (const [i, date] of dates.entries()) {
    const present = new Set(layout.get(date) ?? []);
    const runTime = `${date}T00:00:00.000Z`;
    const inputs: SourceInput[] = [];
    const fresh: SourceState[] = [];
    const dated: { source: SourceId; rows: readonly DatedPrice[] }[] = [];
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
        if (adapter.parseHistory) dated.push({ source: adapter.id, rows: adapter.parseHistory(payload) });
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
    const { dataset, spellings } = buildDatasetWithIdentity({
      runId: `run-${runTime}`,
      runTime,
      finishedAt: new Date().toISOString(),
      sources: inputs,
      prior: previous ? priorFromDataset(previous) : null,
    });
    const changes = detectChanges(previous, dataset);
    const points = [
      ...upstreamPoints(dated, spellings, firstRunDate, lastPoints),
      ...newHistoryPoints(dataset, lastPoints),
    ];
    await store.publish(dataset, fresh, { changes, points });
    for (const s of fresh) states.set(s.source, s);
    for (const p of points)
      if (!p.recordedBy.startsWith("upstream:")) lastPoints.set(`${p.modelId}|${p.seriesKey}`, p.amount);
    previous = dataset;
    published.push(dataset);
    reporter.published(dataset, i + 1, dates.length, changes.length);
  }
  return published;
}

/** Last amount per `modelId|seriesKey` among recorded (not upstream-dated) points. */
function lastPointIndex(points: readonly HistoryPoint[]): Map<string, number> {
  const last = new Map<string, number>();
  for (const p of points) if (!p.recordedBy.startsWith("upstream:")) last.set(`${p.modelId}|${p.seriesKey}`, p.amount);
  return last;
}

/**
 * History points from an upstream's own dated prices (llm-prices `historical-v1.json`), for the
 * direct channel and only for dates before our first run: each row becomes a point on its
 * `fromDate`. Rows without `fromDate` cannot be dated and give no point. Re-publishing the same
 * point is a no-op in the store, so this is idempotent.
 */
function upstreamPoints(
  dated: readonly { source: SourceId; rows: readonly DatedPrice[] }[],
  spellings: SpellingIndex,
  firstRunDate: string,
  lastPoints: ReadonlyMap<string, number>,
): HistoryPoint[] {
  const points: HistoryPoint[] = [];
  for (const { source, rows } of dated) {
    for (const row of rows) {
      if (row.fromDate === null || row.fromDate >= firstRunDate) continue;
      const at = spellings.get(`${source}|${row.seller}|${row.model}`);
      if (!at || at.channel !== "direct") continue;
      const seriesKey = `${dimensionKey(row.dimension)}|${row.unit}`;
      points.push({
        modelId: at.modelId,
        seriesKey,
        label: baseLabel(row.dimension),
        displayUnit: displayUnit(row.unit, row.denomination, row.currency),
        date: row.fromDate,
        amount: row.amount,
        seq: 0,
        recordedBy: `upstream:${source}`,
      });
    }
  }
  return points;
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
