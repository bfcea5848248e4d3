import { envelope } from "./envelope.js";
import { decodeCursor, matchModels, modelFilter, page } from "./model-query.js";
import { ListModelsQuery, MODEL_LIST_LIMIT, type RawQuery, splitList, validateQuery } from "./params.js";
import type { ApiModel, Envelope } from "./shapes.js";
import { type CatalogueView, toApiModel } from "./view.js";

/**
 * GET /models: filtered, keyset-paginated model list with direct prices (D10–D12, D16).
 * @throws CatalogueError bad_request for a bad limit, confidence or cursor
 */
export function listModels(view: CatalogueView, raw: RawQuery): Envelope<ApiModel[]> {
  const query = validateQuery(ListModelsQuery, raw);
  const filter = modelFilter(query.q, splitList(query.provider), query.confidence);
  const after = query.cursor !== undefined ? decodeCursor(query.cursor, filter) : null;
  const result = page(view, matchModels(view, filter), filter, query.limit ?? MODEL_LIST_LIMIT.default, after);
  const data = result.rows.map((r) => toApiModel(r.entry));
  return envelope(view, data, { count: data.length, nextCursor: result.nextCursor });
}
