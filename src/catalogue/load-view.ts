import type { CatalogueStore } from "../store/catalogue-store.js";
import { buildTimeline } from "./timeline.js";
import { buildView, type CatalogueView, type SourceRecordInfo } from "./view.js";

/**
 * Opens a store for the point-in-time index loaded on first use (T165), and closes it after.
 * A long-lived server's views read their spans through it after `store` itself was closed.
 */
export type StoreOpener = () => Promise<{ store: CatalogueStore; release(): Promise<void> }>;

/**
 * Builds the view of a stored dataset version (the latest when `version` is omitted) with the
 * permanent record of changes, history and price spans (T146); null when the store holds no version.
 * With `spansFrom`, the spans are read on the first `at=` question through a store it opens (T165);
 * without, they are read now from `store`.
 */
export async function loadView(
  store: CatalogueStore,
  registry: readonly SourceRecordInfo[],
  version?: string,
  spansFrom?: StoreOpener,
): Promise<CatalogueView | null> {
  const dataset = await store.loadDataset(version);
  if (!dataset) return null;
  // A server loading a new version keeps answering between the steps (the embedded store reads
  // synchronously): requests wait for one step at most, not for the whole load (issue 27 §1).
  await turn();
  const changes = await store.loadChanges();
  await turn();
  const history = await store.loadHistory();
  await turn();
  // Every version's spans are read on the first `at=` question, not at start (T165). The timeline
  // ends at the version served: a view of an older version answers `at=` as of then.
  const read = async (from: CatalogueStore) => {
    const [runs, spans] = await Promise.all([from.listRuns(), from.loadSpans()]);
    const versions = runs.map((r) => r.datasetVersion).filter((v) => v <= dataset.run.datasetVersion);
    return buildTimeline(versions, spans);
  };
  const timeline = spansFrom
    ? async () => {
        const opened = await spansFrom();
        try {
          return await read(opened.store);
        } finally {
          await opened.release();
        }
      }
    : await read(store);
  return buildView(dataset, registry, new Date(), { changes, history, timeline });
}

/** Lets the event loop run what waits (requests) before the next step. */
function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
