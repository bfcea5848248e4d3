import type { Envelope } from "./shapes.js";
import type { CatalogueView } from "./view.js";

/** Wraps a payload in the api-v1.md envelope for the view's dataset version. */
export function envelope<T>(view: CatalogueView, data: T, extra: Record<string, unknown> = {}): Envelope<T> {
  return { data, meta: { datasetVersion: view.version, generatedAt: view.generatedAt, ...extra } };
}
