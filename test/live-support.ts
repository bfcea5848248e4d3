import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { loadView } from "../src/catalogue/load-view.js";
import { windowsAboveStandard } from "../src/core/maker-agreement.js";
import { amountsAgree } from "../src/domain/amount.js";
import type { Dataset, PublishedPrice } from "../src/domain/dataset.js";
import { priceKey } from "../src/domain/dataset.js";
import { dimensionKey } from "../src/domain/dimension.js";
import type { SourceId } from "../src/domain/observation.js";
import { type LiveConfig, parseLiveConfig } from "../src/ingest/live-config.js";
import { type LiveRunResult, runLiveIngest } from "../src/ingest/live-run.js";
import { readRunManifest } from "../src/ingest/payload-archive.js";
import { countRows } from "../src/ingest/run-pipeline.js";
import { SOURCES } from "../src/sources/registry.js";
import { snapshotFolder } from "../src/sources/snapshot-reader.js";
import type { CatalogueStore } from "../src/store/catalogue-store.js";
import { openSqliteStore } from "../src/store/open-store.js";
import {
  type Dates,
  FAULTS,
  type FakeUpstream,
  type Fault,
  LIVE_DATES,
  SEED_DATES,
  servedFiles,
  startFakeUpstream,
} from "./fake-upstream.js";
import { startServer, type TestServer } from "./harness.js";

/** Silent structured logger for in-process runs. */
export const QUIET = pino({ level: "silent" });

/**
 * Limits for runs against the fake upstream: one retry after 10 ms; a 30 s timeout, which only a
 * hang reaches (a loaded machine must not turn a slow local answer into a failure), and 2 s for
 * the hang cases ({@link HANG_TIMEOUT_MS}).
 */
export function testConfig(upstream: FakeUpstream, dir: string, env: Record<string, string> = {}): LiveConfig {
  return parseLiveConfig(
    { ...upstream.env(), INGEST_TIMEOUT_MS: "30000", INGEST_RETRIES: "1", INGEST_RETRY_MIN_MS: "10", ...env },
    dir,
  );
}

/** A store and archive seeded by one good live run of the May payloads, kept as a template. */
export interface Seed {
  readonly dir: string;
  readonly dataset: Dataset;
  cleanup(): void;
}

/**
 * Runs the seed live run of `dates` (May by default) into a template folder (`tariff.db` +
 * `archive/`), made in `parent` (the system's temporary folder by default).
 */
export async function makeSeed(dates: Dates = SEED_DATES, parent = tmpdir()): Promise<Seed> {
  const dir = mkdtempSync(join(parent, "tariff-seed-"));
  const upstream = await startFakeUpstream(dates);
  const store = await openSqliteStore(join(dir, "tariff.db"));
  try {
    const result = await runLiveIngest(store, SOURCES, testConfig(upstream, dir), QUIET);
    expect(result.dataset.run.status).toBe("succeeded");
    return { dir, dataset: result.dataset, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  } finally {
    await store.close();
    await upstream.close();
  }
}

/** What {@link liveFileFixtures} makes for one test file; read inside tests only. */
export interface LiveFileFixtures {
  readonly seed: Seed;
  /** The fake upstream of the June payloads (only when asked for). */
  readonly upstream: FakeUpstream;
}

/** The seeds this test worker made, by their dates (T384). */
const workerSeeds = new Map<string, Promise<Seed>>();

/**
 * The seed of `dates` that this test worker made for an earlier file, or makes now (T384): a seed is
 * a whole live run (seconds of CPU), and the files only read it (`cloneSeed`, `seed.dataset`), so a
 * worker makes one per dates instead of one per file. It lives in the run's seed folder
 * (`test/global-setup.ts`), which the run removes at its end.
 */
function workerSeed(dates: Dates): Promise<Seed> {
  const key = JSON.stringify(dates);
  let seed = workerSeeds.get(key);
  if (!seed) {
    seed = makeSeed(dates, inject("seedRoot"));
    workerSeeds.set(key, seed);
    // A failed seed fails the file that asked; the next file makes it again.
    seed.catch(() => workerSeeds.delete(key));
  }
  return seed;
}

/**
 * The seed of one test file (of `dates`, May by default, shared with the worker's other files that
 * read the same, T384; and, with `upstream`, a fake upstream serving the June payloads over it, made
 * before the file's first test and closed after its last).
 */
export function liveFileFixtures(options: { upstream?: boolean; dates?: Dates } = {}): LiveFileFixtures {
  let seed: Seed | undefined;
  let upstream: FakeUpstream | undefined;
  beforeAll(async () => {
    seed = await workerSeed(options.dates ?? SEED_DATES);
    if (options.upstream) upstream = await startFakeUpstream();
  });
  afterAll(async () => {
    await upstream?.close();
  });
  const made = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is made before the file's first test; read it inside a test`);
    return value;
  };
  return {
    get seed() {
      return made(seed, "the seed");
    },
    get upstream() {
      return made(upstream, "the fake upstream");
    },
  };
}

