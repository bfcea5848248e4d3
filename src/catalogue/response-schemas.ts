import { z } from "zod";
import { CHANNELS } from "../domain/channel.js";
import { CACHE_TTLS } from "../domain/cost.js";
import { TIERS } from "../domain/dimension.js";
import {
  ChangeSchema,
  CostEstimateSchema,
  DatasetSummarySchema,
  HistorySeriesSchema,
  isoDate,
  ModelSchema,
  modelId,
  ProviderSchema,
  RateSchema,
  SourceSchema,
  SuggestionSchema,
  timestamp,
  UnpricedPartSchema,
} from "./schemas.js";

/**
 * The whole 200 bodies of API v1 (api-v1.md "Response envelope", T13): each endpoint's `data`, of
 * the resource schemas in `schemas.ts`, in the success envelope with the endpoint's own `meta`
 * fields. Each is a named component of the OpenAPI document (D26) and the `output` of its endpoint.
 */

/** The success envelope with the endpoint's own `meta` fields (T13). */
function envelope<D extends z.ZodType, M extends z.ZodRawShape>(data: D, meta: M, id: string) {
  return z
    .strictObject({
      data,
      meta: z.strictObject({
        datasetVersion: timestamp.meta({ description: "Equals the x-dataset-version header" }),
        generatedAt: timestamp.meta({ description: "When the body was built (D31)" }),
        ...meta,
      }),
    })
    .meta({ id });
}

const count = z.number().int().min(0);
/** `meta.at` of a point-in-time answer (issue 17, T147): the day asked for. */
const at = isoDate.optional().meta({
  description: "The day asked for with `at`; `datasetVersion` is then the version in force on it (T147)",
});

/** GET /meta */
export const MetaResponse = envelope(DatasetSummarySchema, {}, "MetaResponse");
/** GET /providers */
export const ProvidersResponse = envelope(z.array(ProviderSchema), { count }, "ProvidersResponse");
/** GET /models (D12) */
export const ModelsResponse = envelope(
  z.array(ModelSchema),
  {
    count,
    nextCursor: z.string().nullable().meta({ description: "Null exactly on the last page (D12)" }),
    prevCursor: z
      .string()
      .nullable()
      .meta({ description: "The page before this one; null exactly on the first page (T203)" }),
    at,
  },
  "ModelsResponse",
);
/** GET /models/search */
export const SearchResponse = envelope(z.array(SuggestionSchema), { count }, "SearchResponse");
/** GET /models/{provider}/{model}; `channel` may be `all` (T201) */
export const ModelResponse = envelope(ModelSchema, { channel: z.enum([...CHANNELS, "all"]), at }, "ModelResponse");
/** GET /models/{provider}/{model}/history (D17) */
export const HistoryResponse = envelope(
  z.array(HistorySeriesSchema),
  { model: modelId, granularity: z.literal("change") },
  "HistoryResponse",
);
/** GET /compare (D15) */
export const CompareResponse = envelope(
  z.array(ModelSchema),
  { found: count, requested: count, at },
  "CompareResponse",
);
/** GET /changes (D18) */
export const ChangesResponse = envelope(
  z.array(ChangeSchema),
  {
    count,
    days: z.number().int().meta({ description: "The look-back window applied (D18)" }),
    limit: z.number().int().meta({ description: "The row limit applied, after the cap of 500" }),
    total: count.meta({ description: "Every change the filters match in the window, on all pages (T204)" }),
    nextCursor: z.string().nullable().meta({
      description: "Continues after this page's last row with the same filters; null on the last page (T204, T226)",
    }),
    at,
  },
  "ChangesResponse",
);
/** GET /sources */
export const SourcesResponse = envelope(z.array(SourceSchema), { count }, "SourcesResponse");
/** GET /rates (contract version 2) */
export const RatesResponse = envelope(
  z.array(RateSchema),
  { count, contractVersion: z.number().int(), at },
  "RatesResponse",
);
/** GET /cost (issue 17) */
export const CostResponse = envelope(
  z.array(CostEstimateSchema),
  {
    found: count,
    requested: count,
    channel: z.enum([...CHANNELS, "all"]),
    usage: z
      .strictObject({
        inputTokens: count,
        cachedInputTokens: count,
        cacheWriteTokens: count,
        cacheWrite1hTokens: count,
        cacheTtl: z.enum(CACHE_TTLS),
        outputTokens: count,
        reasoningTokens: count,
        webSearchRequests: count,
        requests: z.number().int().min(1),
        tier: z.enum(TIERS),
        region: z.string().nullable(),
        unpriced: z.array(UnpricedPartSchema),
      })
      .meta({ description: "The usage priced, defaults applied" }),
    at,
  },
  "CostResponse",
);
