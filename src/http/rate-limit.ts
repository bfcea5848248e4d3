import rateLimit, { type FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Redis } from "ioredis";

/** D24 settings of the per-client-IP limit. */
export interface RateLimitSettings {
  /** Requests per window per client IP; 0 turns the limit off (and its headers with it). */
  readonly max: number;
  /** Window length in ms; 60 000 in production (D24 "per minute"), shorter in tests. */
  readonly windowMs?: number;
  /**
   * Counter store (@fastify/rate-limit's store interface). Undefined = the library's in-process
   * LRU store; a Redis-backed store plugs in here when the service runs as several processes.
   */
  readonly store?: FastifyRateLimitStoreCtor;
  /**
   * A Redis client shares the counters across processes and hosts (D24, issue 5 §4) through the
   * library's Redis store. When Redis fails the limit fails open: requests are served, the error
   * is logged (T30).
   */
  readonly redis?: Redis;
}

/** What the error handler needs to turn a rejection into the D24 429 problem. */
export interface RateLimitRejection {
  readonly rateLimited: true;
  readonly statusCode: 429;
  readonly detail: string;
}

export function isRateLimitRejection(error: unknown): error is RateLimitRejection {
  return typeof error === "object" && error !== null && (error as { rateLimited?: unknown }).rateLimited === true;
}

/**
 * Registers @fastify/rate-limit per D24: every route counts (304, 400, 404 too) except preflights;
 * draft-spec `RateLimit-Limit/Remaining/Reset` on every counted response; the 429 gets
 * `Retry-After` and is thrown as a {@link RateLimitRejection} for the error handler to render.
 * The client IP is `request.ip`, which honours Fastify's `trustProxy` (TRUST_PROXY).
 */
export async function registerRateLimit(app: FastifyInstance, settings: RateLimitSettings): Promise<void> {
  if (settings.max <= 0) return;
  const windowMs = settings.windowMs ?? 60_000;
  await app.register(rateLimit, {
    global: true,
    max: settings.max,
    timeWindow: windowMs,
    enableDraftSpec: true,
    ...(settings.store ? { store: settings.store } : {}),
    ...(settings.redis ? { redis: settings.redis, nameSpace: "tariff-ratelimit-", skipOnError: true } : {}),
    allowList: (req) => req.method === "OPTIONS",
    keyGenerator: (req) => req.ip,
    errorResponseBuilder: (_req, ctx) => rejection(ctx.max, windowMs, ctx.ttl),
  });
}

/** D24: Retry-After in whole seconds, at least 1 (the library may say 0 at the end of a window). */
export function retryAfterSeconds(ttlMs: number): number {
  return Math.max(1, Math.ceil(ttlMs / 1000));
}

/**
 * Counts a request that never reached a route (a URL the router could not decode) against the
 * limit, so that D24 "every request but a preflight counts" holds there too. Sets the RateLimit-*
 * headers; returns the rejection when the client is over its limit.
 */
export async function countOutsideRoutes(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<RateLimitRejection | null> {
  if (typeof app.createRateLimit !== "function") return null;
  const result = await app.createRateLimit()(request);
  if (result.isAllowed) return null;
  reply.header("ratelimit-limit", result.max);
  reply.header("ratelimit-remaining", result.remaining);
  reply.header("ratelimit-reset", result.ttlInSeconds);
  if (!result.isExceeded) return null;
  reply.header("retry-after", retryAfterSeconds(result.ttl));
  return rejection(result.max, result.timeWindow, result.ttl);
}

function rejection(max: number, windowMs: number, ttlMs: number): RateLimitRejection {
  const window = windowMs === 60_000 ? "minute" : `${windowMs / 1000} s`;
  return {
    rateLimited: true,
    statusCode: 429,
    detail: `rate limit of ${max} requests per ${window} exceeded; retry after ${retryAfterSeconds(ttlMs)} s`,
  };
}
