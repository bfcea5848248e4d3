import { envelope } from "./envelope.js";
import { NoQuery, type RawQuery, validateQuery } from "./params.js";
import type { ApiSource, Envelope } from "./shapes.js";
import type { CatalogueView } from "./view.js";

/** GET /sources: one record per configured source with its health (D4). */
export function listSources(view: CatalogueView, raw: RawQuery = new Map()): Envelope<ApiSource[]> {
  validateQuery(NoQuery, raw);
  return envelope(view, [...view.sources], { count: view.sources.length });
}
