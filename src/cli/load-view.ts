import { existsSync, readdirSync, rmdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { loadView, StoreSpans, type StoreSpansOptions } from "../catalogue/load-view.js";
import type { CatalogueView } from "../catalogue/view.js";
import { ingestSnapshots } from "../ingest/run-ingest.js";
import { snapshotRunFolders } from "../ingest/snapshots-folder.js";
import { SOURCES } from "../sources/registry.js";
import type { CatalogueStore } from "../store/catalogue-store.js";
import { openStore } from "../store/open-store.js";
import type { Config } from "./config.js";
import { consoleReporter } from "./progress.js";
import { abortOnStopSignal, InterruptedError, stopSignalOf } from "./signals.js";

/** Where the configured store lives, for messages. */
export function storeLabel(config: Config): string {
  return config.databaseUrl ? "the PostgreSQL store" : config.databasePath;
}

/** True when the store is PostgreSQL, or its SQLite file exists (opening SQLite creates the file). */
export function storeExists(config: Config): boolean {
  return Boolean(config.databaseUrl) || existsSync(config.databasePath);
}

/** The start log's line saying where the store is and how to move it (issue 15, T94). */
export function storeLine(config: Config): string {
  if (config.databaseUrl) return "store: PostgreSQL (DATABASE_URL)";
  return config.dataDirIsDefault
    ? `store: ${config.databasePath} (the per-user default; set DATA_DIR to keep it elsewhere)`
    : `store: ${config.databasePath} (DATA_DIR)`;
}

/**
 * Replays the bundled snapshots into the store when it is empty, under the ingest lock, so several
 * processes starting at once replay once (issue 5 §2). Progress goes to stderr only. SIGINT or
 * SIGTERM stops it between runs (T97).
 * @throws SnapshotsFolderError when the store is empty and the snapshots folder is missing or empty
 * @throws InterruptedError when a signal stopped the replay
 */
export async function replayIfEmpty(store: CatalogueStore, config: Config): Promise<void> {
  if (await store.latestRun()) return;
  await store.withIngestLock(async () => {
    if (await store.latestRun()) return; // another process replayed while we waited
    const folders = snapshotRunFolders(config.snapshotsDir);
    process.stderr.write(
      `tariff: empty store: replaying ${folders.length} snapshot folder(s) from ${config.snapshotsDir} (first start only)\n`,
    );
    const stop = abortOnStopSignal((signal) => `${signal}: stopping the first replay after the run in progress`);
    try {
      await ingestSnapshots(store, config.snapshotsDir, SOURCES, consoleReporter(), stop.signal);
    } finally {
      stop.release();
    }
    const signal = stopSignalOf(stop.signal);
    if (signal)
      throw new InterruptedError(
        signal,
        `the first replay was interrupted; the runs replayed so far stay in ${storeLabel(config)}`,
      );
  });
}

/**
 * Opens the configured store and replays the bundled snapshots into it when it is empty: what
 * `tariff serve` and `tariff mcp` do first. A failed start writes nothing (issue 15, T94): with no
 * SQLite file yet, the snapshots folder is checked before the file is created, and a replay that
 * fails or is interrupted removes the file and the folders this start created.
 * @throws SnapshotsFolderError or the replay's error; nothing of this start is left behind
 */
export async function prepareStore(config: Config): Promise<CatalogueStore> {
  const fresh = !storeExists(config);
  if (fresh) snapshotRunFolders(config.snapshotsDir);
  const createdFolders = fresh ? missingFolders(dirname(config.databasePath)) : [];
  const store = await openStore(config);
  try {
    await replayIfEmpty(store, config);
    return store;
  } catch (error) {
    await store.close();
    if (!fresh) throw error;
    removeFreshStore(config.databasePath, createdFolders);
    if (error instanceof InterruptedError)
      throw new InterruptedError(
        error.signal,
        "the first replay was interrupted; nothing was kept, the next start replays",
      );
    throw error;
  }
}

/**
 * The point-in-time reads of a process (T165, T199): a store opened on the first `at=` question,
 * kept while questions come, with a backoff while it cannot be read (see {@link StoreSpans}).
 */
export function storeSpans(config: Config, options: StoreSpansOptions = {}): StoreSpans {
  return new StoreSpans(async () => {
    const opened = await openStore(config);
    return { store: opened, release: () => opened.close() };
  }, options);
}

/**
 * Opens the store (see {@link prepareStore}) and builds the in-memory view of the current dataset
 * version; the store is closed again. Shared by `tariff serve` and `tariff mcp`.
 * @param spans where the view's `at=` answers read (a server passes its own, shared with the
 *   versions it follows); by default one that closes the store after each read (a CLI command)
 * @throws Error when the store holds no dataset version and there are no snapshots to replay
 */
export async function loadCurrentView(
  config: Config,
  spans: StoreSpans = storeSpans(config, { idleMs: 0 }),
): Promise<CatalogueView> {
  const store = await prepareStore(config);
  try {
    // The point-in-time index is read per `at=` question, through the store `spans` opens (T165, T199).
    const view = await loadView(store, SOURCES, undefined, spans);
    if (!view) throw new Error(`no dataset version in ${storeLabel(config)} and no snapshots to replay`);
    return view;
  } finally {
    await store.close();
  }
}

/** `dir` and its ancestors that do not exist yet, deepest first. */
function missingFolders(dir: string): string[] {
  const missing: string[] = [];
  for (let d = dir; !existsSync(d) && dirname(d) !== d; d = dirname(d)) missing.push(d);
  return missing;
}

/** Removes a SQLite store this start created (file, WAL, shared memory, lock) and its new, empty folders. */
function removeFreshStore(path: string, folders: readonly string[]): void {
  for (const suffix of ["", "-wal", "-shm", "-journal", ".ingest.lock"])
    rmSync(`${path}${suffix}`, { force: true, recursive: true });
  for (const folder of folders) {
    if (!existsSync(folder) || readdirSync(folder).length > 0) break;
    rmdirSync(folder);
  }
}
