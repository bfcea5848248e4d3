import type { ChangeRecord, HistoryPoint, PublishedChange } from "../domain/change.js";
import type { Dataset, PublishedModel, PublishedPrice, RunRecord } from "../domain/dataset.js";
import type { Listing, SourceId } from "../domain/observation.js";
import type { SourceAttempt } from "../domain/source-attempt.js";

/**
 * The persistence port (issue 2 §7): every dataset version is kept with its run record; the latest
 * published version is the current one. Implementations: Kysely over SQLite (default) or PostgreSQL.
 */
export interface CatalogueStore {
  /** Applies pending migrations. Idempotent. */
  migrate(): Promise<void>;
  /** The newest published run, or null on an empty store. */
  latestRun(): Promise<RunRecord | null>;
  /** Every published run, oldest first. */
  listRuns(): Promise<RunRecord[]>;
  /**
   * Loads a whole dataset version (the latest when `version` is omitted); null when none.
   */
  loadDataset(version?: string): Promise<Dataset | null>;
  /** Last good listings per source, carried into runs where a source does not run or fails. */
  loadSourceStates(): Promise<Map<SourceId, SourceState>>;
  /**
   * Publishes a dataset version, the changes and history points its run saw, and the sources' new
   * states in ONE transaction: either all of it becomes visible or nothing does (D9 "a failed run
   * publishes nothing").
   * @param options.basedOn the store's latest version when the run loaded what it builds on (null:
   *   the store was empty): the publish checks, inside its transaction, that it still is (T260), so
   *   a run that lost its ingest lock to another ingester, which published meanwhile, never
   *   publishes. Omitted: no check.
   * @throws Error when the version already exists (a run is never published twice)
   * @throws IngestLockLostError when `basedOn` is given and another version was published since
   */
  publish(
    dataset: Dataset,
    states: readonly SourceState[],
    history?: RunHistory,
    options?: { readonly basedOn?: string | null },
  ): Promise<void>;
  /**
   * Records the sources' attempts of a live run (T310), replacing each one's previous attempt;
   * written whether or not the run published. Sources not in `attempts` keep theirs.
   */
  recordAttempts(attempts: readonly SourceAttempt[]): Promise<void>;
  /** Each source's last live attempt (T310), one per source tried, by source id; empty when no live run ever ran. */
  loadAttempts(): Promise<SourceAttempt[]>;
  /**
   * Every change record ever published, in publication order (publishing version, then its order
   * in that version), with where it was published (T226). Never pruned.
   */
  loadChanges(): Promise<PublishedChange[]>;
  /**
   * Every history point ever published, per series in (date, seq) order. Never pruned. With
   * `upstreamDated`, only the points a source dated itself (`recordedBy` `upstream:<source>`, D17):
   * the view builds the rest from the price spans (T456) and needs only these.
   */
  loadHistory(options?: { readonly upstreamDated?: boolean }): Promise<HistoryPoint[]>;
  /**
   * Every price and model as validity intervals over dataset versions (issue 17, T146): what each
   * version published, for point-in-time answers (`at=`). Prices come without their evidence
   * (`observations` empty). Never pruned.
   */
  loadSpans(): Promise<StoredSpans>;
  /**
   * The spans open at one dataset version: what that version published (prices without their
   * evidence, like {@link loadSpans}), read in pages of a few hundred rows with the event loop
   * free between them (issue 26 §4, T199), so a server answering `at=` never pauses for the read.
   */
  loadSpansAt(version: string): Promise<StoredSpans>;
  /**
   * Every direct-channel price span (without evidence, like {@link loadSpans}): what the history of
   * each model is built from (issue 50 §3, T456). A few thousand rows.
   */
  loadDirectSpans(): Promise<Span<PublishedPrice>[]>;
  /**
   * Runs `fn` holding the store's ingest lock, so one ingester publishes at a time (issue 5 §2):
   * a PostgreSQL advisory lock, or a lock file beside the SQLite database. With `wait: false` a
   * held lock fails at once.
   * @throws IngestLockedError when `wait` is false and another ingester holds the lock
   */
  withIngestLock<T>(fn: () => Promise<T>, options?: { wait?: boolean }): Promise<T>;
  /**
   * Calls `onVersion` with the latest dataset version whenever a new one is published, by any
   * process: LISTEN/NOTIFY on PostgreSQL, with polling as the fallback (and the only way on SQLite).
   * @returns a function that stops watching
   */
  watchVersions(onVersion: (version: string) => void, options?: { pollMs?: number }): Promise<() => Promise<void>>;
  /**
   * Drops the published rows of all but the newest `keep` dataset versions (issue 5 §6). Run
   * records, change records and history points are never pruned.
   * @returns the versions pruned
   */
  pruneVersions(keep: number): Promise<string[]>;
  close(): Promise<void>;
}

/** A value published from dataset version `from` until the version `to` (exclusive; null: still published). */
export interface Span<T> {
  readonly from: string;
  readonly to: string | null;
  readonly value: T;
}

/** The point-in-time record of a store (T146). */
export interface StoredSpans {
  readonly prices: readonly Span<PublishedPrice>[];
  readonly models: readonly Span<PublishedModel>[];
}

/** The last good parse of one source. */
export interface SourceState {
  readonly source: SourceId;
  /** ISO time of the payload (D9). */
  readonly observedAt: string;
  readonly listings: readonly Listing[];
}

/** What a run adds to the permanent record: its change records and new history points. */
export interface RunHistory {
  readonly changes: readonly ChangeRecord[];
  readonly points: readonly HistoryPoint[];
}

/** Another ingester holds the ingest lock. */
export class IngestLockedError extends Error {
  override name = "IngestLockedError";
}

/**
 * A run tried to publish after another ingester published since the run loaded what it builds on
 * (T260): it no longer held the ingest lock. Nothing of the run is published.
 */
export class IngestLockLostError extends Error {
  override name = "IngestLockLostError";
}

/** NOTIFY channel on PostgreSQL carrying new dataset versions. */
export const VERSION_CHANNEL = "tariff_dataset_version";
