import { channel } from "node:diagnostics_channel";
import type { Logger } from "pino";
import type { Dataset } from "../domain/dataset.js";
import type { SourceId } from "../domain/observation.js";
import type { SourceAttempt } from "../domain/source-attempt.js";
import { withoutAddresses } from "../sources/failure-text.js";
import { createDispatcher, FetchError, fetchFile } from "../sources/fetch-source.js";
import type { SourceAdapter } from "../sources/source.js";
import type { CatalogueStore } from "../store/catalogue-store.js";
import type { LiveConfig } from "./live-config.js";
import {
  finishRun,
  getBlob,
  type HttpCache,
  type ManifestFile,
  type ManifestSource,
  payloadHash,
  putBlob,
  type RunManifest,
  readHttpCache,
  recoverPending,
  writeHttpCache,
  writePending,
} from "./payload-archive.js";
import { loadRunContext, publishRun, type RunContext, type SourceFailure, type SourceOutcome } from "./run-pipeline.js";

/**
 * One live ingestion run (issue 7): fetch every source's upstream, archive the raw payloads, run
 * the shared pipeline (`publishRun`, with the guards) and publish one dataset version.
 */

/** Per-source line of a live run's summary. */
export interface LiveSourceSummary {
  readonly source: SourceId;
  readonly status: "ok" | "unchanged" | "failed";
  /** Price rows parsed this run (0 when failed). */
  readonly rows: number;
  readonly files: number;
  /** Decoded bytes fetched (304 answers count 0). */
  readonly bytes: number;
  readonly error: SourceFailure | null;
}

/** The result of a live run. */
export interface LiveRunResult {
  /**
   * False when no source brought new evidence (T221): nothing was published and `dataset` is the
   * store's latest version, unchanged.
   */
  readonly published: boolean;
  readonly dataset: Dataset;
  readonly changes: number;
  readonly sources: readonly LiveSourceSummary[];
  readonly manifest: RunManifest;
}

/**
 * The stages a live run passes, in order (T150): every source fetched, the pending manifest
 * archived, the dataset about to be published (inside the store's ingest lock, right before the
 * publishing transaction), published, and the archive finished.
 */
export const LIVE_RUN_STAGES = ["fetched", "archived", "publishing", "published", "finished"] as const;
export type LiveRunStage = (typeof LIVE_RUN_STAGES)[number];

/** What {@link LIVE_RUN_CHANNEL} publishes at each stage. */
export interface LiveRunStageMessage {
  readonly stage: LiveRunStage;
  /** The run's time (its dataset version). */
  readonly runTime: string;
}

/**
 * Name of the `node:diagnostics_channel` on which a live run publishes a
 * {@link LiveRunStageMessage} as it enters each stage (T150). Subscribers run synchronously, in
 * the run's thread, before the run goes on: a tracer can time the stages, and the crash test kills
 * the process at one of them from a module it preloads into the ingester (`node --import`).
 * Publishing costs nothing without subscribers.
 */
export const LIVE_RUN_CHANNEL = "tariff:live-run";
const stages = channel(LIVE_RUN_CHANNEL);

function enterStage(stage: LiveRunStage, runTime: string): void {
  if (stages.hasSubscribers) stages.publish({ stage, runTime } satisfies LiveRunStageMessage);
}

/**
 * Runs live ingestion once, holding the store's ingest lock.
 * @param now the run time source (tests pass a clock); the version is always newer than the latest
 * @throws Error when the store cannot publish; upstream failures never throw (they fail their source)
 */
export async function runLiveIngest(
  store: CatalogueStore,
  adapters: readonly SourceAdapter[],
  config: LiveConfig,
  logger: Logger,
  now: () => Date = () => new Date(),
): Promise<LiveRunResult> {
  return store.withIngestLock(() => runLocked(store, adapters, config, logger, now));
}