/** A source's record as `/sources` serves it (the fields the live suites read). */
export interface ServedSource {
  readonly source: string;
  readonly lastSuccessAt: string | null;
  readonly lastError: { readonly message: string; readonly httpStatus: number | null } | null;
  /** Fields (and, for a maker's page, unmatched rows: T406) the source's map did not read, with counts. */
  readonly unmappedByField: Readonly<Record<string, number>>;
}

/**
 * What users are served after one live run over a copy of `seed`, against a fake upstream of the
 * live dates that `setup` alters: the view a server builds from the store (its version asserted to
 * be the run's), its `/sources` over HTTP, and what `read` asks of that server.
 */
export async function servedAfterLiveRun<T>(
  seed: Seed,
  setup: (upstream: FakeUpstream) => void,
  read: (server: TestServer) => Promise<T>,
): Promise<{ dataset: Dataset; sources: ServedSource[]; read: T }> {
  const { dir, cleanup } = cloneSeed(seed);
  const upstream = await startFakeUpstream(LIVE_DATES);
  setup(upstream);
  const store = await openSqliteStore(join(dir, "tariff.db"));
  try {
    const result = await runLiveIngest(store, SOURCES, testConfig(upstream, dir), QUIET);
    const view = (await loadView(store, SOURCES))!;
    expect(view.dataset.run.datasetVersion).toBe(result.dataset.run.datasetVersion);
    const server = await startServer(view);
    try {
      const sources = ((await (await server.get("/api/v1/sources")).json()) as { data: ServedSource[] }).data;
      return { dataset: view.dataset, sources, read: await read(server) };
    } finally {
      await server.close();
    }
  } finally {
    await store.close();
    await upstream.close();
    cleanup();
  }
}

/**
 * What users are served after each of several live runs in a row over one copy of `seed` (issue 46
 * §3, §4: a page's next fetch): before each run `setup` alters the fake upstream of the live dates,
 * after it `read` asks a server of the run's view; one answer per run, in order.
 */
export async function servedAfterLiveRuns<T>(
  seed: Seed,
  steps: readonly ((upstream: FakeUpstream) => void)[],
  read: (server: TestServer, dataset: Dataset) => Promise<T>,
): Promise<T[]> {
  const { dir, cleanup } = cloneSeed(seed);
  const upstream = await startFakeUpstream(LIVE_DATES);
  const store = await openSqliteStore(join(dir, "tariff.db"));
  const answers: T[] = [];
  try {
    for (const setup of steps) {
      setup(upstream);
      const result = await runLiveIngest(store, SOURCES, testConfig(upstream, dir), QUIET);
      const view = (await loadView(store, SOURCES))!;
      expect(view.dataset.run.datasetVersion).toBe(result.dataset.run.datasetVersion);
      const server = await startServer(view);
      try {
        answers.push(await read(server, view.dataset));
      } finally {
        await server.close();
      }
    }
    return answers;
  } finally {
    await store.close();
    await upstream.close();
    cleanup();
  }
}

/** Every published price (direct and channel) → what a user pays: amount, currency, denomination. */
export function servedPrices(dataset: Dataset): Map<string, string> {
  return new Map(
    dataset.prices.map((p) => [priceKey(p, dimensionKey(p)), `${p.amount} ${p.currency} ${p.denomination}`]),
  );
}

/** A fresh copy of the seed (database and archive) in its own folder. */
export function cloneSeed(seed: Seed): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), "tariff-live-"));
  cpSync(join(seed.dir, "tariff.db"), join(dir, "tariff.db"));
  cpSync(join(seed.dir, "archive"), join(dir, "archive"), { recursive: true });
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Price rows the adapter finds in what the fake upstream serves now for `source` (computed independently of the ingester). */
export function servedRows(upstream: FakeUpstream, source: SourceId): number {
  const adapter = SOURCES.find((a) => a.id === source)!;
  const payload = new Map(servedFiles(source).map((f) => [f.name, upstream.payload(source, f.name).toString("utf8")]));
  return countRows(adapter.parse({ files: payload, observedAt: "2026-06-01T00:00:00.000Z" }));
}

