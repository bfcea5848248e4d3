import { z } from "zod";
import { CHANNELS } from "../../domain/channel.js";
import { apiModel, toApiModel, toApiPrice, toChannelPrice } from "../api-shapes.js";
import { defineEndpoint, enumParam } from "../endpoint.js";
import { envelope } from "../envelope.js";
import { moved, notFound } from "../errors.js";
import { atParam, publishedState, stateMeta } from "../point-in-time.js";
import { ModelResponse } from "../response-schemas.js";
import { resolveModelId } from "../view.js";
import { CHANNEL_LIST, PRICE_NOTES } from "./notes.js";

/** `channel` of this endpoint: a D2 channel, or `all` for every channel in one answer (T201). */
const MODEL_CHANNELS = [...CHANNELS, "all"] as const;

/**
 * GET /models/{provider}/{model}: one model with the prices of one channel (default `direct`, D2).
 * A channel that does not sell the model gives `prices: []`. With `at`, what the version in force on
 * that day published (T147). `channel=all` (T201): every channel's prices in one answer, in dataset
 * order (channel, seller, dimension), each carrying `channel` and `seller`, and without `at` each
 * dissenting source's own amount.
 * @throws CatalogueError bad_request for an unknown channel (checked first, D14); moved for an alias or
 * former id (D1, T67); not_found with the id as detail
 */
export const modelEndpoint = defineEndpoint({
  name: "get_model",
  summary: "One model",
  description:
    "One model with the prices of one sales channel (D2). A channel that does not sell it gives `prices: []`.",
  path: "/models/:provider/:model",
  maxAge: 3600,
  input: z.object({
    channel: enumParam(
      "channel",
      MODEL_CHANNELS,
      "Sales channel whose prices to return; default `direct` (the maker's own prices). `all`: every " +
        "channel's prices in one answer, each price carrying its `channel` and `seller` (T201).",
    ).default("direct"),
    at: atParam,
  }),
  output: ModelResponse,
  tool: {
    description:
      "What one model costs: its metadata and every price dimension (input, output, cache read/write, " +
      "batch, context brackets such as `> 200K tokens`, images, requests…) in one sales channel. Without " +
      "`channel` the prices are the maker's own (`direct`); with a channel, that reseller's prices for the " +
      "same model, or an empty `prices` list when it does not sell it; `channel=all` returns every channel's " +
      "prices at once, each naming its `channel` and `seller` (and the amounts of dissenting sources). Channels: " +
      `${CHANNEL_LIST}; in coding_plan, token_plan and other each price names its seller in ` +
      "`qualifiers.seller`. An unknown model is a 404 error whose detail is the id (find ids with " +
      "search_models). With `at` (YYYY-MM-DD) the prices published for that day. " +
      PRICE_NOTES,
  },
  run(view, input, path) {
    const id = `${path.provider}/${path.model}`;
    const entry = view.byId.get(id);
    if (!entry) {
      const target = resolveModelId(view, id);
      throw target ? moved(id, target) : notFound(id);
    }
    if (input.at === undefined) {
      if (input.channel !== "all") return envelope(view, toApiModel(entry, input.channel), { channel: input.channel });
      const prices = (view.pricesByModel.get(id) ?? []).map((p) => toChannelPrice(p, true));
      return envelope(view, apiModel(entry.model, prices), { channel: input.channel });
    }
    // T147: the model and prices as the version in force on `at` published them; 404 before it existed.
    const state = publishedState(view, input.at);
    const model = state.model(id);
    if (!model) throw notFound(id);
    // The spans hold no evidence (T147): an `at` answer names no dissenting amounts.
    const prices =
      input.channel === "all"
        ? state.prices(id).map((p) => toChannelPrice(p, false))
        : state
            .prices(id)
            .filter((p) => p.channel === input.channel)
            .map(toApiPrice);
    return envelope(view, apiModel(model, prices), { ...stateMeta(view, state), channel: input.channel });
  },
});
