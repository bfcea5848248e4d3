import type { Redis } from "ioredis";
import { type RateLimiterAbstract, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { WindowCounter } from "./window-counter.js";

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
  /** The clock of the in-process count, ms (the wall clock read once per event-loop turn; tests pass a fake one). */
  readonly now?: () => number;
}

/**
 * One request's D24 count: the requests of the client in its window, this one included, and the
 * ms until the window ends. rate-limiter-flexible's `RateLimiterRes` and the in-process
 * `ClientWindow` both have this shape, so neither is copied.
 */
export interface Count {
  readonly consumedPoints: number;
  readonly msBeforeNext: number;
}

/** What counting a request gives: a count, or null when the shared store failed (served uncounted, T30). */
export type Counted = Count | null;

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

/** "000"…"999": the last three digits of a count, for {@link decimal}. */
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, "0"));

/**
 * `String(n)` for a non-negative integer, kept out of V8's number-string cache (T544). `String(n)`
 * files each new number's string in that cache, a table in the old generation, so a value that
 * differs on every request (`RateLimit-Remaining` under a limit above the prebuilt table) kept the
 * last thousands of them alive: every scavenge promoted ~50 KB of them into the old generation and
 * took ~40 % longer (issue 51). Here only the thousands part goes through `String`, and it changes
 * once per thousand requests; the string made per request is young garbage.
 * @param n a non-negative integer (a count); anything else gives `String(n)`'s text only below 1000
 */
export function decimal(n: number): string {
  // Below a thousand there are too few numbers to churn the cache.
  if (n < 1000) return String(n);
  const thousands = Math.floor(n / 1000);
  return String(thousands) + (THREE_DIGITS[n - thousands * 1000] as string);
}

/**
 * The D24 limit of one process, shared by the fast path and the Fastify path (T130, T231). Without
 * a shared store it counts synchronously in memory ({@link WindowCounter}): {@link count} returns
 * the count itself, no promise. With Redis (or a limiter passed in) every request is one atomic
 * increment in the store, exact across processes (T232): {@link count} returns the library's
 * promise, settled to the count, or to null when the store failed. Preflights are not counted:
 * callers do not ask for them.
 */
export class RateLimit {
  readonly max: number;
  readonly windowMs: number;
  /** `RateLimit-Limit`. */
  readonly limitHeader: string;
  readonly #memory: WindowCounter | null;
  readonly #shared: RateLimiterAbstract | null;
  readonly #remaining: readonly string[];

  constructor(settings: RateLimitSettings) {
    if (settings.max <= 0) throw new Error("a rate limit needs max > 0");
    this.max = settings.max;
    this.windowMs = settings.windowMs ?? 60_000;
    this.limitHeader = String(this.max);
    // `RateLimit-Remaining` values as strings for the usual limits, so a count allocates none.
    this.#remaining = this.max <= 10_000 ? Array.from({ length: this.max + 1 }, (_, i) => String(i)) : [];
    this.#shared =
      settings.limiter ??
      (settings.redis
        ? new RateLimiterRedis({
            storeClient: settings.redis,
            // Redis expiries are whole seconds (EX); only tests use shorter windows, and those count in memory.
            duration: Math.max(1, Math.ceil(this.windowMs / 1000)),
            points: this.max,
            keyPrefix: settings.keyPrefix ?? "tariff-ratelimit",
            // With the connection down, give up at once instead of queueing (T30: fail open).
            rejectIfRedisNotReady: true,
          })
        : null);
    this.#memory = this.#shared ? null : new WindowCounter(this.windowMs, settings.now);
  }

  /** True when {@link count} answers synchronously (the in-process counter). */
  get synchronous(): boolean {
    return this.#memory !== null;
  }

  /**
   * Counts one request of a client IP, or `points` requests at once (the messages of an MCP batch
   * after the first, T195). In process: the count, synchronously (the counter's own object: read
   * it before the next count). Shared store: a promise of the count, or of null when the store
   * failed (Redis down: serve uncounted, T30); it never rejects.
   */
  count(ip: string, points = 1): Count | Promise<Counted> {
    if (this.#memory) return this.#memory.hit(ip, points);
    return (this.#shared as RateLimiterAbstract).consume(ip, points).then(
      (count) => count,
      // Over the limit the library rejects with the count; any other rejection is the store failing.
      (reason: unknown) => (reason instanceof RateLimiterRes ? reason : null),
    );
  }

  /** True when the count is over the limit: the request is refused with a 429. */
  isOver(count: Count): boolean {
    return count.consumedPoints > this.max;
  }

  /** `RateLimit-Remaining`. */
  remaining(count: Count): string {
    const n = Math.max(0, this.max - count.consumedPoints);
    // Never read past the table: an out-of-bounds read is a slow path in V8.
    return n < this.#remaining.length ? (this.#remaining[n] as string) : decimal(n);
  }

  /** `RateLimit-Reset`: whole seconds until the client's window ends, rounded up. */
  reset(count: Count): string {
    const seconds = Math.ceil(Math.max(0, count.msBeforeNext) / 1000);
    return seconds < SECONDS.length ? (SECONDS[seconds] as string) : String(seconds);
  }

  /** `Retry-After` of a refused request: whole seconds, at least 1. */
  retryAfter(count: Count): number {
    return retryAfterSeconds(count.msBeforeNext);
  }

  /** The 429 problem's detail. */
  detail(count: Count): string {
    return rejectionDetail(this.max, this.windowMs, this.retryAfter(count));
  }

  /** Stops the in-process counter's sweep (the app is closing); a shared store is the caller's to close. */
  close(): void {
    this.#memory?.clear();
  }
}
