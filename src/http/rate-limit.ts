import type { IncomingMessage } from "node:http";
import proxyaddr from "proxy-addr";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";

/** D24 settings of the per-client-IP limit. */
export interface RateLimitSettings {
  /** Requests per window per client IP; 0 turns the limit off (and its headers with it). */
  readonly max: number;
  /** Window length in ms; 60 000 in production (D24 "per minute"), shorter in tests. */
  readonly windowMs?: number;
  /**
   * A Redis client (ioredis) shares the counters across processes and hosts (D24, issue 5 §4)
   * through rate-limiter-flexible's Redis store. When Redis fails the limit fails open: the
   * request is served uncounted (T30, T130).
   */
  readonly redis?: unknown;
  /** Any other rate-limiter-flexible limiter (cluster, another store); wins over `redis`. */
  readonly limiter?: RateLimiterAbstract;
  /** Prefix of the counter keys in a shared store (default `tariff-ratelimit`). */
  readonly keyPrefix?: string;
}

/**
 * How one request was counted (D24): the values of the three `RateLimit-*` headers, and, when
 * the client is over its limit, the `Retry-After` seconds (whole, ≥ 1).
 */
export interface RateLimitCount {
  readonly limit: string;
  readonly remaining: string;
  /** Seconds until the client's window resets. */
  readonly reset: string;
  /** Set when the request is refused (429). */
  readonly retryAfter: number | undefined;
}

/** The D24 429 problem's detail for a count over the limit. */
export function rejectionDetail(max: number, windowMs: number, retryAfter: number): string {
  const window = windowMs === 60_000 ? "minute" : `${windowMs / 1000} s`;
  return `rate limit of ${max} requests per ${window} exceeded; retry after ${retryAfter} s`;
}

/** D24: Retry-After in whole seconds, at least 1 (a count may end its window in under a second). */
export function retryAfterSeconds(ttlMs: number): number {
  return Math.max(1, Math.ceil(ttlMs / 1000));
}

/** `RateLimit-Reset` values 0…60 as strings, so the per-minute window allocates none per request. */
const SECONDS = Array.from({ length: 61 }, (_, i) => String(i));

/**
 * The D24 limit of one process, shared by the fast path and the Fastify path (T130): one
 * rate-limiter-flexible limiter (in memory, or Redis with `REDIS_URL`), one client-IP rule.
 * Preflights are not counted: callers do not ask for them.
 */
export class RateLimit {
  readonly max: number;
  readonly windowMs: number;
  readonly #limiter: RateLimiterAbstract;
  readonly #limit: string;

  constructor(settings: RateLimitSettings) {
    if (settings.max <= 0) throw new Error("a rate limit needs max > 0");
    this.max = settings.max;
    this.windowMs = settings.windowMs ?? 60_000;
    this.#limit = String(this.max);
    const keyPrefix = settings.keyPrefix ?? "tariff-ratelimit";
    this.#limiter =
      settings.limiter ??
      (settings.redis
        ? new RateLimiterRedis({
            storeClient: settings.redis,
            // Redis expiries are whole seconds (EX); only tests use shorter windows, and those count in memory.
            duration: Math.max(1, Math.ceil(this.windowMs / 1000)),
            points: this.max,
            keyPrefix,
            // With the connection down, give up at once instead of queueing (T30: fail open).
            rejectIfRedisNotReady: true,
          })
        : new RateLimiterMemory({ duration: this.windowMs / 1000, points: this.max, keyPrefix }));
  }

  /**
   * Counts one request of a client IP. Resolves to the count, or to `null` when the counter store
   * failed (Redis down): the request is then served uncounted, without `RateLimit-*` headers (T30).
   */
  consume(ip: string): Promise<RateLimitCount | null> {
    return this.#limiter.consume(ip).then(
      (res) => this.#count(res, false),
      (reason: unknown) => (reason instanceof RateLimiterRes ? this.#count(reason, true) : null),
    );
  }

  #count(res: RateLimiterRes, refused: boolean): RateLimitCount {
    const ms = Math.max(0, res.msBeforeNext);
    const seconds = Math.ceil(ms / 1000);
    return {
      limit: this.#limit,
      remaining: String(res.remainingPoints),
      reset: SECONDS[seconds] ?? String(seconds),
      retryAfter: refused ? retryAfterSeconds(ms) : undefined,
    };
  }
}

/**
 * The D24 client IP of a request, on both paths: the socket address, or with `TRUST_PROXY` the
 * address before the trusted proxies in `X-Forwarded-For` (proxy-addr, as Fastify's `request.ip`).
 * A hop count trusts that many proxies nearest to us; a list trusts those addresses and CIDR ranges.
 */
export function clientIpOf(trustProxy: number | readonly string[] | undefined): (req: IncomingMessage) => string {
  if (trustProxy === undefined) return (req) => req.socket.remoteAddress ?? "";
  const trust =
    typeof trustProxy === "number"
      ? (_address: string, hop: number) => hop < trustProxy
      : proxyaddr.compile([...trustProxy]);
  return (req) => proxyaddr(req, trust);
}
