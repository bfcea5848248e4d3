import type { Channel } from "./channel.js";
import type { Confidence } from "./confidence.js";
import type { AnnouncedPrice } from "./dated-price.js";
import type { Dimension } from "./dimension.js";
import type { PendingMove, SourceId } from "./observation.js";
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
  /** Listings of the source's last run that matched no model (issue 12 §4; an addition to /sources, T65). */
  readonly unmatchedLastRun: number;
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
export const SOURCE_RUN_STATUSES = ["succeeded", "failed", "not_run"] as const;
export type SourceRunStatus = (typeof SOURCE_RUN_STATUSES)[number];

/** A run that published: every source parsed, or some failed (their last good data carried). */
export const RUN_STATUSES = ["succeeded", "partial"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** The record of one ingestion run (D9). */
export interface RunRecord {
  readonly id: string;
  /** = run start time, ISO 8601 UTC with milliseconds. */
  readonly datasetVersion: string;
  readonly status: RunStatus;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly summary: RunSummary;
}

export interface RunSummary {
  readonly observations: Readonly<Record<string, number>>;
  /** Price rows the plausibility guards quarantined, per source (T73); absent in runs before issue 13. */
  readonly rejected?: Readonly<Record<string, number>>;
  /** Listings per source that matched no model (issue 12 §4). */
  readonly unresolved: Readonly<Record<string, number>>;
  /** Each unmatched listing with its reason and nearest model, for `tariff identity --unmatched`. */
  readonly unmatched?: readonly UnmatchedRow[];
  readonly failed: Readonly<Record<string, string>>;
  readonly models: number;
  readonly prices: number;
  readonly disputed: number;
  /**
   * Published amounts the maker's own page corrected in this run (`reference_changed`, T293):
   * absent in runs before issue 35.
   */
  readonly corrections?: number;
  /**
   * Sellers a source renamed in this run (issue 52 §1, T493): the old and the new slug, both kept as
   * the seller's names (`aliases`); its prices continue under the new one. Absent when none.
   */
  readonly sellerRenames?: readonly {
    readonly source: SourceId;
    readonly from: string;
    readonly to: string;
    readonly aliases: readonly string[];
  }[];
}

/** One listing that matched no model in a run (issue 12 §4). */
export interface UnmatchedRow {
  readonly source: string;
  readonly seller: string;
  readonly model: string;
  readonly reason: string;
  readonly nearest: string | null;
  readonly observations: number;
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
export const LIFECYCLE_STATES = ["preview", "active", "deprecated", "retired"] as const;
export type LifecycleState = (typeof LIFECYCLE_STATES)[number];

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
  /**
   * Ids this model was published under in earlier runs (issue 12 §8, T66): they keep answering,
   * as a redirect to this model.
   */
  readonly formerIds: readonly string[];
  /**
   * False for a model no source lists any more (a tombstone, T66): it still answers by id, with
   * no prices, but is left out of lists and counts.
   */
  readonly listed: boolean;
}

/**
 * One source's statement behind a published price (provenance, not in the API shape). `since` is
 * the run from which the source has shown this amount (evidence age, issue 14 T81); `lagging` marks
 * a source still showing an old amount after others moved together to a new one (T82). `listing` is
 * the source's own spelling of the model (its listing id); a listing that lands on another model in
 * a later run moved, it did not leave the market (T87).
 */
/**
 * Which copy of a maker's own page a statement was read from (issue 35 §3, T294): the page's public
 * address (its Markdown twin), when Tariff captured it (the run that parsed it; the snapshot date in
 * the replay) and the SHA-256 (hex) of its text.
 */
export interface PageEvidence {
  readonly url: string;
  readonly capturedAt: string;
  readonly contentHash: string;
}

export interface PriceEvidence {
  readonly source: SourceId;
  readonly amount: number;
  readonly fresh: boolean;
  readonly since?: string;
  readonly lagging?: boolean;
  readonly listing?: string;
  /**
   * True when the seller's own price list states this amount now: its source ran now, or it is a
   * maker's page within its freshness bound (T75, T88, T292).
   */
  readonly authoritative?: boolean;
  /** The maker's page this amount was read from, and when (T294); only on a first-party page's evidence. */
  readonly page?: PageEvidence;
  /** A move of the maker's page held until its next fetch (T467): the amount it states now, and since when. */
  readonly pending?: PendingMove;
  /**
   * The amount this source left when it last changed (at `since`) by a coherent move — maker-wide
   * or corroborated —, evidence of a market move (issue 24, T170). Absent otherwise.
   */
  readonly movedFrom?: number;
  /**
   * The jump guard held this statement back in this version (T176): it is no vote for the amount,
   * and a next run on the same evidence (the same sources at the same amounts) holds it again (T375).
   */
  readonly held?: boolean;
  /**
   * A lone move of a direct price held back in this version (issue 52 §4, T496): no vote for the
   * amount now; the next run holds it again while the source states the same amount alone and
   * another still states the published one (T523).
   */
  readonly loneMove?: boolean;
  /**
   * The run from which no fresh source listed this price any more (a price served on by the
   * removal grace, T85): its removal is dated then (issue 24 §4, T174).
   */
  readonly absentSince?: string;
}

/**
 * The outcome of reconciling one dimension (D8): the amount (display units, e.g. USD per 1M
 * tokens) with its confidence and provenance; shared by reconciliation and the published price.
 */
export interface PriceVerdict {
  readonly amount: number;
  readonly unit: Unit;
  readonly denomination: Denomination;
  readonly currency: string;
  readonly confidence: Confidence;
  /** Fraction 0–1 (D8). */
  readonly confidenceScore: number;
  /** Agreeing sources, primary first (weight descending, then id). */
  readonly sources: readonly SourceId[];
  readonly dissenting: readonly SourceId[];
  readonly disputed: boolean;
  /** What would be published without the primary source; null when no other source speaks (D8). */
  readonly fallbackAmount: number | null;
  readonly effectiveFrom: string;
  readonly staleSince: string | null;
}

/** One price of one model in one channel and seller (api-v1.md "Price" plus provenance). */
export interface PublishedPrice extends Dimension, PriceVerdict {
  readonly modelId: string;
  readonly channel: Channel;
  readonly seller: string;
  /** D27, collisions already extended. */
  readonly label: string;
  readonly displayUnit: string;
  /** Every source's own amount for this dimension (provenance). */
  readonly observations: readonly PriceEvidence[];
  /** The stated end of this price (ISO 8601 timestamp, exclusive), T335; absent or null: none stated. */
  readonly effectiveUntil?: string | null;
  /** The price announced from `effectiveUntil` (T335); absent or null: none. */
  readonly announced?: AnnouncedPrice | null;
}

/** Identity of a price across dataset versions: model, channel, seller, dimension and unit. */
export function priceKey(
  p: { modelId: string; channel: string; seller: string; unit: string } & Dimension,
  dimKey: string,
): string {
  return `${p.modelId}|${p.channel}|${p.seller}|${dimKey}|${p.unit}`;
}
