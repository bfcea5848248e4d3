import { z } from "zod";
import { defineEndpoint, splitList, textParam } from "../endpoint.js";
import { envelope } from "../envelope.js";
import { badRequest } from "../errors.js";
import { RATES_MAX_PROVIDERS } from "../params.js";
import { RatesResponse } from "../schemas.js";

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
  }),
  output: RatesResponse,
  tool: {
    description:
      "A flat cost table for estimating spend: one record per billable model with `inputPerMTok`, " +
      "`outputPerMTok` and `cachedInputPerMTok` in the currency per 1M text tokens (maker's own price, " +
      "standard tier, no context bracket), the weaker direction's confidence with `confidenceScore` 0–100, the " +
      "sources agreeing on both directions, whether the maker's page is among them (`official`) and alternative " +
      "slugs (`aliases`). No confidence filter is applied; models missing input or output are left out. The " +
      "list is unpaginated and large: filter with `provider`. For all price dimensions of a model use get_model.",
  },
  run(view, input) {
    const providers = splitList(input.provider);
    if (providers.length > RATES_MAX_PROVIDERS)
      throw badRequest(`provider takes at most ${RATES_MAX_PROVIDERS} comma-separated slugs, got ${providers.length}`);
    const wanted = new Set(providers);
    const data = wanted.size === 0 ? [...view.rates] : view.rates.filter((r) => wanted.has(r.provider));
    return envelope(view, data, { count: data.length, contractVersion: view.meta.rates.contractVersion });
  },
});
