import { envelope } from "./envelope.js";
import { NoQuery, type RawQuery, validateQuery } from "./params.js";
import type { ApiMeta, Envelope } from "./shapes.js";
import type { CatalogueView } from "./view.js";

/** GET /meta: the dataset summary (D28, D2 channels, rates contract v2). */
export function getMeta(view: CatalogueView, raw: RawQuery = new Map()): Envelope<ApiMeta> {
  validateQuery(NoQuery, raw);
  return envelope(view, view.meta);
}