async function runLocked(
  store: CatalogueStore,
  adapters: readonly SourceAdapter[],
  config: LiveConfig,
  logger: Logger,
  now: () => Date,
): Promise<LiveRunResult> {
  const archive = config.archiveDir;
  const recovered = await recoverPending(archive, (version) => store.loadDataset(version));
  if (recovered.finished.length + recovered.dropped.length > 0)
    logger.warn(recovered, "archive: recovered the pending runs of a killed ingester");
  const ctx = await loadRunContext(store);
  const latest = ctx.previous?.run.datasetVersion ?? "";
  let runTime = now().toISOString();
  if (runTime <= latest) runTime = new Date(Date.parse(latest) + 1).toISOString();
  const log = logger.child({ run: runTime });
  log.info("live run started");

  const cache = readHttpCache(archive);
  const dispatcher = createDispatcher(config.fetch);
  const fetched = new Map<SourceId, SourceFetch>();
  try {
    await Promise.all(
      adapters.map(async (adapter) => {
        fetched.set(adapter.id, await fetchSource(adapter, config, cache, dispatcher, archive, log));
      }),
    );
  } finally {
    await dispatcher.close();
  }
  enterStage("fetched", runTime);

  const manifestSources: Partial<Record<SourceId, ManifestSource>> = {};
  const outcomes = new Map<SourceId, SourceOutcome>();
  for (const adapter of adapters) {
    const f = fetched.get(adapter.id);
    if (!f) continue;
    const outcome = decideOutcome(adapter.id, f, cache, ctx.states.get(adapter.id)?.observedAt, runTime);
    const error = outcome.kind === "failed" ? { message: outcome.message, httpStatus: outcome.httpStatus } : null;
    const status = outcome.kind === "failed" ? "failed" : outcome.kind === "unchanged" ? "unchanged" : "ok";
    manifestSources[adapter.id] = { status, files: f.files, error };
    outcomes.set(adapter.id, outcome);
  }
  // T221: a run in which no source brought new evidence publishes no new dataset version.
  if (ctx.previous && !bringsNewEvidence(outcomes, ctx.previous, ctx.states)) {
    const failures = new Map([...fetched].flatMap(([id, f]) => (f.failure ? [[id, f.failure] as const] : [])));
    writeHttpCache(archive, { urls: nextCache(cache, fetched, failures, runTime).urls, sources: cache.sources });
    const statuses = Object.fromEntries(Object.entries(manifestSources).map(([id, m]) => [id, m?.status]));
    log.info({ sources: statuses }, "live run: no new evidence, nothing published");
    await store.recordAttempts(attemptsOf(manifestSources, failures, runTime));
    const sources = summaries(adapters, fetched, { dataset: ctx.previous, failures }, manifestSources);
    return {
      published: false,
      dataset: ctx.previous,
      changes: 0,
      sources,
      manifest: { runTime, sources: manifestSources },
    };
  }
  const pending: RunManifest = { runTime, sources: manifestSources };
  writePending(archive, pending);
  enterStage("archived", runTime);

  const result = await publishRun(store, ctx, adapters, {
    runTime,
    outcomes,
    guards: { maxRowDrop: config.maxRowDrop, ...(config.accept ? { accept: config.accept } : {}) },
    onSourceFailed: (source, failure) => log.warn({ source, ...failure }, "source failed"),
    beforePublish: () => enterStage("publishing", runTime),
  });
  enterStage("published", runTime);

  const manifest = finishRun(archive, pending, result.dataset);
  writeHttpCache(archive, nextCache(cache, fetched, result.failures, runTime));
  enterStage("finished", runTime);

  await store.recordAttempts(attemptsOf(manifest.sources, result.failures, runTime));
  const sources = summaries(adapters, fetched, result, manifest.sources);
  log.info(
    { status: result.dataset.run.status, changes: result.changes, summary: logSummary(result.dataset.run.summary) },
    "live run published",
  );
  return { published: true, dataset: result.dataset, changes: result.changes, sources, manifest };
}

/**
 * T221: new evidence is a payload other than the one the source's last good parse came from, or
 * a source that answers again (unchanged) after it failed or was absent in the latest version.
 * T240: a source that fails after it succeeded in the latest version is news too (its prices age,
 * `/sources` must say why, issue 26), provided another source answered: when none answers the
 * fault is most likely this host's network, and publishing would only age every price.
 * Issue 46 §4 (T467): a maker's page that answers unchanged while it holds a pending move brings the
 * next fetch that publishes the move.
 */
