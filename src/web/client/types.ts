/*
 * The page reads the public contract only (T120): its types are the API v1 response types that
 * `src/catalogue/schemas.ts` infers from the schemas the OpenAPI document is generated from,
 * imported as types (erased by the build: nothing of the server, zod included, reaches the page).
 */
export type {
  /** api-v1.md "Change record" (with the T17 additions `channel`, `displayUnit`). */
  ApiChange as Change,
  /** One sales channel of `/meta` (D2). */
  ApiChannel as ChannelInfo,
  /** One model in one channel and seller priced for a usage (issue 17, T140–T145). */
  ApiCostEstimate as CostEstimate,
  /** api-v1.md "History series". */
  ApiHistorySeries as HistorySeries,
  /** api-v1.md "Dataset summary" (with D2 `channels`). */
  ApiMeta as DatasetSummary,
  /** api-v1.md "Model". */
  ApiModel as Model,
  /** api-v1.md "Price". */
  ApiPrice as Price,
  /** api-v1.md "Provider". */
  ApiProvider as Provider,
  /** api-v1.md "Source record" (with `unmatchedLastRun`, T65). */
  ApiSource as Source,
  /** api-v1.md "Search suggestion". */
  ApiSuggestion as Suggestion,
} from "../../catalogue/schemas.js";

/** The envelope of every success (api-v1.md), with the endpoint's own `meta` fields `M` (T13). */
export interface Envelope<D, M = Record<string, unknown>> {
  data: D;
  meta: { datasetVersion: string; generatedAt: string } & M;
}
