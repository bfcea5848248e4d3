import { compareModels } from "../catalogue/compare-models.js";
import { getMeta } from "../catalogue/get-meta.js";
import { getModel } from "../catalogue/get-model.js";
import { getModelHistory } from "../catalogue/get-model-history.js";
import { listChanges } from "../catalogue/list-changes.js";
import { listModels } from "../catalogue/list-models.js";
import { listProviders } from "../catalogue/list-providers.js";
import { listRates } from "../catalogue/list-rates.js";
import { listSources } from "../catalogue/list-sources.js";
import {
  ChangesQuery,
  COMPARE_IDS,
  CompareQuery,
  GetModelQuery,
  HistoryQuery,
  ListModelsQuery,
  MODEL_LIST_LIMIT,
  NoQuery,
  RATES_MAX_PROVIDERS,
  RatesQuery,
  type RawQuery,
  SEARCH_LIMIT,
  SearchModelsQuery,
} from "../catalogue/params.js";
import { searchModels } from "../catalogue/search-models.js";
import type { Envelope } from "../catalogue/shapes.js";
import type { CatalogueView } from "../catalogue/view.js";
import { CHANGE_KINDS, MARKET_KINDS } from "../domain/change.js";
import { CHANNEL_NAMES, CHANNELS } from "../domain/channel.js";
import {
  renderChanges,
  renderCompare,
  renderHistory,
  renderMeta,
  renderModel,
  renderModels,
  renderProviders,
  renderRates,
  renderSources,
  renderSuggestions,
} from "./render.js";
import type { PathArg, QuerySchema } from "./tool-args.js";

/**
 * The assistant connector's tools (issue 8): one per endpoint of api-v1.md, calling the same
 * catalogue verb as the HTTP route with the same raw query, so data and validation are the HTTP ones.
 */
export interface ToolSpec {
  readonly name: string;
  readonly title: string;
  /** Written for a model choosing a tool: what it answers, units, when to prefer another tool. */
  readonly description: string;
  /** The mirrored endpoint under /api/v1, path parameters in braces. */
  readonly endpoint: string;
  /** The endpoint's query schema from params.ts; tool arguments carry the same names (T20). */
  readonly query: QuerySchema;
  readonly pathArgs: readonly PathArg[];
  /** One description per query parameter (a parameter without one fails at start-up). */
  readonly params: Readonly<Record<string, string>>;
  /** Calls the verb; throws CatalogueError exactly as for HTTP. */
  run(view: CatalogueView, raw: RawQuery, path: Readonly<Record<string, string>>): ToolOutput;
}

/** The endpoint's body (the HTTP JSON body) and its short text rendering. */
export interface ToolOutput {
  readonly body: Envelope<unknown>;
  readonly text: string;
}

/** Pairs a verb with its renderer while keeping their payload type in step. */
function output<T>(body: Envelope<T>, render: (body: Envelope<T>) => string): ToolOutput {
  return { body, text: render(body) };
}

const CHANNEL_LIST = CHANNELS.map((c) => `${c} (${CHANNEL_NAMES[c]})`).join(", ");

/** Shared vocabulary, appended to the descriptions of tools that return prices. */
export const PRICE_NOTES =
  "Amounts are in display units, never base units: each price names its `displayUnit`, e.g. " +
  "`USD per 1M tokens`, `USD per image`, `USD per request`. `denomination` is `currency` for money, or " +
  "`credit` for usage included in a subscription plan (currency `XXX`, unit `credits per 1M tokens " +
  "(included in plan)`): credits are never converted to money and cannot be compared with money prices. " +
  "`confidence`: verified = confirmed on the maker's own pricing page; high = strong agreement across " +
  "independent sources; medium = some agreement, or one reasonably reliable source; low = weak or partial " +
  "evidence; unverified = not corroborated, treat with caution. `confidenceScore` is 0–1 on prices. " +
  "`sources` agree with the amount, `dissenting` disagree, `disputed` is true when a source actively " +
  "disagrees; `staleSince` is set when no fresh source confirmed the price.";

const MODEL_ID = "Model ids are `<provider>/<model>`, e.g. `anthropic/claude-opus-4-0`.";

