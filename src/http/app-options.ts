import type { FastifyBaseLogger } from "fastify";
import type { Redis } from "ioredis";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import type { EndpointServices } from "../catalogue/call.js";
import type { ViewHolder } from "../catalogue/view-holder.js";
import type { WebOptions } from "../web/register-web.js";
import type { TrustProxy } from "./client-ip.js";
import type { ServerTimeouts } from "./limits.js";
import type { PastDayRenderer } from "./past-days.js";

/** What the HTTP app needs; it reads no environment itself. */
export interface AppOptions {
  readonly views: ViewHolder;
  /** D24; 0 = off. */
  readonly rateLimitPerMinute: number;
  /** D24 window in ms (60 000 unless a test shortens it). */
  readonly rateLimitWindowMs?: number;
  /** The clock of the in-process D24 count, ms (the wall clock; tests of the window pass a fake one, T231). */
  readonly rateLimitClock?: () => number;
  /**
   * D24: a rate-limiter-flexible limiter to count with instead of the in-process counter
   * (another store, a cluster limiter); its `points` and `duration` should match the two above.
   */
  readonly rateLimiter?: RateLimiterAbstract;
  /** Shares the D24 counters through Redis (REDIS_URL, an ioredis client); fails open when Redis is down (T30). */
  readonly rateLimitRedis?: Redis | undefined;
  /** D19: absolute base URL for links; else the server's own listening address. */
  readonly publicBaseUrl?: string | undefined;
  /** D24 `TRUST_PROXY`: a hop count or the trusted proxies' addresses and CIDR ranges. */
  readonly trustProxy?: TrustProxy;
  readonly logLevel?: string;
  /** A logger to use instead of a new pino at `logLevel` (tests capture the fault log with it). */
  readonly logger?: FastifyBaseLogger;
  /** Timeouts against slow clients; defaults {@link DEFAULT_TIMEOUTS}. */
  readonly timeouts?: ServerTimeouts;
  /** Bound of the per-version cache of responses to free query input (entries; default 5 000). */
  readonly responseCacheEntries?: number;
  /** Bound of the same cache in bytes (default 64 MiB). */
  readonly responseCacheBytes?: number;
  /**
   * Serve gzip and brotli variants per `Accept-Encoding` with `Vary: Accept-Encoding` (issue 6 §2,
   * T51). On unless set to false (issue 16).
   */
  readonly compression?: boolean;
  /** Build the parameter-free responses when a version becomes current (default true; tests compare both). */
  readonly precompute?: boolean;
  /** Answer built responses before Fastify (T50, T130; default true; tests compare both paths). */
  readonly fastPath?: boolean;
  /** Mount the web catalogue at `/` (issue 18, T121); absent = API, MCP and docs only. */
  readonly web?: WebOptions | undefined;
  /**
   * What the endpoints' parameters load through: the point-in-time reads, the recorded upstream
   * files the price-file exports keep the consumers' keys from (issue 29, T210); built once in
   * `src/cli/` (T275). Absent: the view's own point-in-time reads and no recorded file.
   */
  readonly services?: EndpointServices | undefined;
  /**
   * Renders past-day (`at`) answers off the event loop (a worker thread built in `src/cli/`, issue
   * 47 §2, T470); absent: in process. The app does not close it.
   */
  readonly pastDays?: PastDayRenderer | null | undefined;
}
