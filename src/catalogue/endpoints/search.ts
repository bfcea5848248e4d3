import { distance } from "fastest-levenshtein";
import { z } from "zod";
import { defineEndpoint, enumParam, integerParam, textParam } from "../endpoint.js";
import { envelope } from "../envelope.js";
import { type ListedModel, matchModels, modelFilter, modelsOf } from "../model-query.js";
import { SEARCH_LIMIT } from "../params.js";
import { SearchResponse } from "../response-schemas.js";
import { normalizeText } from "../text-match.js";
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
    fuzzy: enumParam(
      "fuzzy",
      ["true", "false"],
      "`true`: when no model matches every word of `q`, suggest the models whose slug or name is nearest to it " +
        "by edit distance (a misspelled id such as `claude-sonet-4-5`), nearest first (T206). Default `false`.",
    ).default("false"),
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
    let rows = matchModels(view, modelFilter(input.q, [], undefined))
      .slice(0, input.limit)
      .map((r) => r.entry);
    if (rows.length === 0 && input.fuzzy === "true" && input.q !== undefined)
      rows = nearestModels(modelsOf(view), input.q, input.limit);
    const data = rows.map((entry) => ({
      id: entry.model.id,
      label: `${entry.model.name}${SUGGESTION_SEPARATOR}${entry.providerName}`,
    }));
    return envelope(view, data, { count: data.length });
  },
});

/**
 * T206: the models nearest to a misspelled text by edit distance over the normal form (D11) of
 * slug and name, within a third of the text's length (at least 2 edits); nearest first, then id.
 */
export function nearestModels(models: readonly ListedModel[], q: string, limit: number): ListedModel[] {
  const text = normalizeText(q);
  if (text.length < 3) return [];
  const bound = Math.max(2, Math.floor(text.length / 3));
  const near: { entry: ListedModel; d: number }[] = [];
  for (const entry of models) {
    const d = Math.min(...entry.search.map((f) => distance(text, f.normal)));
    if (d <= bound) near.push({ entry, d });
  }
  near.sort((a, b) => a.d - b.d || (a.entry.model.id < b.entry.model.id ? -1 : 1));
  return near.slice(0, limit).map((n) => n.entry);
}