function bringsNewEvidence(
  outcomes: ReadonlyMap<SourceId, SourceOutcome>,
  latest: Dataset,
  states: RunContext["states"],
): boolean {
  const statusOf = (source: SourceId) => latest.sources.find((s) => s.source === source)?.lastRunStatus;
  let newlyFailed = false;
  let answered = false;
  for (const [source, outcome] of outcomes) {
    if (outcome.kind === "payload") return true;
    if (outcome.kind === "unchanged") {
      if (statusOf(source) !== "succeeded") return true;
      // A maker's page holding a move (T467): the same copy again is the next fetch that publishes it.
      if (states.get(source)?.listings.some((l) => l.prices.some((p) => p.pending))) return true;
      answered = true;
    } else if (outcome.kind === "failed" && statusOf(source) === "succeeded") newlyFailed = true;
  }
  return newlyFailed && answered;
}

/**
 * A run's summary as the log states it (issue 38 §6, T313): the counts, not the unmatched listings
 * themselves (about 120 KB in one JSON line); `tariff identity --unmatched` lists those.
 */
export function logSummary(summary: Dataset["run"]["summary"]): Record<string, unknown> {
  const { unmatched, ...counts } = summary;
  return {
    ...counts,
    ...(unmatched ? { unmatchedListings: unmatched.length, unmatchedDetails: "tariff identity --unmatched" } : {}),
  };
}

/**
 * Each tried source's attempt in this run (T310), for `/sources` whether or not the run publishes:
 * the pipeline's failure (a transport error, or a guard that refused the payload) wins over the
 * fetch's status.
 */
function attemptsOf(
  manifest: Partial<Record<SourceId, ManifestSource>>,
  failures: ReadonlyMap<SourceId, SourceFailure>,
  runTime: string,
): SourceAttempt[] {
  return Object.entries(manifest).flatMap(([id, m]): SourceAttempt[] => {
    if (!m) return [];
    const source = id as SourceId;
    const failure = failures.get(source) ?? (m.status === "failed" ? m.error : null);
    if (failure)
      return [
        { source, at: runTime, status: "failed", error: { message: failure.message, httpStatus: failure.httpStatus } },
      ];
    return [{ source, at: runTime, status: m.status === "unchanged" ? "unchanged" : "succeeded", error: null }];
  });
}

/** Per-source lines of a run's summary (`result.dataset`: the published version, or the latest one). */
function summaries(
  adapters: readonly SourceAdapter[],
  fetched: ReadonlyMap<SourceId, SourceFetch>,
  result: { readonly dataset: Dataset; readonly failures: ReadonlyMap<SourceId, SourceFailure> },
  manifest: Partial<Record<SourceId, ManifestSource>>,
): LiveSourceSummary[] {
  return adapters.flatMap((a): LiveSourceSummary[] => {
    const f = fetched.get(a.id);
    if (!f) return [];
    const failure = result.failures.get(a.id) ?? null;
    const health = result.dataset.sources.find((s) => s.source === a.id);
    const entry = manifest[a.id];
    return [
      {
        source: a.id,
        status: failure ? "failed" : (entry?.status ?? "ok"),
        rows: failure ? 0 : (health?.rowsLastRun ?? 0),
        files: f.files.length,
        bytes: f.bytes,
        error: failure,
      },
    ];
  });
}

/** What fetching one source gave: every file's text, or the first failure. */
interface SourceFetch {
  readonly failure: SourceFailure | null;
  readonly files: ManifestFile[];
  readonly texts: Map<string, string>;
  /** Validators of this run's 200 answers, per URL. */
  readonly validators: Map<string, { etag: string | null; lastModified: string | null; sha256: string }>;
  /** Decoded bytes received (304 answers count 0). */
  readonly bytes: number;
}

