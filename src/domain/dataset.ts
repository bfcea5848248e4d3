import type { Channel } from "./channel.js";
import type { Confidence } from "./confidence.js";
import type { Dimension } from "./dimension.js";
import type { SourceId } from "./observation.js";
import type { Denomination, Unit } from "./unit.js";

/**
 * A published dataset version: what one ingestion run publishes atomically (D9) and what the API
 * serves. Shapes follow api-v1.md; fields not in the API (seller, unit, observations) are provenance.
 */
export interface Dataset {
  readonly run: RunRecord;
  readonly providers: readonly PublishedProvider[];
  /** Sorted by id, byte order (D10). */
  readonly models: readonly PublishedModel[];
  readonly prices: readonly PublishedPrice[];
  readonly sources: readonly SourceHealth[];
}

/** D4 `lastError`. */
export interface SourceError {
  readonly at: string;
  readonly message: string;
  readonly httpStatus: number | null;
}

/** Health of one source as of a run (api-v1.md "Source record", D4; additions T75). */
export interface SourceHealth {
  readonly source: SourceId;
  readonly lastSuccessAt: string | null;
  readonly lastError: SourceError | null;
  /** Price rows of the source's own last run (when it did not run in this one: of `lastRunAt`). */
  readonly rowsLastRun: number;
  /** This run's outcome for the source: parsed, failed, or absent (no payload, nothing fetched) (T75). */
  readonly lastRunStatus: SourceRunStatus;
  /** When the source last ran (succeeded or failed); null when it never did. */
  readonly lastRunAt: string | null;
  /** Rows of that run the plausibility guards quarantined (T73/T74), total and per reason. */
  readonly rejectedLastRun: number;
  readonly rejectedByReason: Readonly<Record<string, number>>;
  /** Price fields of that run's payload the source's field map does not know (T70), total and per field. */
  readonly unmappedLastRun: number;
  readonly unmappedByField: Readonly<Record<string, number>>;
}

/** `succeeded` (parsed in this run), `failed` (ran and failed), `not_run` (absent from this run). */
export type SourceRunStatus = "succeeded" | "failed" | "not_run";

/** The record of one ingestion run (D9). */
export interface RunRecord {
  readonly id: string;
  /** = run start time, ISO 8601 UTC with milliseconds. */
  readonly datasetVersion: string;
  readonly status: "succeeded" | "partial";
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly summary: RunSummary;
}

export interface RunSummary {
  readonly observations: Readonly<Record<string, number>>;
  /** Price rows the plausibility guards quarantined, per source (T73); absent in runs before issue 13. */
  readonly rejected?: Readonly<Record<string, number>>;
  readonly unresolved: Readonly<Record<string, number>>;
  readonly failed: Readonly<Record<string, string>>;
  readonly models: number;
  readonly prices: number;
  readonly disputed: number;
}

export interface PublishedProvider {
  readonly slug: string;
  readonly name: string;
  readonly website: string | null;
  readonly pricingUrl: string | null;
  /** D29 */
  readonly official: boolean;
  readonly models: number;
}

/** D3 */
export type LifecycleState = "preview" | "active" | "deprecated" | "retired";

export interface PublishedModel {
  readonly id: string;
  readonly provider: string;
  readonly slug: string;
  readonly name: string;
  readonly family: string | null;
  readonly contextWindow: number | null;
  readonly maxOutputTokens: number | null;
  readonly openWeights: boolean;
  readonly firstSeenAt: string;
  readonly lifecycle: {
    readonly state: LifecycleState;
    readonly releasedOn: string | null;
    readonly deprecatedOn: string | null;
    readonly retiresOn: string | null;
  };
  readonly aliases: readonly string[];
}

/** One price of one model in one channel and seller (api-v1.md "Price" plus provenance). */
export interface PublishedPrice extends Dimension {
  readonly modelId: string;
  readonly channel: Channel;
  readonly seller: string;
  /** D27, collisions already extended. */
  readonly label: string;
  readonly amount: number;
  readonly unit: Unit;
  readonly displayUnit: string;
  readonly denomination: Denomination;
  readonly currency: string;
  readonly confidence: Confidence;
  /** 0–1 */
  readonly confidenceScore: number;
  readonly sources: readonly SourceId[];
  readonly dissenting: readonly SourceId[];
  readonly disputed: boolean;
  readonly fallbackAmount: number | null;
  readonly effectiveFrom: string;
  readonly staleSince: string | null;
  /** Every source's own amount for this dimension (provenance). */
  readonly observations: readonly { readonly source: SourceId; readonly amount: number; readonly fresh: boolean }[];
}

/** Identity of a price across dataset versions: model, channel, seller, dimension and unit. */
export function priceKey(
  p: { modelId: string; channel: string; seller: string; unit: string } & Dimension,
  dimKey: string,
): string {
  return `${p.modelId}|${p.channel}|${p.seller}|${dimKey}|${p.unit}`;
}
