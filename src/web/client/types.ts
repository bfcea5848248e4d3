import type { z } from "zod";
import type {
  ChangeSchema,
  DatasetSummarySchema,
  HistorySeriesSchema,
  ModelSchema,
  PriceSchema,
  ProviderSchema,
  SourceSchema,
  SuggestionSchema,
} from "../../catalogue/schemas.js";

/*
 * The page reads the public contract only (T120): its types are the API v1 response schemas the
 * OpenAPI document is generated from, imported as types (nothing of the server reaches the build).
 */

/** api-v1.md "Model". */
export type Model = z.infer<typeof ModelSchema>;
/** api-v1.md "Price". */
export type Price = z.infer<typeof PriceSchema>;
/** api-v1.md "Provider". */
export type Provider = z.infer<typeof ProviderSchema>;
/** api-v1.md "Search suggestion". */
export type Suggestion = z.infer<typeof SuggestionSchema>;
/** api-v1.md "History series". */
export type HistorySeries = z.infer<typeof HistorySeriesSchema>;
/** api-v1.md "Change record" (with the T17 additions `channel`, `displayUnit`). */
export type Change = z.infer<typeof ChangeSchema>;
/** api-v1.md "Source record" (with `unmatchedLastRun`, T65). */
export type Source = z.infer<typeof SourceSchema>;
/** api-v1.md "Dataset summary" (with D2 `channels`). */
export type DatasetSummary = z.infer<typeof DatasetSummarySchema>;
/** One sales channel of `/meta` (D2). */
export type ChannelInfo = DatasetSummary["channels"][number];
/** The envelope of every success (api-v1.md). */
export interface Envelope<D, M = Record<string, unknown>> {
  data: D;
  meta: { datasetVersion: string; generatedAt: string } & M;
}
