import { z } from "zod";
import { buildRates } from "../api-shapes.js";
import { defineEndpoint, splitList, textParam } from "../endpoint.js";
import { envelope } from "../envelope.js";
import { badRequest } from "../errors.js";
import { RATES_MAX_PROVIDERS } from "../params.js";
import { atParam, type PublishedState, publishedState, stateMeta } from "../point-in-time.js";
import { RatesResponse } from "../response-schemas.js";
import { modelsAt } from "../timeline.js";
import type { CatalogueView } from "../view.js";

/**
 * GET /rates (D30): every billable model, unpaginated, no confidence filter.
 * @throws CatalogueError bad_request with more than 50 providers (D13)
 */
export const ratesEndpoint = defineEndpoint({
  name: "list_rates",
  summary: "Billing rates (contract version 2)",
  description: "The cost rate of every billable model, unpaginated, no confidence filter (D30).",
  path: "/rates",
  maxAge: 3600,
  input: z.object({
    provider: textParam(`Comma-separated provider slugs, up to ${RATES_MAX_PROVIDERS}.`, "anthropic,openai").optional(),
    at: atParam,
  }),
  output: RatesResponse,
  tool: {
    description:
      "A flat cost table for estimating spend: one record per billable model with `inputPerMTok`, " +
      "`outputPerMTok` and `cachedInputPerMTok` in the currency per 1M text tokens (maker's own price, " +
      "standard tier, no context bracket), the weaker direction's confidence with `confidenceScore` 0–100, the " +
      "sources agreeing on both directions, whether the maker's page is among them (`official`) and alternative " +
      "slugs (`aliases`). No confidence filter is applied; models missing input or output are left out. The " +
      "list is unpaginated and large: filter with `provider`. With `at` (YYYY-MM-DD) the rates of that day. For all " +
      "price dimensions of a model use get_model.",
  },
  run(view, input) {
    const providers = splitList(input.provider);
    if (providers.length > RATES_MAX_PROVIDERS)
      throw badRequest(`provider takes at most ${RATES_MAX_PROVIDERS} comma-separated slugs, got ${providers.length}`);
    const wanted = new Set(providers);
    const state = publishedState(view, input.at);
    const all = state.timeline === null ? view.rates : ratesAt(view, state);
    const data = wanted.size === 0 ? [...all] : all.filter((r) => wanted.has(r.provider));
    return envelope(view, data, {
      ...stateMeta(view, state),
      count: data.length,
      contractVersion: view.meta.rates.contractVersion,
    });
  },
});

/**
 * The rates (D30) of the listed models as the version in force on `at` published them (T147), with
 * the prices as they apply that day (announced successors, T336, as `/models/{p}/{m}`); none before
 * the first run.
 */
function ratesAt(view: CatalogueView, state: PublishedState) {
  const { version, timeline } = state;
  if (version === null || timeline === null) return [];
  const models = modelsAt(timeline, version).filter((m) => m.listed);
  const prices = new Map(models.map((m) => [m.id, state.prices(m.id)]));
  return buildRates(models, prices, view.meta.rates.officialSources, state.stale);
}
