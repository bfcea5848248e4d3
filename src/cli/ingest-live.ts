import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import pino, { type Logger } from "pino";
import type { Dataset } from "../domain/dataset.js";
import { daysBetween, describeDays } from "../domain/freshness.js";
import { type LiveRunResult, runLiveIngest } from "../ingest/live-run.js";
import { SOURCES } from "../sources/registry.js";
import type { CatalogueStore } from "../store/catalogue-store.js";
import { openStore } from "../store/open-store.js";
import type { Config } from "./config.js";

export { parseDuration } from "./config.js";

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
    if (result.published) await pruneVersions(store, config, out);
    return result;
  } finally {
    await store.close();
  }
}

/** Retention after a run (T31): all but the newest `RETAIN_VERSIONS` versions are pruned. */
export async function pruneVersions(store: CatalogueStore, config: Config, out?: NodeJS.WritableStream): Promise<void> {
  const pruned = await store.pruneVersions(config.retainVersions);
  if (pruned.length > 0)
    out?.write(`${pruned.length} old version(s) pruned (RETAIN_VERSIONS=${config.retainVersions})\n`);
}

/** The per-source summary of a live run, one line per source. */
export function formatLiveSummary(result: LiveRunResult): string {
  const run = result.dataset.run;
  const lines = [
    result.published
      ? `live run ${run.datasetVersion} ${run.status}: ${run.summary.models} models, ${run.summary.prices} prices, ` +
        `${result.changes} changes`
      : `live run: no source brought new evidence; nothing published, the store stays at ${run.datasetVersion} (T221)`,
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

/** What a scheduled live run did, as the server's thread learns it (T220, T222). */
export interface LiveRunReport {
  /** True when the run published a new dataset version (T221). */
  readonly published: boolean;
  /** The version published, or the store's latest when nothing was. */
  readonly version: string;
  readonly changes: number;
  /** Every source that failed, with why (its `lastError` message). */
  readonly failed: readonly { readonly source: string; readonly message: string }[];
  readonly sources: number;
  /** Newest successful evidence of any source in that version (T223): how old the data served is. */
  readonly newestEvidenceAt: string | null;
}

/** The report of a live run's result. */
export function reportOf(result: LiveRunResult): LiveRunReport {
  return {
    published: result.published,
    version: result.dataset.run.datasetVersion,
    changes: result.changes,
    failed: result.sources.flatMap((s) =>
      s.status === "failed" ? [{ source: s.source, message: s.error?.message ?? "failed" }] : [],
    ),
    sources: result.sources.length,
    newestEvidenceAt: newestEvidence(result.dataset),
  };
}

function newestEvidence(dataset: Dataset): string | null {
  const times = dataset.sources.flatMap((s) => (s.lastSuccessAt ? [s.lastSuccessAt] : []));
  return times.length === 0 ? null : times.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
}

/** A scheduled run's outcome: its report, or why the run itself failed (the store refused, a crash). */
export type LiveRunOutcome = { readonly report: LiveRunReport } | { readonly error: string };

/**
 * The start log's one plain line about a live run (issue 27 §1, T222): what it published, or that
 * nothing was new, or that the sources could not be reached, with the data's age and when the next
 * run starts.
 * @param servedAsOf the served data's newest evidence when the run itself failed (the report has it otherwise)
 */
export function liveRunLine(outcome: LiveRunOutcome, next: Date, now: Date, servedAsOf: string | null): string {
  const at = next.toISOString().replace(/\.\d{3}Z$/, "Z");
  const age = (asOf: string | null) =>
    asOf === null
      ? "no data yet"
      : `data as of ${asOf.slice(0, 10)}, ${describeDays(daysBetween(asOf, now.getTime()))} old`;
  if ("error" in outcome)
    return `live run failed (${outcome.error}): serving ${age(servedAsOf)}; next attempt at ${at}`;
  const r = outcome.report;
  const failures =
    r.failed.length === 0
      ? ""
      : `; ${r.failed.length} of ${r.sources} sources failed (${r.failed.map((f) => f.source).join(", ")})`;
  if (r.published)
    return `live run published dataset ${r.version} (${r.changes} changes${failures}); next run at ${at}`;
  if (r.failed.length === r.sources) {
    const why = r.failed[0]?.message ?? "";
    return `live sources unreachable (${why}${r.sources > 1 ? `, and ${r.sources - 1} more` : ""}): serving ${age(r.newestEvidenceAt)}; next attempt at ${at}`;
  }
  return `live sources brought nothing new${failures}: serving ${age(r.newestEvidenceAt)}; next run at ${at}`;
}

/** A running background schedule. */
export interface IngestSchedule {
  /** Stops scheduling; a run in progress is ended unpublished (its worker thread is terminated). */
  stop(): Promise<void>;
}

/** The URL of tsx's ESM API (`tsx/esm/api`, import condition), found from its package.json. */
function tsxEsmApi(): string {
  const manifest = createRequire(import.meta.url).resolve("tsx/package.json");
  const exports = JSON.parse(readFileSync(manifest, "utf8")) as {
    exports: Record<string, { import: { default: string } }>;
  };
  return new URL(exports.exports["./esm/api"]!.import.default, pathToFileURL(manifest)).href;
}

/**
 * Starts the worker module beside this one: the compiled JavaScript, or, when this module runs as
 * TypeScript (tests, `npm run dev`), the TypeScript through tsx registered in the thread first.
 */
function startWorker(config: Config): Worker {
  const workerData = { config };
  if (!import.meta.url.endsWith(".ts"))
    return new Worker(new URL("./ingest-worker.js", import.meta.url), { workerData });
  const tsx = tsxEsmApi();
  const entry = new URL("./ingest-worker.ts", import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { eval: true, workerData });
}

/**
 * `tariff serve`'s live ingestion (issue 7 §3, issue 27 §1, T220): a run starts after `firstDelayMs`
 * and then `everyMs` after the previous one ends, never two at once. Each run is a worker thread
 * (parsing and building a dataset never blocks a request), under the store's ingest lock; `onRun`
 * gets its outcome and the time of the next run (the server loads a published version from the
 * store, T32). A failed run is reported and tried again at the next tick; the served version stays.
 */
export function scheduleLiveIngest(
  config: Config,
  everyMs: number,
  onRun: (outcome: LiveRunOutcome, next: Date) => void | Promise<void>,
  options: { readonly firstDelayMs?: number } = {},
): IngestSchedule {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let worker: Worker | null = null;
  let inFlight: Promise<void> = Promise.resolve();
  const runOnce = () =>
    new Promise<LiveRunOutcome>((resolve) => {
      let thread: Worker;
      try {
        thread = startWorker(config);
      } catch (error) {
        resolve({ error: `the ingestion thread did not start: ${error instanceof Error ? error.message : error}` });
        return;
      }
      worker = thread;
      let outcome: LiveRunOutcome | null = null;
      thread.on("message", (m: LiveRunOutcome) => {
        outcome = m;
      });
      thread.on("error", (error) => {
        outcome ??= { error: error.message };
      });
      thread.on("exit", (code) => {
        worker = null;
        resolve(outcome ?? { error: stopped ? "stopped" : `the ingestion thread exited with code ${code}` });
      });
    });
  const tick = () => {
    timer = null;
    inFlight = (async () => {
      const outcome = await runOnce();
      if (stopped) return;
      const next = new Date(Date.now() + everyMs);
      await onRun(outcome, next);
      if (!stopped) timer = setTimeout(tick, everyMs);
    })().catch(() => {
      // onRun reports its own faults; the schedule goes on.
      if (!stopped) timer = setTimeout(tick, everyMs);
    });
  };
  timer = setTimeout(tick, options.firstDelayMs ?? 0);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await (worker as Worker | null)?.terminate();
      await inFlight;
    },
  };
}
