import { z } from "zod";
import { CHANNELS, type Channel } from "../../domain/channel.js";
import { CONFIDENCE_LEVELS } from "../../domain/confidence.js";
import { MODALITIES } from "../../domain/dimension.js";
import { listedPrice } from "../../domain/listed-price.js";
import { apiModel, toApiModel, toApiPrice, toChannelPrice } from "../api-shapes.js";
import { defineEndpoint, enumParam, integerParam, splitList, textParam } from "../endpoint.js";
import { envelope } from "../envelope.js";
import {
  decodeCursor,
  MODEL_SORTS,
  matchModels,
  modelFilter,
  modelsOf,
  modelsOfVersion,
  page,
  type RankedModel,
} from "../model-query.js";
import { MAX_TOKENS, MODEL_LIST_LIMIT } from "../params.js";
import { atParam, publishedState, stateMeta } from "../point-in-time.js";
import { ModelsResponse } from "../response-schemas.js";
import type { ApiModel } from "../schemas.js";
import { MODEL_ID, PRICE_NOTES } from "./notes.js";

/**
 * GET /models: filtered, keyset-paginated model list with direct prices (D10–D12, D16); sorts,
 * filters, the listed price (T202), backward cursors and `at` are additions (T203).
 * @throws CatalogueError bad_request for a bad limit, confidence, cursor, sort or filter value
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
      "Opaque cursor from meta.nextCursor (the page after) or meta.prevCursor (the page before) of a previous " +
        "answer; only valid with the same filters and sort (D12, T203).",
    ).optional(),
    sort: enumParam(
      "sort",
      MODEL_SORTS,
      "Order (T203): `id` (default, D10: by id, or by match rank with `q`); `input`, `output` by the listed " +
        "price per 1M tokens (T202) ascending, `-input`, `-output` descending; `context`, `-context` by context " +
        "window; `recent`: the newest move of the listed price first; `sellers`: the models sold by the most " +
        "sellers first. Models without the value come last.",
    ).default("id"),
    listedConfidence: enumParam(
      "listedConfidence",
      CONFIDENCE_LEVELS,
      "Only models whose listed price (T202) has exactly this confidence: the weaker of its input and output " +
        "price's levels, the badge the web catalogue shows.",
    ).optional(),
    channel: enumParam(
      "channel",
      CHANNELS,
      "Only models sold in this channel (at least one price there); the listed price is then this channel's (T203).",
    ).optional(),
    modality: enumParam(
      "modality",
      MODALITIES,
      "Only models with a price for this modality in some channel, e.g. `image` (T203).",
    ).optional(),
    openWeights: enumParam(
      "openWeights",
      ["true", "false"],
      "Only models with (`true`) or without (`false`) open weights.",
    ).optional(),
    minContext: integerParam(
      "minContext",
      1,
      MAX_TOKENS,
      "Only models whose context window is at least this many tokens (T203).",
    ).optional(),
    prices: enumParam(
      "prices",
      ["direct", "listed"],
      "Which prices each model carries: `direct` (default, the maker's own), or `listed`: only the listed input " +
        "and output price (T202) — the maker's own headline prices, else the cheapest channel's — each naming " +
        "its `channel` and `seller`.",
    ).default("direct"),
    at: atParam,
  }),
  output: ModelsResponse,
  tool: {
    description:
      "Browse the catalogue: models with their metadata (context window, max output, lifecycle) and all their " +
      "prices from the maker (`direct` channel), filtered by text, provider and minimum confidence, in pages " +
      `(default ${MODEL_LIST_LIMIT.default}, up to ${MODEL_LIST_LIMIT.max}; continue with \`cursor\` = ` +
      "meta.nextCursor, null on the last page). `sort` orders by listed price (`input`, `output`, `-input`, " +
      "`-output`), context window or most recent price move; `channel`, `modality`, `openWeights`, `minContext` " +
      "narrow the list; `prices=listed` gives each model its one listed input and output price in any channel. " +
      "To find a model's id by name prefer search_models; for one " +
      `model's prices, or a reseller's prices, use get_model. ${MODEL_ID} ${PRICE_NOTES}`,
  },
  run(view, input) {
    const filter = modelFilter(input.q, splitList(input.provider), input.confidence, {
      listedConfidence: input.listedConfidence,
      channel: input.channel,
      modality: input.modality,
      openWeights: input.openWeights === undefined ? undefined : input.openWeights === "true",
      minContext: input.minContext,
      sort: input.sort,
    });
    const from = input.cursor !== undefined ? decodeCursor(input.cursor, filter, input.at) : null;
    const state = publishedState(view, input.at);
    const models = input.at === undefined ? modelsOf(view) : modelsOfVersion(view, state);
    const result = page(view, matchModels(view, filter, models), filter, input.limit, from, input.at);
    const data = result.rows.map((r) =>
      modelRow(view, r, input.prices === "listed" ? (input.channel ?? "any") : null, input.at !== undefined),
    );
    return envelope(view, data, {
      ...stateMeta(view, state),
      count: data.length,
      nextCursor: result.nextCursor,
      prevCursor: result.prevCursor,
    });
  },
});

/** A row of `/models`: the model with its direct prices, or with its listed price only (T202). */
function modelRow(
  view: Parameters<typeof modelsOf>[0],
  row: RankedModel,
  /** The listed price's channel (`any`: T202's choice), or null for the direct prices. */
  listedIn: Channel | "any" | null,
  past: boolean,
): ApiModel {
  const m = row.entry.model;
  if (listedIn !== null) {
    const offer = row.listed ?? listedPrice(row.entry.prices, listedIn === "any" ? undefined : listedIn);
    const listed = [offer?.input, offer?.output].filter((p) => p !== null && p !== undefined);
    return apiModel(
      m,
      listed.map((p) => toChannelPrice(p, false)),
    );
  }
  const current = past ? undefined : view.byId.get(m.id);
  if (current) return toApiModel(current);
  return apiModel(m, row.entry.prices.filter((p) => p.channel === "direct").map(toApiPrice));
}
