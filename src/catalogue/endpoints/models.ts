import { z } from "zod";
import { CONFIDENCE_LEVELS } from "../../domain/confidence.js";
import { defineEndpoint, enumParam, integerParam, splitList, textParam } from "../endpoint.js";
import { envelope } from "../envelope.js";
import { decodeCursor, matchModels, modelFilter, page } from "../model-query.js";
import { MODEL_LIST_LIMIT } from "../params.js";
import { ModelsResponse } from "../schemas.js";
import { toApiModel } from "../view.js";
import { MODEL_ID, PRICE_NOTES } from "./notes.js";

/**
 * GET /models: filtered, keyset-paginated model list with direct prices (D10–D12, D16).
 * @throws CatalogueError bad_request for a bad limit, confidence or cursor
 */
export const modelsEndpoint = defineEndpoint({
  name: "list_models",
  summary: "Model list",
  description: "Filtered, keyset-paginated model list with the maker's own prices (D10–D12, D16).",
  path: "/models",
  maxAge: 300,
  input: z.object({
    q: textParam(
      "Free text matched against model slugs and display names (D11), e.g. `sonnet` or `gpt-4o`.",
      "claude 3.5",
    ).optional(),
    provider: textParam("Comma-separated provider slugs, e.g. `anthropic,openai`.", "anthropic,openai").optional(),
    confidence: enumParam(
      "confidence",
      CONFIDENCE_LEVELS,
      "Minimum confidence: a model matches when its weakest direct price is at this level or stronger " +
        "(verified > high > medium > low > unverified, D16).",
    ).optional(),
    limit: integerParam(
      "limit",
      MODEL_LIST_LIMIT.min,
      MODEL_LIST_LIMIT.max,
      `Models per page, ${MODEL_LIST_LIMIT.min} to ${MODEL_LIST_LIMIT.max}.`,
    ).default(MODEL_LIST_LIMIT.default),
    cursor: textParam(
      "Opaque cursor from meta.nextCursor of the previous page; only valid with the same filters (D12).",
    ).optional(),
  }),
  output: ModelsResponse,
  tool: {
    description:
      "Browse the catalogue: models with their metadata (context window, max output, lifecycle) and all their " +
      "prices from the maker (`direct` channel), filtered by text, provider and minimum confidence, in pages " +
      `(default ${MODEL_LIST_LIMIT.default}, up to ${MODEL_LIST_LIMIT.max}; continue with \`cursor\` = ` +
      "meta.nextCursor, null on the last page). To find a model's id by name prefer search_models; for one " +
      `model's prices, or a reseller's prices, use get_model. ${MODEL_ID} ${PRICE_NOTES}`,
  },
  run(view, input) {
    const filter = modelFilter(input.q, splitList(input.provider), input.confidence);
    const after = input.cursor !== undefined ? decodeCursor(input.cursor, filter) : null;
    const result = page(view, matchModels(view, filter), filter, input.limit, after);
    const data = result.rows.map((r) => toApiModel(r.entry));
    return envelope(view, data, { count: data.length, nextCursor: result.nextCursor });
  },
});
