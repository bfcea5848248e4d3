import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

/**
 * Where the cached replay of the bundled snapshots lives and whether it is built (T152): the key,
 * paths and status of `test/replay-cache.ts`'s cache, with nothing but Node's own modules, so the
 * test sequencer (loaded with vitest's configuration) can ask whether a run is cold (T237).
 */

/** Where the cached replays live (inside node_modules: per checkout, never committed). */
export const CACHE_ROOT = resolve("node_modules/.cache/tariff-test");

/** One cached replay: its files and the build's status and lock. */
export interface ReplayCache {
  readonly key: string;
  readonly dir: string;
  /** The replayed SQLite store (opened read-only by intent: suites that write copy it). */
  readonly dbPath: string;
  /** v8-serialized `Parameters<CatalogueStore["publish"]>[]` of the replay, in order. */
  readonly logPath: string;
  /** `{"ok": true, ms}` or `{"ok": false, error}`, written last by the build. */
  readonly statusPath: string;
  /** Holds the builder's pid while a build runs. */
  readonly lockPath: string;
}

/** What the replay depends on: every file of these trees (tests of src excluded), by path and bytes. */
const INPUTS = [
  "data/upstream",
  "src",
  "package-lock.json",
  "test/replay-cache.ts",
  "test/replay-key.ts",
  "test/store-backends.ts",
];

function files(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

/** The cache key: 16 hex digits of a SHA-256 over every input file's path and bytes. */
export function replayKey(): string {
  const hash = createHash("sha256");
  for (const file of INPUTS.flatMap(files).filter((f) => !f.endsWith(".test.ts"))) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(file));
    hash.update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

export function replayCache(key: string): ReplayCache {
  const dir = join(CACHE_ROOT, `replay-${key}`);
  return {
    key,
    dir,
    dbPath: join(dir, "replay.db"),
    logPath: join(dir, "publishes.v8"),
    statusPath: join(dir, "status.json"),
    lockPath: join(dir, "build.lock"),
  };
}

export type Status = { ok: true; ms: number } | { ok: false; error: string };

export function readStatus(cache: ReplayCache): Status | null {
  if (!existsSync(cache.statusPath)) return null;
  return JSON.parse(readFileSync(cache.statusPath, "utf8")) as Status;
}

/** True when the cache holds a complete replay. */
export function replayReady(cache: ReplayCache): boolean {
  return readStatus(cache)?.ok === true && existsSync(cache.dbPath) && existsSync(cache.logPath);
}
