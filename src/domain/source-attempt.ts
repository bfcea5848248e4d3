import type { SourceId } from "./observation.js";

/**
 * The last live attempt at a source (issue 38 §1, T310), recorded by every live run whether or not
 * it published a dataset version: when the source was tried, what came of it, and why it failed.
 * Pure data.
 */
export interface SourceAttempt {
  readonly source: SourceId;
  /** When the run that tried the source started (ISO 8601 UTC). */
  readonly at: string;
  readonly status: SourceAttemptStatus;
  /** Set exactly when `status` is `failed`; the message names no address (T193). */
  readonly error: { readonly message: string; readonly httpStatus: number | null } | null;
}

/**
 * `succeeded` (a new payload parsed, or refused by no guard), `unchanged` (it answered with the
 * payload its last good parse came from: a 304 or identical bytes), `failed` (transport, HTTP or
 * guard failure).
 */
export const SOURCE_ATTEMPT_STATUSES = ["succeeded", "unchanged", "failed"] as const;
export type SourceAttemptStatus = (typeof SOURCE_ATTEMPT_STATUSES)[number];
