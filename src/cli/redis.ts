import { Redis } from "ioredis";
import type { Logger } from "pino";

/**
 * The Redis client sharing the D24 rate limit across processes (issue 5 §4). It never queues
 * commands while disconnected and gives up on a command quickly, so that with Redis down the
 * limit fails open at once (T30) instead of stalling requests; errors are logged once per outage.
 */
export function createRateLimitRedis(url: string, log: Logger): Redis {
  let down = false;
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1000,
    commandTimeout: 500,
    retryStrategy: (attempt) => Math.min(attempt * 200, 5000),
  });
  redis.on("error", (error: Error) => {
    if (down) return;
    down = true;
    log.warn({ err: error.message }, "redis unreachable: rate limit fails open until it is back");
  });
  redis.on("ready", () => {
    if (down) log.info("redis reachable again: rate limit shared");
    down = false;
  });
  return redis;
}
