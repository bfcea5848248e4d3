import cluster from "node:cluster";
import type { AddressInfo } from "node:net";
import pino, { type Logger } from "pino";
import { ViewHolder } from "../catalogue/view-holder.js";
import { daysBetween, describeDays } from "../domain/freshness.js";
import { createApp } from "../http/create-app.js";
import { registerMcpRoutes } from "../http/mcp-route.js";
import { webBuildExists } from "../web/register-web.js";
import type { Config } from "./config.js";
import { endpointServices } from "./endpoint-services.js";
import { followVersions } from "./follow-versions.js";
import type { IngestSchedule, LiveRunOutcome } from "./ingest-live.js";
import { loadCurrentView, prepareStore, storeLine, storeSpans } from "./load-view.js";
import { pastDayRenderer } from "./past-day-renderer.js";
import { onStopSignal } from "./signals.js";
import { runWorkers } from "./workers.js";

/** Options of `tariff serve`. */
export interface ServeOptions {
  /**
   * `--ingest-every` (issue 7 §3, issue 27 §1, T220): live ingestion every so many ms, null for
   * `off`; undefined takes `INGEST_EVERY` (default hourly).
   */
  readonly ingestEveryMs?: number | null | undefined;
  /** issue 5 §5: API processes sharing the port; 1 = this process serves. */
  readonly workers?: number | undefined;
}

/** Live ingestion as `serve` runs it: its interval (null: off) and where that came from, for the start log. */
interface LivePlan {
  readonly everyMs: number | null;
  readonly origin: string;
}

/**
 * `tariff serve`: opens the store, replays the bundled snapshots into it when it is empty, builds
 * the in-memory view of the current dataset version and serves API v1, plus the assistant
 * connector (MCP, Streamable HTTP) at `/mcp`, always on (T21). Live by default (T220): once it
 * serves, a live run starts in the background and then one every interval, each publishing only
 * what is new (T221); the start log says in one plain line what the first one did (T222). With
 * `workers` > 1 the primary replays and ingests, and the workers serve (issue 5).
 */
export async function serve(config: Config, options: ServeOptions = {}): Promise<void> {
  const live: LivePlan =
    options.ingestEveryMs !== undefined
      ? { everyMs: options.ingestEveryMs, origin: "--ingest-every" }
      : {
          everyMs: config.ingestEveryMs,
          origin: config.ingestEveryIsDefault
            ? "the default; INGEST_EVERY or --ingest-every change it, off turns it off"
            : "INGEST_EVERY",
        };
  const workers = options.workers ?? 1;
  if (workers <= 1) return serveOne(config, live);
  const say = (line: string) => process.stderr.write(`tariff: ${line}\n`);
  return runWorkers(
    workers,
    () => serveOne(config, null),
    async () => {
      say(storeLine(config));
      const store = await prepareStore(config);
      // What the workers serve first, for the start log when the first run itself fails.
      const latest = (await store.latestRun())?.datasetVersion ?? null;
      await store.close();
      // One ingester for the host (T220): the primary; the workers follow its versions through the store.
      if (live.everyMs === null) {
        say(`live ingestion off (${offOrigin(live)}): the workers serve the store as it is`);
        return undefined;
      }
      const everyMs = live.everyMs;
      const liveModule = await import("./ingest-live.js");
      let schedule: IngestSchedule | null = null;
      return {
        start: async () => {
          say(`live ingestion: first run now, then every ${formatInterval(everyMs)} (${live.origin})`);
          schedule = startLive(liveModule, config, everyMs, pino({ level: config.logLevel }, pino.destination(2)), {
            say,
            published: async () => {},
            servedAsOf: () => latest,
          });
        },
        stop: async () => {
          await schedule?.stop();
        },
      };
    },
  );
}

/**
 * One API process. Its start and stop are said in plain lines on stderr (T97); the running
 * server's events (faults, new versions, live runs) are pino's JSON lines on stderr too.
 * @param live null in a worker of `--workers` (the primary ingests)
 */
