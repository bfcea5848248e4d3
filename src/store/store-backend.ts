import type { Transaction } from "kysely";
import type { StoreSchema } from "./schema.js";

/**
 * What differs between the SQLite and PostgreSQL stores beyond SQL, which Kysely already hides:
 * how one ingester excludes another, and how other processes hear of a new version.
 */
export interface StoreBackend {
  /**
   * Runs `fn` under the ingest lock.
   * @throws IngestLockedError when `wait` is false and the lock is held
   */
  withLock<T>(fn: () => Promise<T>, wait: boolean): Promise<T>;
  /**
   * Called first in the publish transaction: makes its check of the latest version and its writes
   * one atomic step against other publishers (T260). SQLite needs nothing (one writer at a time; a
   * read snapshot another writer outdated cannot write); PostgreSQL takes a transaction lock.
   */
  beginPublish(trx: Transaction<StoreSchema>): Promise<void>;
  /** Called inside the publish transaction (PostgreSQL: NOTIFY, delivered on commit). */
  afterPublish(trx: Transaction<StoreSchema>, version: string): Promise<void>;
  /**
   * Pushes new versions to `onVersion` where the backend can; returns a stop function. An empty
   * version asks the caller to read the latest itself (the push channel was down for a while, T263).
   */
  listen(onVersion: (version: string) => void): Promise<() => Promise<void>>;
  /** Polling interval of `watchVersions` when the caller gives none. */
  readonly defaultPollMs: number;
  close(): Promise<void>;
}
