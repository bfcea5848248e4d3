import { envelope } from "./envelope.js";
import { badRequest } from "./errors.js";
import { COMPARE_IDS, CompareQuery, type RawQuery, splitList, validateQuery } from "./params.js";
import type { ApiModel, Envelope } from "./shapes.js";
import { type CatalogueView, resolveModelId, toApiModel } from "./view.js";

/**
 * GET /compare (D15): models side by side with direct prices, in request order; unknown ids dropped,
 * repeats returned once. `requested` counts non-empty entries, `found` distinct ids found.
 * @throws CatalogueError bad_request for fewer than 2 or more than 8 ids
 */
export function compareModels(view: CatalogueView, raw: RawQuery): Envelope<ApiModel[]> {
  const query = validateQuery(CompareQuery, raw);
  const ids = splitList(query.models);
  if (ids.length < COMPARE_IDS.min || ids.length > COMPARE_IDS.max)
    throw badRequest(
      `models must list ${COMPARE_IDS.min} to ${COMPARE_IDS.max} comma-separated <provider>/<model> ids, got ${ids.length}`,
    );
  const seen = new Set<string>();
  const data: ApiModel[] = [];
  for (const requested of ids) {
    // An alias or former id compares as the model it names (D1, T67).
    const id = resolveModelId(view, requested) ?? requested;
    if (seen.has(id)) continue;
    seen.add(id);
    const entry = view.byId.get(id);
    if (entry) data.push(toApiModel(entry));
  }
  return envelope(view, data, { found: data.length, requested: ids.length });
}
