import type { LifecycleState, PublishedModel, PublishedPrice, SourceHealth } from "../domain/dataset.js";
import type { Listing, SourceId } from "../domain/observation.js";
import type { BoundaryReason } from "./listing-boundary.js";
import type { PriorPrice } from "./reconcile.js";

/**
 * What one dataset build reads (`buildDataset`, D1–D9): the run, each configured source's listings
 * and health, and what the previous version contributes. Types only.
 */

/** One configured source's input to a run. */
export interface SourceInput {
  readonly source: SourceId;
  readonly weight: number;
  /** The source spells models as their makers' API ids and carries their names and limits (T160). */
  readonly makerSpellings?: boolean;
  readonly authoritativeFor: readonly string[];
  /** The listings to use: this run's, or the last good run's when `fresh` is false. */
  readonly listings: readonly Listing[];
  /** True when the source ran and parsed in this run. */
  readonly fresh: boolean;
  /**
   * The source is a maker's own price page (issue 35, T292): its statement stays current for
   * {@link VERIFIED_PAGE_MAX_AGE_DAYS} days after its capture, also when a later run did not
   * bring a new copy (the page failed, or no copy was recorded that month).
   */
  readonly firstPartyPage?: boolean;
  /**
   * The page this run parsed, for a maker's page that parsed now (T294): its public address and the
   * SHA-256 of its text. Carried pages keep the page of the run that captured them.
   */
  readonly page?: { readonly url: string; readonly contentHash: string };
  /** Why the source did not contribute fresh data (failed), or null (succeeded or did not run). */
  readonly error: { readonly message: string; readonly httpStatus: number | null } | null;
  /** False when the source had no payload for this run at all (a snapshot date it is missing from). */
  readonly ran: boolean;
  /**
   * Price fields of this run's payload the field map does not know, per field (T70); absent when
   * the source was not parsed in this run (its last counts are kept).
   */
  readonly unmapped?: Readonly<Record<string, number>>;
  /** Prices of this run's payload the adapter boundary dropped, per reason (`listing-boundary.ts`, T252). */
  readonly boundaryRejected?: Readonly<Partial<Record<BoundaryReason, number>>>;
}

/** What the previous dataset version contributes: prices for effectiveFrom/staleSince, models for firstSeenAt and D3. */
export interface PriorState {
  readonly prices: ReadonlyMap<string, PriorPrice>;
  readonly models: ReadonlyMap<string, { readonly firstSeenAt: string; readonly state: LifecycleState }>;
  readonly sources: ReadonlyMap<SourceId, SourceHealth>;
  /** The previous version's models (listed and tombstones), for permanent ids (issue 12 §8, T66). */
  readonly catalogue?: readonly PublishedModel[];
  /** The previous version's prices, for the removal grace (issue 14 T85). */
  readonly published?: readonly PublishedPrice[];
}

/** One run's input to `buildDataset`. */
export interface BuildInput {
  readonly runId: string;
  /** D9: run start time; also the dataset version. */
  readonly runTime: string;
  readonly finishedAt: string;
  readonly sources: readonly SourceInput[];
  readonly prior: PriorState | null;
}
