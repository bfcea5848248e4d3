import { envelope } from "./envelope.js";
import { matchModels, modelFilter } from "./model-query.js";
import { type RawQuery, SEARCH_LIMIT, SearchModelsQuery, validateQuery } from "./params.js";
import type { ApiSuggestion, Envelope } from "./shapes.js";
import type { CatalogueView } from "./view.js";

/** D20 separator between model and provider names. */
export const SUGGESTION_SEPARATOR = " — ";

/**
 * GET /models/search: picker suggestions in the /models order; without `q` the head of the catalogue.
 * @throws CatalogueError bad_request for a bad limit
 */
export function searchModels(view: CatalogueView, raw: RawQuery): Envelope<ApiSuggestion[]> {
  const query = validateQuery(SearchModelsQuery, raw);
  const rows = matchModels(view, modelFilter(query.q, [], undefined)).slice(0, query.limit ?? SEARCH_LIMIT.default);
  const data = rows.map((r) => ({
    id: r.entry.model.id,
    label: `${r.entry.model.name}${SUGGESTION_SEPARATOR}${r.entry.providerName}`,
  }));
  return envelope(view, data, { count: data.length });
}
