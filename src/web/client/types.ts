/*
 * The page reads the public contract only (T120): its types are the API v1 response types inferred
 * from the schemas the OpenAPI document is generated from (T162), imported as types (nothing of the
 * server reaches the build).
 */
import type { ApiMeta } from "../../catalogue/schemas.js";

export type {
  /** api-v1.md "Change record" (with the T17 additions `channel`, `displayUnit`). */
  ApiChange as Change,
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

/** One sales channel of `/meta` (D2). */
export type ChannelInfo = ApiMeta["channels"][number];
/** The envelope of every success (api-v1.md), with the endpoint's own `meta` fields. */
export interface Envelope<D, M = Record<string, unknown>> {
  data: D;
  meta: { datasetVersion: string; generatedAt: string } & M;
}