async function serveOne(config: Config, live: LivePlan | null): Promise<void> {
  const log = pino({ level: config.logLevel }, pino.destination(2));
  const say = (line: string) => process.stderr.write(`tariff: ${line}\n`);
  if (cluster.isPrimary) say(storeLine(config));
  // One point-in-time reader for every version served: a store kept open between `at=` questions,
  // with a logged backoff while it cannot be read (issue 26 §4, T199).
  const spans = storeSpans(config, {
    onFailure: (error, retryInMs) =>
      log.warn({ err: error, retryInMs }, "the store could not be read for a point-in-time answer; backing off"),
  });
  const view = await loadCurrentView(config, spans);
  // T460: `verified` judged at the wall clock whenever an answer is served.
  const views = new ViewHolder(view, Date.now);
  // What every endpoint call of this process loads through: HTTP and MCP alike (T275).
  const services = endpointServices(config);
  // Past-day (`at`) answers are rendered by a worker thread, off the loop that answers requests (T470).
  const pastDays = pastDayRenderer(config, (detail) => log.warn({ detail }, "the past-day worker stopped"));
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
    services,
    pastDays,
  });
  registerMcpRoutes(app, views, { publicBaseUrl: config.publicBaseUrl, services });
  const following = await followVersions(config, views, log, spans);
  // Loaded before listening, so the schedule starts in the same turn as the start log ends.
  const liveModule = live?.everyMs ? await import("./ingest-live.js") : null;
  let schedule: IngestSchedule | null = null;
  onStopSignal((signal) => {
    if (cluster.isPrimary)
      say(
        `${signal}: stopping: no new connections, finishing the requests in flight` +
          (liveModule ? ", ending the live ingester (a run in progress is not published)" : ""),
      );
    return async () => {
      await schedule?.stop();
      await following.stop();
      await app.close();
      await pastDays.close();
      await spans.close();
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
  const asOf = () => views.current()?.meta.freshness.newestEvidenceAt ?? null;
  if (live?.everyMs === null || live === null) {
    const served = asOf();
    say(
      `live ingestion off (${live ? offOrigin(live) : "a worker"}): serving ` +
        (served ? `data as of ${served.slice(0, 10)}, ${daysOld(served)}` : "the store as it is"),
    );
  } else say(`live ingestion: first run now, then every ${formatInterval(live.everyMs)} (${live.origin})`);
  say("Ctrl-C (SIGINT) or SIGTERM stops the server");
  if (liveModule && live?.everyMs)
    schedule = startLive(liveModule, config, live.everyMs, log, {
      say,
      // The version the run published is loaded now, once (the store's announcement finds it served).
      published: (version) => following.check(version),
      servedAsOf: asOf,
    });
}

/**
 * Starts the schedule of live runs (T220) with its first run now. The first run's outcome is said in
 * one plain line (T222); every run's outcome is also a JSON log line, and a published version ("" when
 * the run published none: its attempts are still read, T310) is handed to `hooks.published` before
 * the line is said.
 */
function startLive(
  { scheduleLiveIngest, liveRunLine }: typeof import("./ingest-live.js"),
  config: Config,
  everyMs: number,
  log: Logger,
  hooks: {
    say(line: string): void;
    published(version: string): Promise<void>;
    servedAsOf(): string | null;
  },
): IngestSchedule {
  let first = true;
  return scheduleLiveIngest(config, everyMs, async (outcome: LiveRunOutcome, next: Date) => {
    // Every run, published or not, is loaded: its attempts are what `/sources` says (T310).
    await hooks.published("report" in outcome && outcome.report.published ? outcome.report.version : "");
    if ("error" in outcome)
      log.error({ error: outcome.error, next }, "live ingestion run failed; the served version stays");
    else log.info({ ...outcome.report, next }, "live ingestion run");
    if (first) hooks.say(liveRunLine(outcome, next, new Date(), hooks.servedAsOf()));
    first = false;
  });
}

function daysOld(asOf: string): string {
  return `${describeDays(daysBetween(asOf, Date.now()))} old`;
}

function offOrigin(live: LivePlan): string {
  return live.origin === "--ingest-every" ? "--ingest-every off" : "INGEST_EVERY=off";
}

/** An interval as the start log says it: `1h`, `30m`, `90s`, `1.5h`. */
export function formatInterval(ms: number): string {
  for (const [unit, size] of [
    ["d", 86_400_000],
    ["h", 3_600_000],
    ["m", 60_000],
    ["s", 1000],
  ] as const)
    if (ms >= size && (ms % size === 0 || unit === "s")) return `${ms / size}${unit}`;
  return `${ms}ms`;
}
