import { z } from "zod";
import { apiModel, toApiPrice } from "../api-shapes.js";
import { defineEndpoint, splitList } from "../endpoint.js";
import { envelope } from "../envelope.js";
import { badRequest } from "../errors.js";
import { COMPARE_IDS } from "../params.js";
import { atParam, publishedState, stateMeta } from "../point-in-time.js";
import { CompareResponse } from "../response-schemas.js";
import type { ApiModel } from "../schemas.js";
import { resolveModelId } from "../view.js";
import { MODEL_ID, PRICE_NOTES } from "./notes.js";

/**
 * GET /compare (D15): models side by side with direct prices, in request order; unknown ids dropped,
 * repeats returned once. `requested` counts non-empty entries, `found` distinct ids found.
 * @throws CatalogueError bad_request without `models`, or for fewer than 2 or more than 8 ids
 */
export const compareEndpoint = defineEndpoint({
  name: "compare_models",
  summary: "Side-by-side prices",
  description:
    "Models in request order; unknown ids are dropped and counted in `meta.found` vs `meta.requested` (D15).",
  path: "/compare",
  maxAge: 300,
  input: z.object({
    models: z.string({ error: "models is required: 2 to 8 comma-separated <provider>/<model> ids" }).meta({
      description: `Comma-separated model ids, ${COMPARE_IDS.min} to ${COMPARE_IDS.max} (required), e.g. \`anthropic/claude-opus-4-0,openai/gpt-4o\`.`,
      example: "openai/gpt-4o,anthropic/claude-opus-4-0",
    }),
    at: atParam,
  }),
  output: CompareResponse,
  tool: {
    description:
      `Side-by-side metadata and maker (\`direct\`) prices of ${COMPARE_IDS.min} to ${COMPARE_IDS.max} models, ` +
      "in the order asked. Unknown ids are dropped silently: compare meta.found with meta.requested. Match " +
      "prices by `label` (e.g. `Input`, `Output`) and `displayUnit`; credit-billed (plan) amounts are not " +
      "money and cannot be compared with token prices. With `at` (YYYY-MM-DD) the prices published for that day; " +
      `models not published then are dropped. ${MODEL_ID} ${PRICE_NOTES}`,
  },
  run(view, input) {
    const ids = splitList(input.models);
    if (ids.length < COMPARE_IDS.min || ids.length > COMPARE_IDS.max)
      throw badRequest(
        `models must list ${COMPARE_IDS.min} to ${COMPARE_IDS.max} comma-separated <provider>/<model> ids, got ${ids.length}`,
      );
    const state = publishedState(view, input.at);
    const seen = new Set<string>();
    const data: ApiModel[] = [];
    for (const requested of ids) {
      // An alias or former id compares as the model it names (D1, T67).
      const id = resolveModelId(view, requested) ?? requested;
      if (seen.has(id)) continue;
      seen.add(id);
      const model = state.model(id);
      if (model)
        data.push(
          apiModel(
            model,
            state
              .prices(id)
              .filter((p) => p.channel === "direct")
              .map(toApiPrice),
          ),
        );
    }
    return envelope(view, data, { ...stateMeta(view, state), found: data.length, requested: ids.length });
  },
});
