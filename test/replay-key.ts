import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
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

/**
 * What the replay reads (issue 34 §1, T271): the recorded payloads, the layers the replay's code
 * imports (`test/replay-key.test.ts` checks that its import closure stays inside them), the lockfile
 * and the test files that build it. Not the rest of `src/`: a change to the API, MCP, CLI or web
 * code keeps the cached replay.
 */
export const REPLAY_INPUTS = [
  "data/upstream",
  "src/domain",
  "src/core",
  "src/sources",
  "src/ingest",
  "src/store",
  "package-lock.json",
  "test/replay-cache.ts",
  "test/replay-key.ts",
  "test/store-backends.ts",
  "test/test-stores.ts",
] as const;

function files(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

/**
 * A cache key over files: 16 hex digits of a SHA-256 over the path and bytes of every file under
 * `inputs` (files or folders, relative to the repository root; tests of src, `*.test.ts`, excluded).
 */
export function inputsKey(inputs: readonly string[]): string {
  const hash = createHash("sha256");
  for (const file of inputs.flatMap(files).filter((f) => !f.endsWith(".test.ts"))) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(file));
    hash.update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

/** The replay's cache key: {@link inputsKey} of {@link REPLAY_INPUTS}. */
export function replayKey(): string {
  return inputsKey(REPLAY_INPUTS);
}

/** How long another key's cache is kept after it was built: a day. */
const KEEP_OTHER_KEYS_MS = 24 * 60 * 60 * 1000;

/**
 * Removes the caches named `<kind>-<key>` of other keys than `keep` that were built more than a day
 * ago. Not at once: a `node_modules` shared by several checkouts of the repository (git worktrees)
 * holds their current keys too, and removing those failed their running suites (T271).
 */
export function dropOtherKeys(kind: "replay" | "parsed" | "web" | "built" | "mcp-client", keep: string): void {
  if (!existsSync(CACHE_ROOT)) return;
  for (const name of readdirSync(CACHE_ROOT)) {
    if (!name.startsWith(`${kind}-`) || name === `${kind}-${keep}`) continue;
    const path = join(CACHE_ROOT, name);
    if (Date.now() - statSync(path).mtimeMs > KEEP_OTHER_KEYS_MS) rmSync(path, { recursive: true, force: true });
  }
}

/**
 * The folder `<CACHE_ROOT>/<kind>-<key>` of the work cached under {@link inputsKey} of `inputs`,
 * created when missing (older keys' folders of that kind are then dropped, {@link dropOtherKeys}).
 * Worked out once per process and kind: the inputs do not change while tests run.
 */
export function keyedCacheDir(kind: "parsed" | "built" | "mcp-client", inputs: readonly string[]): string {
  let dir = keyedDirs.get(kind);
  if (dir) return dir;
  const key = inputsKey(inputs);
  dir = join(CACHE_ROOT, `${kind}-${key}`);
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true });
    // Older code's or data's work is not read again (by this checkout).
    dropOtherKeys(kind, key);
  }
  keyedDirs.set(kind, dir);
  return dir;
}
const keyedDirs = new Map<string, string>();

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

/**
 * Whether process `pid` is running (signal 0 asks without sending; EPERM: running, another user's):
 * the holder of a build lock (the replay's, `test/replay-cache.ts`; a recorded build's, T382).
 */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
