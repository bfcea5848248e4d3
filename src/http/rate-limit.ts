import type { IncomingMessage } from "node:http";
import type { Redis } from "ioredis";
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
  readonly redis?: Redis;
  /** Any other rate-limiter-flexible limiter (cluster, another store); wins over `redis`. */
  readonly limiter?: RateLimiterAbstract;
  /** Prefix of the counter keys in a shared store (default `tariff-ratelimit`). */
  readonly keyPrefix?: string;
}

/** The D24 429 problem's detail for a count over the limit. */
export function rejectionDetail(max: number, windowMs: number, retryAfter: number): string {
  const window = windowMs === 60_000 ? "minute" : `${windowMs / 1000} s`;
  return `rate limit of ${max} requests per ${window} exceeded; retry after ${retryAfter} s`;
}

/** D24: Retry-After in whole seconds, at least 1 (a count may end its window in under a second). */
export function retryAfterSeconds(ttlMs: number): number {
  return Math.max(1, Math.ceil(Math.max(0, ttlMs) / 1000));
}

/** `RateLimit-Reset` values 0…60 as strings, so the per-minute window allocates none per request. */
const SECONDS = Array.from({ length: 61 }, (_, i) => String(i));

/**
 * The D24 limit of one process, shared by the fast path and the Fastify path (T130): one
 * rate-limiter-flexible limiter (in memory, or Redis with `REDIS_URL`), one client-IP rule.
 * Preflights are not counted: callers do not ask for them. The library's answer
 * (`RateLimiterRes`) is used as it comes, so counting a request allocates nothing of ours.
 */
export class RateLimit {
  readonly max: number;
  readonly windowMs: number;
  /** `RateLimit-Limit`. */
  readonly limitHeader: string;
  readonly #limiter: RateLimiterAbstract;

  constructor(settings: RateLimitSettings) {
    if (settings.max <= 0) throw new Error("a rate limit needs max > 0");
    this.max = settings.max;
    this.windowMs = settings.windowMs ?? 60_000;
    this.limitHeader = String(this.max);
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
   * Counts one request of a client IP: the library's promise, fulfilled with the count when the
   * client is within its limit, rejected with the count when it is over (see {@link overLimit})
   * or with an Error when the counter store failed (Redis down: serve uncounted, T30).
   */
  consume(ip: string): Promise<RateLimiterRes> {
    return this.#limiter.consume(ip);
  }

  /** The count of a rejection of {@link consume} when the client is over its limit; null when the store failed. */
  static overLimit(reason: unknown): RateLimiterRes | null {
    return reason instanceof RateLimiterRes ? reason : null;
  }

  /** `RateLimit-Remaining`. */
  static remaining(count: RateLimiterRes): string {
    return String(count.remainingPoints);
  }

  /** `RateLimit-Reset`: whole seconds until the client's window ends, rounded up. */
  static reset(count: RateLimiterRes): string {
    const seconds = Math.ceil(Math.max(0, count.msBeforeNext) / 1000);
    return SECONDS[seconds] ?? String(seconds);
  }

  /** `Retry-After` of a refused request: whole seconds, at least 1. */
  static retryAfter(count: RateLimiterRes): number {
    return retryAfterSeconds(count.msBeforeNext);
  }

  /** The 429 problem's detail. */
  detail(count: RateLimiterRes): string {
    return rejectionDetail(this.max, this.windowMs, RateLimit.retryAfter(count));
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
