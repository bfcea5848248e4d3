/**
 * Store write failures named for what they are (issue 33 §5, T265). A full disk surfaced as
 * "cannot rollback - no transaction is active": SQLite ends a transaction itself on SQLITE_FULL,
 * so the ROLLBACK that follows fails and its error hid the real one.
 */

/** The store could not write because its disk (or its size limit) is full. Nothing was written. */
export class StoreFullError extends Error {
  override name = "StoreFullError";
}

/** Error codes of a full disk: SQLite's, the operating system's, PostgreSQL's `disk_full` SQLSTATE. */
const FULL_CODES = new Set(["SQLITE_FULL", "ENOSPC", "53100"]);

/**
 * `error` as a {@link StoreFullError} saying `what` when it is a full disk, else unchanged.
 * @param what what failed, e.g. `dataset 2026-06-01T00:00:00.000Z is not published`
 */
export function namedWriteError(error: unknown, what: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string" || !FULL_CODES.has(code)) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new StoreFullError(`disk full: ${what} (${code}: ${detail})`, { cause: error });
}
