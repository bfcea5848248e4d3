import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { setPriority } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { deserialize, serialize } from "node:v8";
import pg from "pg";
import { ingestSnapshots } from "../src/ingest/run-ingest.js";
import { SOURCES } from "../src/sources/registry.js";
import type { CatalogueStore } from "../src/store/catalogue-store.js";
import { openPostgresStore, openSqliteStore } from "../src/store/open-store.js";
import {
  dropOtherKeys,
  processRunning,
  type ReplayCache,
  readStatus,
  replayCache,
  replayKey,
  replayReady,
  type Status,
} from "./replay-key.js";
import { PG_ADMIN_URL } from "./store-backends.js";

export { type ReplayCache, replayCache, replayKey, replayReady } from "./replay-key.js";

/**
 * The replay the integration suites read (T152): every bundled snapshot replayed once into a real
 * SQLite file, as `npm start` does on an empty store, cached on disk under a key that hashes
 * everything it reads (data/upstream, the layers of src it imports, the lockfile and these files:
 * `REPLAY_INPUTS`, T271). A rerun with the same inputs reuses it; a change of that code or data
 * builds a new one. The build runs in a child process
 * started by the global setup, so the suites that need no replay run meanwhile; a suite that needs
 * it waits for it ({@link waitForReplay}).
 *
 * Beside the database the build keeps the replay's publish log (the arguments of every
 * `store.publish`, v8-serialized), from which {@link replayPostgresUrl} gives PostgreSQL exactly
 * the publishes SQLite received, without running the pipeline again.
 */

/** The pid of the build that holds the lock and still runs, if any. */
export function runningBuilder(cache: ReplayCache): number | null {
  if (!existsSync(cache.lockPath)) return null;
  const pid = Number(readFileSync(cache.lockPath, "utf8"));
  return Number.isInteger(pid) && pid > 0 && processRunning(pid) ? pid : null;
}

/**
 * Waits until the build of `cache` has finished. A builder that stopped without a status was
 * stopped from outside: the run that started it ended (its global setup stops its own builder) while
 * another run of the same checkout waited for it. The waiter then starts the build again itself, up
 * to twice, with a new `timeoutMs` each time.
 * @throws Error with the build's own error, when the builder died without a status three times, or after `timeoutMs`
 */
export async function waitForReplay(cache: ReplayCache, timeoutMs = 170_000): Promise<void> {
  let until = Date.now() + timeoutMs;
  let restarts = 0;
  for (;;) {
    const status = readStatus(cache);
    if (status?.ok) return;
    if (status && !status.ok) throw new Error(`the test replay failed to build: ${status.error}`);
    if (runningBuilder(cache) === null && !readStatus(cache)) {
      if (restarts >= 2) throw new Error(`the test replay builder stopped without a status (${cache.dir})`);
      restarts++;
      startReplayBuild(cache);
      until = Date.now() + timeoutMs;
    }
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

/** Builds the replay of `cache` (this process must hold its lock), then drops other keys' caches of a day ago. */
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
  dropOtherKeys("replay", cache.key);
}

function writeStatus(cache: ReplayCache, status: Status): void {
  writeFileSync(`${cache.statusPath}.tmp`, JSON.stringify(status));
  renameSync(`${cache.statusPath}.tmp`, cache.statusPath);
}

/**
 * The PostgreSQL copy of the cached replay (T239): every publish of the replay given, in order, to
 * a database of the test server, the store the SQLite suites read on the other back-end (T152). It
 * is built once per checkout and replay key (`tariff_replay_<checkout>_<key>`) and kept between runs
 * like the SQLite file: the build holds an advisory lock (concurrent runs build it once), writes
 * under a temporary name and renames the database when complete, then drops the checkout's copies
 * of older keys.
 * @returns its URL; readers only (a suite that writes makes its own database)
 */
export async function replayPostgresUrl(cache: ReplayCache): Promise<string> {
  const checkout = createHash("sha256").update(resolve(".")).digest("hex").slice(0, 8);
  const prefix = `tariff_replay_${checkout}_`;
  const name = `${prefix}${cache.key}`;
  const urlOf = (database: string) => PG_ADMIN_URL.replace(/\/[^/]*$/, `/${database}`);
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query("select pg_advisory_lock(hashtext($1))", [prefix]);
    const found = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount === 0) {
      const building = `${name}_building`;
      await admin.query(`drop database if exists ${building} with (force)`);
      await admin.query(`create database ${building}`);
      const store = await openPostgresStore(urlOf(building));
      try {
        const publishes = deserialize(readFileSync(cache.logPath)) as Parameters<CatalogueStore["publish"]>[];
        for (const args of publishes) await store.publish(...args);
      } finally {
        await store.close();
      }
      // The store's connections close asynchronously: a rename that still sees one (55006) waits for it.
      for (let attempt = 0; ; attempt++) {
        try {
          await admin.query(`alter database ${building} rename to ${name}`);
          break;
        } catch (error) {
          if ((error as { code?: string }).code !== "55006" || attempt >= 50) throw error;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      const older = await admin.query<{ datname: string }>(
        "select datname from pg_database where left(datname, length($1)) = $1 and datname <> $2",
        [prefix, name],
      );
      for (const { datname } of older.rows) await admin.query(`drop database if exists ${datname} with (force)`);
    }
  } finally {
    await admin.query("select pg_advisory_unlock_all()").catch(() => {});
    await admin.end();
  }
  return urlOf(name);
}

/** The nice value of the replay's builder: ahead of the test workers (nice 0), not of the machine. */
const REPLAY_BUILD_PRIORITY = -5;

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
  // The replay is the cold run's critical path (T383): every `api` file waits for it while the two
  // test workers run the rest, three busy processes on two cores. Ahead of the workers it has a core
  // of its own; a user who may not raise a priority (not root) builds it at theirs.
  if (child.pid !== undefined)
    try {
      setPriority(child.pid, REPLAY_BUILD_PRIORITY);
    } catch {
      // EACCES: the build runs at the user's own priority, sharing the cores evenly.
    }
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
