/**
 * Bound on the request URL (path and query), in characters: a longer URL is a 414 problem (T25).
 * Node's own 16 KiB header limit answers 431 beyond it.
 */
export const MAX_URL_LENGTH = 4096;

/**
 * Server timeouts against slow clients (issue 4 §6), in ms. Node checks them every
 * `checkIntervalMs`, so a stalled client is cut off within timeout + interval.
 */
export interface ServerTimeouts {
  /** Time to receive the complete request headers (slowloris); 408 then close. */
  readonly headersMs: number;
  /** Time to receive the complete request, headers and body; 408 then close. */
  readonly requestMs: number;
  /** Idle time of a keep-alive connection between requests before it is closed. */
  readonly keepAliveMs: number;
  /**
   * Idle time of a connection while a request is read or answered (issue 26 §6, T197): no byte
   * moves either way for this long (a client that never reads its answer) and the connection is
   * destroyed, its buffered answer freed. Absent: {@link DEFAULT_TIMEOUTS}'s.
   */
  readonly idleMs?: number;
  /** How often node looks for timed-out requests (node's default 30 000 ms is coarse). */
  readonly checkIntervalMs?: number;
}

/**
 * Defaults: headers 10 s, whole request 30 s, keep-alive 72 s (above the 60 s idle of common load
 * balancers), idle while answering 30 s.
 */
export const DEFAULT_TIMEOUTS = {
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 72_000,
  idleMs: 30_000,
} as const satisfies ServerTimeouts;
