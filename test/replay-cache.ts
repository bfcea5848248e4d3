import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { deserialize, serialize } from "node:v8";
import { ingestSnapshots } from "../src/ingest/run-ingest.js";
import { SOURCES } from "../src/sources/registry.js";
import type { CatalogueStore } from "../src/store/catalogue-store.js";
import { openPostgresStore, openSqliteStore } from "../src/store/open-store.js";
import {
  CACHE_ROOT,
  type ReplayCache,
  readStatus,
  replayCache,
  replayKey,
  replayReady,
  type Status,
} from "./replay-key.js";
import { createPgDatabase } from "./store-backends.js";

export { type ReplayCache, replayCache, replayKey, replayReady } from "./replay-key.js";

/**
 * The replay the integration suites read (T152): every bundled snapshot replayed once into a real
 * SQLite file, as `npm start` does on an empty store, cached on disk under a key that hashes
 * everything it depends on (data/upstream, src, the lockfile and this file). A rerun with the same
 * inputs reuses it; any change of code or data builds a new one. The build runs in a child process
 * started by the global setup, so the suites that need no replay run meanwhile; a suite that needs
 * it waits for it ({@link waitForReplay}).
 *
 * Beside the database the build keeps the replay's publish log (the arguments of every
 * `store.publish`, v8-serialized), from which {@link replayIntoPostgres} gives PostgreSQL exactly
 * the publishes SQLite received, without running the pipeline again.
 */

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pid of the build that holds the lock and still runs, if any. */
export function runningBuilder(cache: ReplayCache): number | null {
  if (!existsSync(cache.lockPath)) return null;
  const pid = Number(readFileSync(cache.lockPath, "utf8"));
  return Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : null;
}

/**
 * Waits until the build of `cache` has finished.
 * @throws Error with the build's own error, when the builder died without a status, or after `timeoutMs`
 */
export async function waitForReplay(cache: ReplayCache, timeoutMs = 170_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const status = readStatus(cache);
    if (status?.ok) return;
    if (status && !status.ok) throw new Error(`the test replay failed to build: ${status.error}`);
    if (runningBuilder(cache) === null && !readStatus(cache))
      throw new Error(`the test replay builder stopped without a status (${cache.dir})`);
    if (Date.now() > until) throw new Error(`the test replay was not ready within ${timeoutMs} ms (${cache.dir})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Takes the build lock of `cache` (a stale lock, whose builder is gone, is taken over).
 * @returns false when a live builder already holds it
 */
export function takeBuildLock(cache: ReplayCache, pid: number): boolean {
  mkdirSync(cache.dir, { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(cache.lockPath, String(pid), { flag: "wx" });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (runningBuilder(cache) !== null) return false;
      rmSync(cache.lockPath, { force: true });
    }
  }
  return false;
}

/** Builds the replay of `cache` (this process must hold its lock), then drops the other keys' caches. */
export async function buildReplay(cache: ReplayCache): Promise<void> {
  const started = Date.now();
  rmSync(cache.statusPath, { force: true });
  for (const name of readdirSync(cache.dir)) if (name.endsWith(".tmp")) rmSync(join(cache.dir, name), { force: true });
  const tmp = `${cache.dbPath}.${process.pid}.tmp`;
  const publishes: Parameters<CatalogueStore["publish"]>[] = [];
  const store = await openSqliteStore(tmp);
  const publish = store.publish.bind(store);
  store.publish = async (...args) => {
    publishes.push(args);
    await publish(...args);
  };
  try {
    await ingestSnapshots(store, "data/upstream", SOURCES);
  } finally {
    await store.close();
  }
  writeFileSync(`${cache.logPath}.tmp`, serialize(publishes));
  renameSync(`${cache.logPath}.tmp`, cache.logPath);
  renameSync(tmp, cache.dbPath);
  writeStatus(cache, { ok: true, ms: Date.now() - started });
  for (const name of existsSync(CACHE_ROOT) ? readdirSync(CACHE_ROOT) : [])
    if (name.startsWith("replay-") && name !== `replay-${cache.key}`)
      rmSync(join(CACHE_ROOT, name), { recursive: true, force: true });
}

function writeStatus(cache: ReplayCache, status: Status): void {
  writeFileSync(`${cache.statusPath}.tmp`, JSON.stringify(status));
  renameSync(`${cache.statusPath}.tmp`, cache.statusPath);
}

/**
 * A fresh PostgreSQL database given every publish of the cached replay, in order: the store the
 * SQLite suites read, on the other back-end (T152).
 */
export async function replayIntoPostgres(
  cache: ReplayCache,
): Promise<{ store: CatalogueStore; url: string; drop(): Promise<void> }> {
  const publishes = deserialize(readFileSync(cache.logPath)) as Parameters<CatalogueStore["publish"]>[];
  const db = await createPgDatabase();
  const store = await openPostgresStore(db.url);
  try {
    for (const args of publishes) await store.publish(...args);
  } catch (error) {
    await store.close();
    await db.drop();
    throw error;
  }
  return { store, url: db.url, drop: db.drop };
}

/**
 * Starts the build of `cache` in a child process unless it is complete or another live builder
 * (a concurrent run) is at it. The lock names the child from the start, so a suite waiting in
 * between never sees "no builder and no status".
 * @returns the child, or null when there is nothing to start
 */
export function startReplayBuild(cache: ReplayCache): ChildProcess | null {
  if (replayReady(cache)) return null;
  if (!takeBuildLock(cache, process.pid)) return null;
  rmSync(cache.statusPath, { force: true });
  const child = spawn(process.execPath, ["--import", "tsx", "test/replay-cache.ts", cache.key], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  writeFileSync(cache.lockPath, String(child.pid));
  return child;
}

// `node --import tsx test/replay-cache.ts <key>`: the build {@link startReplayBuild} starts, under
// the lock its parent took for it.
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const cache = replayCache(process.argv[2] ?? replayKey());
  try {
    await buildReplay(cache);
  } catch (error) {
    writeStatus(cache, { ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.exitCode = 1;
  } finally {
    rmSync(cache.lockPath, { force: true });
  }
}
