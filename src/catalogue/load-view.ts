import type { CatalogueStore } from "../store/catalogue-store.js";
import { buildTimeline } from "./timeline.js";
import { buildView, type CatalogueView, type SourceRecordInfo } from "./view.js";

/**
 * Builds the view of a stored dataset version (the latest when `version` is omitted) with the
 * permanent record of changes, history and price spans (T146); null when the store holds no version.
 */
export async function loadView(
  store: CatalogueStore,
  registry: readonly SourceRecordInfo[],
  version?: string,
): Promise<CatalogueView | null> {
  const dataset = await store.loadDataset(version);
  if (!dataset) return null;
  const [changes, history] = await Promise.all([store.loadChanges(), store.loadHistory()]);
  // Every version's spans are read on the first `at=` question, not at start (T165). The timeline
  // ends at the version served: a view of an older version answers `at=` as of then.
  const timeline = async () => {
    const [runs, spans] = await Promise.all([store.listRuns(), store.loadSpans()]);
    const versions = runs.map((r) => r.datasetVersion).filter((v) => v <= dataset.run.datasetVersion);
    return buildTimeline(versions, spans);
  };
  return buildView(dataset, registry, new Date(), { changes, history, timeline });
}
