import { envelope } from "./envelope.js";
import { badRequest } from "./errors.js";
import { RATES_MAX_PROVIDERS, RatesQuery, type RawQuery, splitList, validateQuery } from "./params.js";
import type { ApiRate, Envelope } from "./shapes.js";
import type { CatalogueView } from "./view.js";

/**
 * GET /rates (D30): every billable model, unpaginated, no confidence filter.
 * @throws CatalogueError bad_request with more than 50 providers (D13)
 */
export function listRates(view: CatalogueView, raw: RawQuery): Envelope<ApiRate[]> {
  const query = validateQuery(RatesQuery, raw);
  const providers = splitList(query.provider);
  if (providers.length > RATES_MAX_PROVIDERS)
    throw badRequest(`provider takes at most ${RATES_MAX_PROVIDERS} comma-separated slugs, got ${providers.length}`);
  const wanted = new Set(providers);
  const data = wanted.size === 0 ? [...view.rates] : view.rates.filter((r) => wanted.has(r.provider));
  return envelope(view, data, { count: data.length, contractVersion: view.meta.rates.contractVersion });
}
