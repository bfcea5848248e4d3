import type { CatalogueView } from "./view.js";

/** The envelope's own `meta` fields (api-v1.md "Response envelope"). */
export interface EnvelopeMeta {
  datasetVersion: string;
  generatedAt: string;
}

/**
 * Wraps a payload in the api-v1.md envelope for the view's dataset version; `extra` are the
 * endpoint's own `meta` fields (T13), typed so the endpoint's output schema checks them.
 */
export function envelope<T, M extends Record<string, unknown> = Record<never, never>>(
  view: CatalogueView,
  data: T,
  extra?: M,
): { data: T; meta: EnvelopeMeta & M } {
  return { data, meta: { datasetVersion: view.version, generatedAt: view.generatedAt, ...(extra as M) } };
}
