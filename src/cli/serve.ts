import cluster from "node:cluster";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { ViewHolder } from "../catalogue/view-holder.js";
import type { Config } from "../config.js";
import { createApp } from "../http/create-app.js";
import { registerMcpRoutes } from "../http/mcp-route.js";
import { webBuildExists } from "../web/register-web.js";
import { followVersions } from "./follow-versions.js";
import { loadCurrentView, prepareStore, storeLine } from "./load-view.js";
import { onStopSignal } from "./signals.js";
import { upstreamFiles } from "./upstream-files.js";
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
      process.stderr.write(`tariff: ${storeLine(config)}\n`);
      const store = await prepareStore(config);
      await store.close();
      // One ingester for the host; the workers follow its versions through the store.
      if (!options.ingestEveryMs) return undefined;
      const { scheduleLiveIngest } = await import("./ingest-live.js");
      const schedule = scheduleLiveIngest(config, options.ingestEveryMs, () => {});
      return () => schedule.stop();
    },
  );
}

/**
 * One API process. Its start and stop are said in plain lines on stderr (T97); the running
 * server's events (faults, new versions, live runs) are pino's JSON lines on stderr too.
 */
async function serveOne(config: Config, ingestEveryMs: number | undefined): Promise<void> {
  const log = pino({ level: config.logLevel }, pino.destination(2));
  const say = (line: string) => process.stderr.write(`tariff: ${line}\n`);
  if (cluster.isPrimary) say(storeLine(config));
  const view = await loadCurrentView(config);
  const views = new ViewHolder(view);
  // Features that are off load nothing (issue 16, T134): ioredis, the live ingester (undici) and
  // the MCP SDK (on the first /mcp request) are imported only when used.
  const redis = config.redisUrl ? (await import("./redis.js")).createRateLimitRedis(config.redisUrl, log) : undefined;
  // issue 18: the web catalogue at `/` when `npm install` built it (T121); else API and docs only.
  const web = webBuildExists();
  if (!web && cluster.isPrimary)
    say("no web catalogue build in dist/web (run `npm run build:web`); / points at the API reference at /docs");
  const app = await createApp({
    logger: log,
    views,
    rateLimitPerMinute: config.rateLimitPerMinute,
    rateLimitRedis: redis,
    publicBaseUrl: config.publicBaseUrl,
    trustProxy: config.trustProxy,
    logLevel: config.logLevel,
    timeouts: config.timeouts,
    // issue 6 §2, T51: gzip and brotli variants per Accept-Encoding.
    compression: true,
    // The model pages' heads (T207) read the served view.
    web: web ? { views } : undefined,
    // issue 29: the price-file exports keep LiteLLM's and models.dev's keys from the recorded files.
    upstream: upstreamFiles([config.live.archiveDir, config.snapshotsDir]),
  });
  registerMcpRoutes(app, views);
  const stopFollowing = await followVersions(config, views, log);
  // issue 7 §3: live ingestion in the background; each publish swaps the served view atomically.
  const schedule = ingestEveryMs
    ? (await import("./ingest-live.js")).scheduleLiveIngest(config, ingestEveryMs, (next) => views.swap(next))
    : null;
  onStopSignal((signal) => {
    if (cluster.isPrimary)
      say(
        `${signal}: stopping: no new connections, finishing the requests in flight${schedule ? ", ending the live ingester" : ""}`,
      );
    return async () => {
      await schedule?.stop();
      await stopFollowing();
      await app.close();
      redis?.disconnect();
      if (cluster.isPrimary) say("stopped");
    };
  });
  // Fastify says "Server listening at …" as a JSON line; the plain line below says it for the start log.
  const level = app.log.level;
  app.log.level = "silent";
  try {
    await app.listen({ port: config.port, host: config.host });
  } finally {
    app.log.level = level;
  }
  if (!cluster.isPrimary) return;
  const address = app.server.address() as AddressInfo;
  const base = `http://${address.family === "IPv6" ? `[${address.address}]` : address.address}:${address.port}`;
  say(`serving dataset ${view.version} at ${base}/api/v1`);
  say(`API reference at ${base}/docs, MCP at ${base}/mcp${web ? `, web catalogue at ${base}/` : ""}`);
  say("Ctrl-C (SIGINT) or SIGTERM stops the server");
}
