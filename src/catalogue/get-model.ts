import { envelope } from "./envelope.js";
import { moved, notFound } from "./errors.js";
import { GetModelQuery, type RawQuery, validateQuery } from "./params.js";
import type { ApiModel, Envelope } from "./shapes.js";
import { type CatalogueView, resolveModelId, toApiModel } from "./view.js";

/**
 * GET /models/{provider}/{model}: one model with the prices of one channel (default `direct`).
 * A channel that does not sell the model gives `prices: []`.
 * @throws CatalogueError bad_request for an unknown channel (checked first, D14); moved for an alias or
 * former id (D1, T67); not_found with the id as detail
 */
export function getModel(view: CatalogueView, provider: string, model: string, raw: RawQuery): Envelope<ApiModel> {
  const query = validateQuery(GetModelQuery, raw);
  const id = `${provider}/${model}`;
  const entry = view.byId.get(id);
  if (!entry) {
    const target = resolveModelId(view, id);
    throw target ? moved(id, target) : notFound(id);
  }
  return envelope(view, toApiModel(entry, query.channel ?? "direct"), { channel: query.channel ?? "direct" });
}
