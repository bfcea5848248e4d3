import { envelope } from "./envelope.js";
import { NoQuery, type RawQuery, validateQuery } from "./params.js";
import type { ApiProvider, Envelope } from "./shapes.js";
import type { CatalogueView } from "./view.js";

/** GET /providers: makers only, never resellers (D1, D29). */
export function listProviders(view: CatalogueView, raw: RawQuery = new Map()): Envelope<ApiProvider[]> {
  validateQuery(NoQuery, raw);
  return envelope(view, [...view.providers], { count: view.providers.length });
}
