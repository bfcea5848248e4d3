import type { CatalogueStore } from "../store/catalogue-store.js";
import { buildView, type CatalogueView, type SourceRecordInfo } from "./view.js";

/**
 * Builds the view of a stored dataset version (the latest when `version` is omitted) with the
 * permanent record of changes and history; null when the store holds no version.
 */
export async function loadView(
  store: CatalogueStore,
  registry: readonly SourceRecordInfo[],
  version?: string,
): Promise<CatalogueView | null> {
  const dataset = await store.loadDataset(version);
  if (!dataset) return null;
  const [changes, history] = await Promise.all([store.loadChanges(), store.loadHistory()]);
  return buildView(dataset, registry, new Date(), { changes, history });
}