/**
 * Which source misbehaves in each whole live run (T153): every misbehaviour once, every source at
 * least once, paired by a fixed-seed shuffle of the sources (so a run is reproducible and the
 * pairing is not hand-picked). Eight misbehaviours over thirteen sources (issue 48): each
 * misbehaviour once in order, then again in turn until every source has had one. The adapter side of every source × payload misbehaviour is checked one by one
 * in test/live-faults-payload.test.ts, without a live run.
 */
export const FAULT_PAIRS: readonly { readonly fault: Fault; readonly source: SourceId }[] = (() => {
  let seed = 19;
  const random = () => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const sources = SOURCES.map((a) => a.id);
  for (let i = sources.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [sources[i], sources[j]] = [sources[j]!, sources[i]!];
  }
  return Array.from({ length: Math.max(FAULTS.length, sources.length) }, (_, i) => ({
    fault: FAULTS[i % FAULTS.length]!,
    source: sources[i % sources.length]!,
  }));
})();

/** The timeout of the hang cases: every other source must answer within it. */
export const HANG_TIMEOUT_MS = 2000;

/** What the failing source's `lastError` must say, per misbehaviour. */
export const EXPECTED_ERROR: Record<Fault, { message: RegExp; httpStatus: number | null }> = {
  "http-500": { message: /HTTP 500 Internal Server Error \(2 attempts\)$/, httpStatus: 500 },
  "http-429": { message: /HTTP 429 Too Many Requests \(Retry-After 1 s\) \(2 attempts\)$/, httpStatus: 429 },
  hang: { message: /timeout: no complete answer within 2000 ms \(2 attempts\)$/, httpStatus: null },
  "huge-body": { message: /body exceeds the size cap of 20 MB/, httpStatus: null },
  // The makers' pages (issue 48): a health check of any page file, or the adapter's "no price" reason.
  truncated: {
    message:
      /is not (valid )?JSON|Unexpected end|no parsable row|literal that never closes|\.md: health: (size|canary)|no model file states a price|states no USD price/,
    httpStatus: null,
  },
  "wrong-shape": {
    message:
      /expected|must be|has no "Model pricing" table|states no text-token prices|\.md: health: (soft 404|canary)|no model file states a price|not an array|not an object|invalid/i,
    httpStatus: null,
  },
  empty: {
    message:
      /empty payload, 0 price rows|\(empty (array|object)\)|no parsable row|states no text-token prices|has no priced row|states no language-model price|states no paid-tier price|states no price in any table|\.md: health: canary|guard row-drop: \d+ of \d+ priced rows of the last good run are gone \(-(8\d|9\d|100)\.\d %/,
    httpStatus: null,
  },
  // One row in ten kept: a page of three price lines (DeepSeek's, one price for both models) loses two in three.
  "row-drop-90": {
    message:
      /guard row-drop: \d+ of \d+ priced rows of the last good run are gone \(-(6\d|7\d|8\d|9\d|100)\.\d %, more than the allowed \d+ %\)/,
    httpStatus: null,
  },
};

/**
 * One Must-show case: `source` misbehaves with `fault` in a live run over a copy of the seeded store.
 * Checks the run is `partial`, the source's `lastError`, that every other source's prices updated,
 * and that nothing already published is lost.
 * @returns the failure message (for the report)
 */
export async function runFaultCase(seed: Seed, source: SourceId, fault: Fault): Promise<string> {
  const { dir, cleanup } = cloneSeed(seed);
  const upstream = await startFakeUpstream();
  upstream.fault(source, fault);
  const store = await openSqliteStore(join(dir, "tariff.db"));
  try {
    const env: Record<string, string> = fault === "hang" ? { INGEST_TIMEOUT_MS: String(HANG_TIMEOUT_MS) } : {};
    const result = await runLiveIngest(store, SOURCES, testConfig(upstream, dir, env), QUIET);
    await checkFaultRun(store, seed.dataset, result, upstream, source, fault, dir);
    return result.dataset.sources.find((s) => s.source === source)?.lastError?.message ?? "";
  } finally {
    await store.close();
    await upstream.close();
    cleanup();
  }
}

async function checkFaultRun(
  store: CatalogueStore,
  before: Dataset,
  result: LiveRunResult,
  upstream: FakeUpstream,
  failing: SourceId,
  fault: Fault,
  dir: string,
): Promise<void> {
  const after = result.dataset;
  const runTime = after.run.datasetVersion;
  expect(after.run.status).toBe("partial");
  expect(Object.keys(after.run.summary.failed)).toEqual([failing]);

  // The failing source's health says what happened (D4) and keeps its last success.
  const health = after.sources.find((s) => s.source === failing)!;
  const expected = EXPECTED_ERROR[fault];
  expect(health.lastError?.at).toBe(runTime);
  expect(health.lastError?.message).toMatch(expected.message);
  expect(health.lastError?.message.startsWith(`${failing}: `)).toBe(true);
  expect(health.lastError?.httpStatus).toBe(expected.httpStatus);
  expect(health.lastSuccessAt).toBe(before.run.datasetVersion);
  expect(health.rowsLastRun).toBe(0);

  // Every other source updated: succeeded this run with the rows the served payload holds, and
  // every price it backs carries its fresh observation.
  for (const other of SOURCES.map((a) => a.id).filter((id) => id !== failing)) {
    const h = after.sources.find((s) => s.source === other)!;
    expect({ source: other, at: h.lastSuccessAt, error: h.lastError }).toEqual({
      source: other,
      at: runTime,
      error: null,
    });
    expect(h.rowsLastRun).toBe(servedRows(upstream, other));
    // (a price graced after leaving every source, T85, is served on without fresh evidence)
    const backed = after.prices.filter((p) => p.sources.includes(other) && p.observations.some((o) => o.fresh));
    expect(backed.length).toBeGreaterThan(0);
    for (const p of backed) expect(p.observations.find((o) => o.source === other)?.fresh).toBe(true);
  }
  expect(result.changes).toBeGreaterThan(0); // May → June moved prices

  // Nothing already published is lost: every price the failing source backed before is still
  // published, its observation carried (not fresh) with the same amount; prices only it backs
  // are stale since this run (T11), and no price_removed change names them.
  const afterByKey = new Map(after.prices.map((p) => [priceKey(p, dimensionKey(p)), p]));
  const beforeBacked = before.prices.filter((p) => p.sources.includes(failing));
  expect(beforeBacked.length).toBeGreaterThan(0);
  // A discount this run's standard prices now stand below is left out on this run's evidence, not the
  // fault's (T331: genai-prices' DeepSeek off-peak 0.55 once the others' standard output is 0.28).
  const aboveStandard = (p: PublishedPrice) =>
    !afterByKey.has(priceKey(p, dimensionKey(p))) &&
    windowsAboveStandard([...after.prices, p]).has(after.prices.length);
  const leftOut = new Set(beforeBacked.filter(aboveStandard));
  for (const p of beforeBacked) {
    if (leftOut.has(p)) continue;
    const now = afterByKey.get(priceKey(p, dimensionKey(p)));
    expect(now, `${p.modelId} ${p.label} kept`).toBeDefined();
    const obs = now!.observations.find((o) => o.source === failing);
    expect(obs).toMatchObject({
      source: failing,
      amount: p.observations.find((o) => o.source === failing)!.amount,
      fresh: false,
    });
    // stale exactly when no source re-confirmed it (D8): both ways, for every price. A fresh source
    // stating another amount re-confirms nothing: the failed source's amount keeps its place (T178).
    expect(now!.staleSince !== null, `${p.modelId} ${p.label} stale`).toBe(
      !now!.observations.some((o) => o.fresh && amountsAgree(o.amount, now!.amount)),
    );
  }
  const removed = (await store.loadChanges()).filter((c) => c.kind === "price_removed" && c.occurredAt === runTime);
  const backedNames = new Set(
    beforeBacked.filter((p) => !leftOut.has(p)).map((p) => `${p.modelId}|${p.channel}|${p.seller}|${p.label}`),
  );
  expect(removed.filter((c) => backedNames.has(`${c.modelId}|${c.channel}|${c.seller}|${c.label}`))).toEqual([]);
  expect((await store.loadDataset(before.run.datasetVersion))?.prices.length).toBe(before.prices.length);
  expect((await store.latestRun())?.datasetVersion).toBe(runTime);

  // The archive records the failure for audit and replay (T40).
  const manifest = readRunManifest(join(dir, "archive"), snapshotFolder(runTime));
  expect(manifest?.sources[failing]?.status).toBe("failed");
  expect(manifest?.sources[failing]?.error?.message).toBe(health.lastError?.message);
}
