import { loadView } from "../catalogue/load-view.js";
import type { CatalogueView } from "../catalogue/view.js";
import type { Config } from "../config.js";
import { ingestSnapshots } from "../ingest/run-ingest.js";
import { SOURCES } from "../sources/registry.js";
import type { CatalogueStore } from "../store/catalogue-store.js";
import { openStore } from "../store/open-store.js";
import { consoleReporter } from "./progress.js";

/** Where the configured store lives, for messages. */
export function storeLabel(config: Config): string {
  return config.databaseUrl ? "the PostgreSQL store" : config.databasePath;
}

/**
 * Replays the bundled snapshots into the store when it is empty, under the ingest lock, so several
 * processes starting at once replay once (issue 5 §2). Progress goes to stderr only.
 */
export async function replayIfEmpty(store: CatalogueStore, config: Config): Promise<void> {
  if (await store.latestRun()) return;
  await store.withIngestLock(async () => {
    if (await store.latestRun()) return; // another process replayed while we waited
    process.stderr.write(
      `empty store at ${storeLabel(config)}: replaying bundled snapshots from ${config.snapshotsDir}\n`,
    );
    await ingestSnapshots(store, config.snapshotsDir, SOURCES, consoleReporter());
  });
}

/**
 * Opens the configured store (SQLite, or PostgreSQL with DATABASE_URL), replays the bundled
 * snapshots into it when it is empty, and builds the in-memory view of the current dataset
 * version; the store is closed again. Shared by `tariff serve` and `tariff mcp`.
 * @throws Error when the store holds no dataset version and there are no snapshots to replay
 */
export async function loadCurrentView(config: Config): Promise<CatalogueView> {
  const store = await openStore(config);
  try {
    await replayIfEmpty(store, config);
    const view = await loadView(store, SOURCES);
    if (!view) throw new Error(`no dataset version in ${storeLabel(config)} and no snapshots to replay`);
    return view;
  } finally {
    await store.close();
  }
}
