import pino from "pino";
import type { Config } from "../config.js";
import { createApp } from "../http/create-app.js";
import { ViewHolder } from "../http/view-holder.js";
import { registerMcpRoutes } from "../mcp/http-transport.js";
import { openStore } from "../store/open-store.js";
import { webBuildExists } from "../web/register-web.js";
import { followVersions } from "./follow-versions.js";
import { scheduleLiveIngest } from "./ingest-live.js";
import { loadCurrentView, replayIfEmpty } from "./load-view.js";
import { createRateLimitRedis } from "./redis.js";
import { runWorkers } from "./workers.js";

/** Options of `tariff serve`. */
export interface ServeOptions {
  /** issue 7 §3: run live ingestion in the background every so many ms. */
  readonly ingestEveryMs?: number | undefined;
  /** issue 5 §5: API processes sharing the port; 1 = this process serves. */
  readonly workers?: number | undefined;
}

/**
 * `tariff serve`: opens the store, replays the bundled snapshots into it when it is empty, builds
 * the in-memory view of the current dataset version and serves API v1, plus the assistant
 * connector (MCP, Streamable HTTP) at `/mcp`, always on (T21). With `workers` > 1 the primary
 * replays and ingests, and the workers serve (issue 5).
 */
export async function serve(config: Config, options: ServeOptions = {}): Promise<void> {
  const workers = options.workers ?? 1;
  if (workers <= 1) return serveOne(config, options.ingestEveryMs);
  return runWorkers(
    workers,
    () => serveOne(config, undefined),
    async () => {
      const store = await openStore(config);
      await replayIfEmpty(store, config);
      await store.close();
      // One ingester for the host; the workers follow its versions through the store.
      if (options.ingestEveryMs) scheduleLiveIngest(config, options.ingestEveryMs, () => {});
    },
  );
}

async function serveOne(config: Config, ingestEveryMs: number | undefined): Promise<void> {
  const log = pino({ level: config.logLevel }, pino.destination(2));
  const view = await loadCurrentView(config);
  const views = new ViewHolder(view);
  const redis = config.redisUrl ? createRateLimitRedis(config.redisUrl, log) : undefined;
  // issue 18: the web catalogue at `/` when `npm install` built it (T121); else API and docs only.
  const web = webBuildExists();
  if (!web) log.warn("no web catalogue build in dist/web; run `npm run build:web` to serve it at /");
  const app = await createApp({
    views,
    rateLimitPerMinute: config.rateLimitPerMinute,
    rateLimitRedis: redis,
    publicBaseUrl: config.publicBaseUrl,
    trustProxy: config.trustProxy,
    logLevel: config.logLevel,
    timeouts: config.timeouts,
    // issue 6 §2, T51: gzip and brotli variants per Accept-Encoding.
    compression: true,
    web: web ? {} : undefined,
  });
  registerMcpRoutes(app, views);
  const stopFollowing = await followVersions(config, views, log);
  // issue 7 §3: live ingestion in the background; each publish swaps the served view atomically.
  const schedule = ingestEveryMs ? scheduleLiveIngest(config, ingestEveryMs, (next) => views.swap(next)) : null;
  const shutdown = async () => {
    await schedule?.stop();
    await stopFollowing();
    await app.close();
    redis?.disconnect();
    process.exit(0);
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
  await app.listen({ port: config.port, host: config.host });
  process.stderr.write(
    `Tariff serving dataset ${view.version} at http://${config.host}:${config.port}/api/v1 (MCP at /mcp${web ? ", web catalogue at /" : ""})\n`,
  );
}