/**
 * The pipeline outcome of a fetch: the failure; `unchanged` when the payload is exactly the one the
 * source's stored last good parse came from (304s, or identical bytes), so it is not re-parsed;
 * else the payload.
 */
function decideOutcome(
  source: SourceId,
  f: SourceFetch,
  cache: HttpCache,
  stateObservedAt: string | undefined,
  runTime: string,
): SourceOutcome {
  if (f.failure) return { kind: "failed", ...f.failure };
  const last = cache.sources[source];
  if (last && last.observedAt === stateObservedAt && last.payloadHash === payloadHash(f.files))
    return { kind: "unchanged" };
  return { kind: "payload", payload: { files: f.texts, observedAt: runTime } };
}

/** Fetches every file of one source; any file failing fails the source (no partial payloads). */
async function fetchSource(
  adapter: SourceAdapter,
  config: LiveConfig,
  cache: HttpCache,
  dispatcher: ReturnType<typeof createDispatcher>,
  archive: string,
  log: Logger,
): Promise<SourceFetch> {
  const source = adapter.id;
  const files: ManifestFile[] = [];
  const texts = new Map<string, string>();
  const validators = new Map<string, { etag: string | null; lastModified: string | null; sha256: string }>();
  // The message is what `/sources` and the archive show: what failed, never the URL (T193).
  const failed = (text: string, httpStatus: number | null): SourceFetch => {
    const message = withoutAddresses(text);
    log.warn({ source, httpStatus, message }, "fetch failed");
    return { failure: { message, httpStatus }, files, texts, validators, bytes };
  };
  let bytes = 0;
  const base = config.baseUrls[source];
  if (!base) return failed(`${source}: no live upstream configured`, null);
  const wanted = adapter.upstream.files(config.settings[source] ?? []);
  const results = await Promise.allSettled(
    wanted.map(async (file) => {
      const url = new URL(file.path, base).toString();
      const cached = cache.urls[url] ?? null;
      const request = { url, name: file.name, redirectHosts: adapter.upstream.redirectHosts ?? [] };
      return { file, url, cached, got: await fetchFile(request, cached, config.fetch, dispatcher) };
    }),
  );
  for (const [i, r] of results.entries()) {
    if (r.status === "rejected") {
      const e: unknown = r.reason;
      // T455: an optional file the upstream does not have is left out; the adapter judges the rest.
      if (wanted[i]?.optional && e instanceof FetchError && e.httpStatus === 404) continue;
      return failed(
        `${source}: ${e instanceof Error ? e.message : String(e)}`,
        e instanceof FetchError ? e.httpStatus : null,
      );
    }
    const { file, url, cached, got } = r.value;
    if (got.notModified) {
      if (!cached) return failed(`${source}: ${file.name}: 304 Not Modified without a cached copy`, 304);
      files.push({ name: file.name, url, sha256: cached.sha256, bytes: 0, httpStatus: 304 });
      texts.set(file.name, getBlob(archive, cached.sha256).toString("utf8"));
      continue;
    }
    const hash = putBlob(archive, got.bytes);
    bytes += got.bytes.length;
    files.push({ name: file.name, url, sha256: hash, bytes: got.bytes.length, httpStatus: 200 });
    validators.set(url, { ...got.validators, sha256: hash });
    texts.set(file.name, got.text);
  }
  log.debug({ source, files: files.length, bytes }, "fetched");
  return { failure: null, files, texts, validators, bytes };
}

/** The HTTP cache after a published run: new validators, and the payload each good source parsed. */
function nextCache(
  cache: HttpCache,
  fetched: ReadonlyMap<SourceId, SourceFetch>,
  failures: ReadonlyMap<SourceId, SourceFailure>,
  runTime: string,
): HttpCache {
  const urls = { ...cache.urls };
  const sources = { ...cache.sources };
  for (const [source, f] of fetched) {
    for (const [url, v] of f.validators) urls[url] = v;
    if (!f.failure && !failures.has(source))
      sources[source] = { payloadHash: payloadHash(f.files), observedAt: runTime };
  }
  return { urls, sources };
}
