import pino, { type Logger } from "pino";
import { loadView } from "../catalogue/load-view.js";
import type { CatalogueView } from "../catalogue/view.js";
import type { Config } from "../config.js";
import { type LiveRunResult, runLiveIngest } from "../ingest/live-run.js";
import { SOURCES } from "../sources/registry.js";
import type { CatalogueStore } from "../store/catalogue-store.js";
import { openStore } from "../store/open-store.js";

/** Structured logs of live ingestion: pino, JSON lines on stderr (stdout stays clean). */
export function ingestLogger(config: Config): Logger {
  return pino({ level: config.logLevel, base: { component: "ingest" } }, pino.destination(2));
}

/**
 * `tariff ingest` without `--snapshots`: one live run against the upstreams (issue 7 §3), then a
 * per-source summary on `out`.
 */
export async function ingestLiveOnce(
  config: Config,
  out: NodeJS.WritableStream = process.stderr,
): Promise<LiveRunResult> {
  const store = await openStore(config);
  try {
    const result = await runLiveIngest(store, SOURCES, config.live, ingestLogger(config));
    out.write(formatLiveSummary(result));
    await prune(store, config, out);
    return result;
  } finally {
    await store.close();
  }
}

/** Retention after a run (T31): all but the newest `RETAIN_VERSIONS` versions are pruned. */
async function prune(store: CatalogueStore, config: Config, out?: NodeJS.WritableStream): Promise<void> {
  const pruned = await store.pruneVersions(config.retainVersions);
  if (pruned.length > 0)
    out?.write(`${pruned.length} old version(s) pruned (RETAIN_VERSIONS=${config.retainVersions})\n`);
}

/** The per-source summary of a live run, one line per source. */
export function formatLiveSummary(result: LiveRunResult): string {
  const run = result.dataset.run;
  const lines = [
    `live run ${run.datasetVersion} ${run.status}: ${run.summary.models} models, ${run.summary.prices} prices, ` +
      `${result.changes} changes`,
  ];
  for (const s of result.sources) {
    const what =
      s.status === "failed"
        ? `FAILED ${s.error?.message ?? ""}`
        : `${s.status === "unchanged" ? "unchanged (304/same bytes, not re-parsed)" : "ok"}, ${s.rows} rows, ` +
          `${s.files} file(s), ${s.bytes} bytes`;
    lines.push(`  ${s.source.padEnd(19)} ${what}`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * Parses a duration: a number and a unit, `ms`, `s`, `m`, `h` or `d` (`90s`, `15m`, `1h`).
 * @throws Error when the text is not such a duration or is under one second
 */
export function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(text.trim());
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
  if (!m) throw new Error(`invalid duration ${JSON.stringify(text)} (expected e.g. 30s, 15m, 1h)`);
  const ms = Number(m[1]) * unit[m[2] as keyof typeof unit];
  if (ms < 1000) throw new Error(`duration ${JSON.stringify(text)} is under one second`);
  return ms;
}

/** A running background schedule. */
export interface IngestSchedule {
  /** Stops scheduling and waits for a run in flight. */
  stop(): Promise<void>;
}

/**
 * `tariff serve --ingest-every <duration>`: runs live ingestion now and then every `everyMs` after
 * the previous run ends, in the server's process; after each publish the new view is built from the
 * store and handed to `onView` (the server swaps it in atomically). A failed run is logged and
 * retried at the next tick; the served view stays.
 */
export function scheduleLiveIngest(
  config: Config,
  everyMs: number,
  onView: (view: CatalogueView) => void,
  logger: Logger = ingestLogger(config),
): IngestSchedule {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let inFlight: Promise<void> = Promise.resolve();
  const tick = () => {
    inFlight = (async () => {
      const store = await openStore(config);
      try {
        const result = await runLiveIngest(store, SOURCES, config.live, logger);
        await prune(store, config);
        const view = await loadView(store, SOURCES);
        if (view) onView(view);
        logger.info({ version: result.dataset.run.datasetVersion, status: result.dataset.run.status }, "view swapped");
      } finally {
        await store.close();
      }
    })().catch((error: unknown) => {
      logger.error({ err: error }, "live ingestion run failed; the served version stays");
    });
    inFlight.then(() => {
      if (!stopped) timer = setTimeout(tick, everyMs);
    });
  };
  tick();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await inFlight;
    },
  };
}
