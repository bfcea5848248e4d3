import SQLite from "better-sqlite3";
import pRetry from "p-retry";
import { IngestLockedError } from "../catalogue-store.js";

/**
 * The SQLite store's ingest lock (issue 33 §4, T260): an exclusive transaction held open on a small
 * SQLite file beside the database (`<db>.ingest.lock`, empty). It is an OS-level lock (POSIX
 * `fcntl`, taken by SQLite), so it needs no refresh: a compute phase that blocks its thread for
 * minutes keeps it, and the operating system drops it when the holder's process ends, however it
 * ends (SIGTERM, SIGKILL, a crash) — and, as better-sqlite3 closes a thread's connections when
 * the thread ends, when a terminated ingestion thread ends. No stale time, no lock left behind:
 * the file stays, but holds nothing. SQLite tracks its locks per process, so two connections of
 * one process (two threads) exclude each other too.
 */

/** The lock file of the SQLite database at `path`. */
export function ingestLockPath(path: string): string {
  return `${path}.ingest.lock`;
}

/** A held ingest lock. */
export interface HeldIngestLock {
  /** Releases the lock (ends the transaction, closes the file). Idempotent. */
  release(): void;
}

/** How long a waiting ingester polls: ~10 min, 0.2 s first, then up to 1 s apart. */
const WAIT = { retries: 600, minTimeout: 200, maxTimeout: 1000 } as const;

/**
 * Takes the ingest lock of the SQLite database at `path`.
 * @param wait false: fail at once when held; true: poll (never blocking the thread) for ~10 min
 * @throws IngestLockedError when the lock stays held (at once without `wait`)
 * @throws Error when the lock file cannot be opened (its folder is not writable)
 */
export async function takeIngestLock(path: string, wait: boolean): Promise<HeldIngestLock> {
  const attempt = (): HeldIngestLock => {
    const file = new SQLite(ingestLockPath(path));
    try {
      // No busy handler: a held lock answers SQLITE_BUSY at once, and waiting is p-retry's, which
      // leaves the event loop free between attempts (a SIGTERM is handled while waiting).
      file.pragma("busy_timeout = 0");
      file.exec("BEGIN EXCLUSIVE");
    } catch (error) {
      file.close();
      if ((error as { code?: string }).code === "SQLITE_BUSY")
        throw new IngestLockedError(`another ingester holds the lock on ${path}`);
      throw error;
    }
    let held = true;
    return {
      release() {
        if (!held) return;
        held = false;
        file.close(); // closing ends the transaction, and with it the lock
      },
    };
  };
  if (!wait) return attempt();
  return pRetry(attempt, { ...WAIT, shouldRetry: ({ error }) => error instanceof IngestLockedError });
}