export const TOOLS: readonly ToolSpec[] = [
  {
    name: "get_meta",
    title: "Dataset summary",
    endpoint: "/meta",
    description:
      "Summary of the Tariff price catalogue: the current dataset version (timestamp of the ingestion run " +
      "behind every answer), generation time, counts of models, providers and prices, the last run's status, " +
      "the sales channels with their sellers, and the rates contract version with the sources that count as " +
      "official. Use it to check how fresh the data is or to learn the channel ids; it takes no arguments.",
    query: NoQuery,
    pathArgs: [],
    params: {},
    run: (view, raw) => output(getMeta(view, raw), renderMeta),
  },
  {
    name: "list_providers",
    title: "List providers",
    endpoint: "/providers",
    description:
      "All model makers (providers) with display name, website, own pricing page, whether they sell directly " +
      "(`official`) and how many models they have. Resellers (OpenRouter, Amazon Bedrock, Azure, Google Vertex " +
      "AI, Together AI, plans) are sales channels, never providers. Use it to find a provider slug for the " +
      "`provider` filters of list_models and list_rates.",
    query: NoQuery,
    pathArgs: [],
    params: {},
    run: (view, raw) => output(listProviders(view, raw), renderProviders),
  },
  {
    name: "list_models",
    title: "List models with prices",
    endpoint: "/models",
    description:
      "Browse the catalogue: models with their metadata (context window, max output, lifecycle) and all their " +
      "prices from the maker (`direct` channel), filtered by text, provider and minimum confidence, in pages " +
      `(default ${MODEL_LIST_LIMIT.default}, up to ${MODEL_LIST_LIMIT.max}; continue with \`cursor\` = ` +
      "meta.nextCursor, null on the last page). To find a model's id by name prefer search_models; for one " +
      `model's prices, or a reseller's prices, use get_model. ${MODEL_ID} ${PRICE_NOTES}`,
    query: ListModelsQuery,
    pathArgs: [],
    params: {
      q: "Free text matched against model slugs and display names, e.g. `sonnet` or `gpt-4o`.",
      provider: "Comma-separated provider slugs, e.g. `anthropic,openai`.",
      confidence:
        "Minimum confidence: a model matches when its weakest direct price is at this level or stronger " +
        "(verified > high > medium > low > unverified).",
      limit: `Models per page, ${MODEL_LIST_LIMIT.min} to ${MODEL_LIST_LIMIT.max}; default ${MODEL_LIST_LIMIT.default}.`,
      cursor: "Opaque cursor from meta.nextCursor of the previous page, used with the same filters.",
    },
    run: (view, raw) => output(listModels(view, raw), renderModels),
  },
  {
    name: "search_models",
    title: "Search models by name",
    endpoint: "/models/search",
    description:
      "Find model ids from a loose name (`claude sonnet 4`, `gpt-4o mini`, `llama 70b`): returns only `id` " +
      "and a label `<model name> — <provider name>`, in catalogue order, no prices. Use it first when the " +
      "user names a model, then call get_model, get_model_history or compare_models with the id. Without " +
      `\`q\` it returns the head of the catalogue. ${MODEL_ID}`,
    query: SearchModelsQuery,
    pathArgs: [],
    params: {
      q: "Free text matched against model slugs and display names.",
      limit: `Number of suggestions, ${SEARCH_LIMIT.min} to ${SEARCH_LIMIT.max}; default ${SEARCH_LIMIT.default}.`,
    },
    run: (view, raw) => output(searchModels(view, raw), renderSuggestions),
  },
  {
    name: "get_model",
    title: "Prices of one model",
    endpoint: "/models/{provider}/{model}",
    description:
      "What one model costs: its metadata and every price dimension (input, output, cache read/write, " +
      "batch, context brackets such as `> 200K tokens`, images, requests…) in one sales channel. Without " +
      "`channel` the prices are the maker's own (`direct`); with a channel, that reseller's prices for the " +
      "same model, or an empty `prices` list when it does not sell it. Channels: " +
      `${CHANNEL_LIST}; in coding_plan, token_plan and other each price names its seller in ` +
      "`qualifiers.seller`. An unknown model is a 404 error whose detail is the id (find ids with " +
      `search_models). ${PRICE_NOTES}`,
    query: GetModelQuery,
    pathArgs: ["provider", "model"],
    params: { channel: "Sales channel whose prices to return; default `direct` (the maker's own prices)." },
    run: (view, raw, path) => output(getModel(view, path.provider ?? "", path.model ?? "", raw), renderModel),
  },
  {
    name: "get_model_history",
    title: "Price history of one model",
    endpoint: "/models/{provider}/{model}/history",
    description:
      "How one model's prices changed over time (the maker's own, `direct` channel): one series per price " +
      "dimension with its label and display unit, each point `[YYYY-MM-DD, amount]` recorded when the price " +
      "changed (not one per day; equal consecutive amounts are folded). `from`/`to` keep the points inside " +
      "an inclusive date range. An unknown model is a 404 error. For moves across the whole market use " +
      `list_changes. ${MODEL_ID} Amounts are in display units, e.g. USD per 1M tokens.`,
    query: HistoryQuery,
    pathArgs: ["provider", "model"],
    params: {
      from: "Inclusive first date, `YYYY-MM-DD`.",
      to: "Inclusive last date, `YYYY-MM-DD`; not before `from`.",
    },
    run: (view, raw, path) => output(getModelHistory(view, path.provider ?? "", path.model ?? "", raw), renderHistory),
  },
  {
    name: "compare_models",
    title: "Compare models side by side",
    endpoint: "/compare",
    description:
      `Side-by-side metadata and maker (\`direct\`) prices of ${COMPARE_IDS.min} to ${COMPARE_IDS.max} models, ` +
      "in the order asked. Unknown ids are dropped silently: compare meta.found with meta.requested. Match " +
      "prices by `label` (e.g. `Input`, `Output`) and `displayUnit`; credit-billed (plan) amounts are not " +
      `money and cannot be compared with token prices. ${MODEL_ID} ${PRICE_NOTES}`,
    query: CompareQuery,
    pathArgs: [],
    params: {
      models: `Comma-separated model ids, ${COMPARE_IDS.min} to ${COMPARE_IDS.max}, e.g. \`anthropic/claude-opus-4-0,openai/gpt-4o\`.`,
    },
    run: (view, raw) => output(compareModels(view, raw), renderCompare),
  },
  {
    name: "list_changes",
    title: "Recent price changes",
    endpoint: "/changes",
    description:
      "Recent market moves across the catalogue, newest first: price increases and decreases, removed prices " +
      "and unit changes, each with model, provider, price label, old and new amount (display units, e.g. USD " +
      "per 1M tokens), percentage change, channel and time. The look-back window counts back from the dataset " +
      "version. Catalogue additions (price_added, coverage_added, reference_changed) appear only when asked " +
      "for through `kind`. For one model's full history use get_model_history.",
    query: ChangesQuery,
    pathArgs: [],
    params: {
      days: "Look-back window in days from the dataset version; default 30.",
      limit: "Maximum rows; default 100, values above 500 are capped to 500.",
      provider: "Only this provider's changes (one provider slug).",
      model: "Only this model's changes (its slug without the provider, e.g. `gpt-4o`).",
      q: "Free text matched against slug and display name of the model and of its provider.",
      kind:
        `Comma-separated change kinds from: ${CHANGE_KINDS.join(", ")}. Default: the market kinds ` +
        `${MARKET_KINDS.join(", ")}.`,
    },
    run: (view, raw) => output(listChanges(view, raw), renderChanges),
  },
  {
    name: "list_sources",
    title: "Data sources and their health",
    endpoint: "/sources",
    description:
      "The upstream price databases Tariff reconciles (models.dev, OpenRouter, LiteLLM, Anthropic's pricing " +
      "page…), each with licence, homepage, weight in the confidence vote, whether it is authoritative, its " +
      "last successful ingestion and rows in the last run. Use it to explain where a price's `sources` come " +
      "from or whether data is stale.",
    query: NoQuery,
    pathArgs: [],
    params: {},
    run: (view, raw) => output(listSources(view, raw), renderSources),
  },
  {
    name: "list_rates",
    title: "Cost rates of billable models",
    endpoint: "/rates",
    description:
      "A flat cost table for estimating spend: one record per billable model with `inputPerMTok`, " +
      "`outputPerMTok` and `cachedInputPerMTok` in the currency per 1M text tokens (maker's own price, " +
      "standard tier, no context bracket), the weaker direction's confidence with `confidenceScore` 0–100, the " +
      "sources agreeing on both directions, whether the maker's page is among them (`official`) and alternative " +
      "slugs (`aliases`). No confidence filter is applied; models missing input or output are left out. The " +
      "list is unpaginated and large: filter with `provider`. For all price dimensions of a model use get_model.",
    query: RatesQuery,
    pathArgs: [],
    params: { provider: `Comma-separated provider slugs, up to ${RATES_MAX_PROVIDERS}.` },
    run: (view, raw) => output(listRates(view, raw), renderRates),
  },
];
