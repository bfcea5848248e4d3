import { z } from "zod";
import { defineEndpoint, integerParam, textParam } from "../endpoint.js";
import { envelope } from "../envelope.js";
import { matchModels, modelFilter } from "../model-query.js";
import { SEARCH_LIMIT } from "../params.js";
import { SearchResponse } from "../schemas.js";
import { MODEL_ID } from "./notes.js";

/** D20 separator between model and provider names. */
export const SUGGESTION_SEPARATOR = " — ";

/**
 * GET /models/search: picker suggestions in the /models order; without `q` the head of the catalogue (D20).
 * @throws CatalogueError bad_request for a bad limit
 */
export const searchEndpoint = defineEndpoint({
  name: "search_models",
  summary: "Model suggestions for a picker",
  description: "Same filter and order as GET /models, returning only id and label (D20).",
  path: "/models/search",
  maxAge: 300,
  input: z.object({
    q: textParam(
      "Free text matched against model slugs and display names; without it the head of the catalogue is returned.",
      "opus",
    ).optional(),
    limit: integerParam(
      "limit",
      SEARCH_LIMIT.min,
      SEARCH_LIMIT.max,
      `Number of suggestions, ${SEARCH_LIMIT.min} to ${SEARCH_LIMIT.max}.`,
    ).default(SEARCH_LIMIT.default),
  }),
  output: SearchResponse,
  tool: {
    description:
      "Find model ids from a loose name (`claude sonnet 4`, `gpt-4o mini`, `llama 70b`): returns only `id` " +
      "and a label `<model name> — <provider name>`, in catalogue order, no prices. Use it first when the " +
      "user names a model, then call get_model, get_model_history or compare_models with the id. Without " +
      `\`q\` it returns the head of the catalogue. ${MODEL_ID}`,
  },
  run(view, input) {
    const rows = matchModels(view, modelFilter(input.q, [], undefined)).slice(0, input.limit);
    const data = rows.map((r) => ({
      id: r.entry.model.id,
      label: `${r.entry.model.name}${SUGGESTION_SEPARATOR}${r.entry.providerName}`,
    }));
    return envelope(view, data, { count: data.length });
  },
});
