import { z } from "zod";
import type { PublishedPrice } from "../../domain/dataset.js";
import { buildGenaiPricesExport } from "../../exports/genai-prices.js";
import {
  buildLiteLLMExport,
  KEPT_AGGREGATORS_HEADER,
  KEPT_ONE_SOURCE_HEADER,
  keptCount,
  type LiteLLMEntry,
} from "../../exports/litellm.js";
import { buildModelsDevExport } from "../../exports/models-dev.js";
import { type ExportInput, NO_UPSTREAM, type UpstreamFiles } from "../../exports/types.js";
import { defineEndpoint, type RunContext } from "../endpoint.js";
import { notFound } from "../errors.js";
import { atParam, publishedState } from "../point-in-time.js";
import { modelsAt, pricesAt } from "../timeline.js";
import type { CatalogueView } from "../view.js";

/**
 * The price files of issue 29 §1 (T210–T215): each consumer's own format, served as the file it
 * reads (no envelope). Same ETag, 304, CORS, Cache-Control and rate limit as every endpoint; `at`
 * exports the version in force on a past day (T147). Not MCP tools: they are files, not answers.
 */

const input = z.object({ at: atParam });

/**
 * The input of an export: the view's version, or with `at` the version in force on that day (its
 * models and prices from the timeline; the sources' spellings from today's observations, T66).
 * @throws CatalogueError not_found for an `at` before the first run; bad_request for a future `at`
 */
function exportInput(view: CatalogueView, at: string | undefined, context: RunContext): ExportInput {
  const common = { providers: view.dataset.providers, baseUrl: context.baseUrl };
  if (at === undefined)
    return { version: view.version, models: view.dataset.models, prices: view.dataset.prices, ...common };
  const { version, timeline } = publishedState(view, at, new Date(), false);
  if (!version || !timeline) throw notFound(`no dataset version was published on or before ${at}`);
  const prices: PublishedPrice[] = [];
  for (const id of timeline.prices.keys()) prices.push(...pricesAt(timeline, id, version));
  return { version, models: modelsAt(timeline, version), prices, evidence: view.dataset.prices, ...common };
}

/**
 * The recorded upstream files of the version exported, loaded by `callEndpoint` (T275); none when
 * the process was given no reader. The version (`x-dataset-version`, T147) is `callEndpoint`'s too.
 */
function upstreamOf(context: RunContext): UpstreamFiles {
  return context.upstream ?? NO_UPSTREAM;
}

const LINKS =
  "Each entry links back to the model's Tariff page (`<origin>/m/<provider>/<model>`) and names the dataset version.";

/** GET /exports/litellm/model_prices_and_context_window.json (T212, T213). */
export const litellmExportEndpoint = defineEndpoint({
  name: "export_litellm",
  summary: "LiteLLM price file",
  description:
    "LiteLLM's `model_prices_and_context_window.json` (set `LITELLM_MODEL_COST_MAP_URL` to this URL): every key " +
    "of LiteLLM's own file, those Tariff places with Tariff's reconciled per-token USD prices, the others passed " +
    "through as LiteLLM has them with `metadata.tariff.reconciled: false`, plus every other offer Tariff prices " +
    "under LiteLLM's key for its seller. A price Tariff's amount would move 5× or more without the maker's page " +
    "or the seller's own list among its sources keeps LiteLLM's value: on one source's word alone, named in the " +
    "entry's `metadata.tariff.keptOneSource` and counted by the `x-tariff-kept-one-source` header (T526); on " +
    "aggregators agreeing, in `metadata.tariff.keptAggregatorsOnly` and `x-tariff-kept-aggregators-only` (T542). " +
    "Valid against " +
    `LiteLLM's published schema (T212, T213). ${LINKS}`,
  path: "/exports/litellm/model_prices_and_context_window.json",
  maxAge: 3600,
  usesBaseUrl: true,
  input,
  output: z
    .record(z.string(), z.record(z.string(), z.unknown()))
    .meta({ description: "Model key → LiteLLM entry (costs in USD per token unless the field says otherwise)" }),
  tool: null,
  readsUpstream: true,
  headers: {
    [KEPT_ONE_SOURCE_HEADER]: {
      description:
        "How many keys keep a price at LiteLLM's value because Tariff's amount, 5× or more away, rests on one " +
        "source alone that is neither the maker's page nor the seller's own list (T526)",
      value: (body) => String(keptCount(body as Record<string, LiteLLMEntry>, "one source")),
    },
    [KEPT_AGGREGATORS_HEADER]: {
      description:
        "How many keys keep a price at LiteLLM's value because Tariff's amount, 5× or more away, rests on two or " +
        "more aggregators agreeing, none of them the maker's page or the seller's own list (T542)",
      value: (body) => String(keptCount(body as Record<string, LiteLLMEntry>, "aggregators")),
    },
  },
  run(view, { at }, _path, context) {
    const exportOf = exportInput(view, at, context);
    return buildLiteLLMExport(exportOf, upstreamOf(context).litellm);
  },
});

/** GET /exports/models-dev/api.json (T214). */
export const modelsDevExportEndpoint = defineEndpoint({
  name: "export_models_dev",
  summary: "models.dev api.json",
  description:
    "models.dev's `api.json` (set `OPENCODE_MODELS_URL` to the folder of this URL, `…/exports/models-dev`): the " +
    "same providers and model keys as models.dev, with Tariff's reconciled `cost` (USD per 1M tokens). A model " +
    "whose usage a plan includes has no `cost` and `tariff.includedInPlan: true`, never a $0 price (T214). " +
    LINKS,
  path: "/exports/models-dev/api.json",
  maxAge: 3600,
  usesBaseUrl: true,
  input,
  output: z
    .record(z.string(), z.record(z.string(), z.unknown()))
    .meta({ description: "Provider id → models.dev provider with its models" }),
  tool: null,
  readsUpstream: true,
  run(view, { at }, _path, context) {
    const exportOf = exportInput(view, at, context);
    return buildModelsDevExport(exportOf, upstreamOf(context).modelsDev);
  },
});

/** GET /exports/genai-prices/data.json (T215). */
export const genaiPricesExportEndpoint = defineEndpoint({
  name: "export_genai_prices",
  summary: "genai-prices data.json (v2)",
  description:
    "genai-prices' v2 `data.json` (pydantic-ai / Logfire `UpdatePrices(url=…)`, the JS package's `updatePrices`): " +
    "one provider per seller with the package's own usage extractors (T518) and Tariff's reconciled prices " +
    "(USD per 1M tokens), match rules made of every spelling Tariff knows, context brackets as tiered prices, " +
    "off-peak windows as time-of-day constraints, web searches per 1K calls (T519), and batch, flex and priority " +
    "tiers as `<model>:batch` models (T215, T521). Valid against genai-prices' v2 schema. " +
    "Each model's description links back to its Tariff page and names the dataset version.",
  path: "/exports/genai-prices/data.json",
  maxAge: 3600,
  usesBaseUrl: true,
  input,
  output: z.array(z.record(z.string(), z.unknown())).meta({ description: "genai-prices providers with their models" }),
  tool: null,
  readsUpstream: true,
  run(view, { at }, _path, context) {
    const exportOf = exportInput(view, at, context);
    return buildGenaiPricesExport(exportOf, upstreamOf(context).genaiPrices);
  },
});
