import { loadView } from "../catalogue/load-view.js";
import type { CatalogueView } from "../catalogue/view.js";
import type { Config } from "../config.js";
import { ingestSnapshots } from "../ingest/run-ingest.js";
import { SOURCES } from "../sources/registry.js";
import { openSqliteStore } from "../store/open-store.js";
import { consoleReporter } from "./progress.js";

/**
 * Opens the local store at `config.databasePath`, replays the bundled snapshots into it when it is
 * empty, and builds the in-memory view of the current dataset version; the store is closed again.
 * Shared by `tariff serve` and `tariff mcp`. Progress goes to stderr only (stdout may carry MCP).
 * @throws Error when the store holds no dataset version and there are no snapshots to replay
 */
export async function loadCurrentView(config: Config): Promise<CatalogueView> {
  const store = await openSqliteStore(config.databasePath);
  try {
    if (!(await store.latestRun())) {
      process.stderr.write(
        `empty store at ${config.databasePath}: replaying bundled snapshots from ${config.snapshotsDir}\n`,
      );
      await ingestSnapshots(store, config.snapshotsDir, SOURCES, consoleReporter());
    }
    const view = await loadView(store, SOURCES);
    if (!view) throw new Error(`no dataset version in ${config.databasePath} and no snapshots to replay`);
    return view;
  } finally {
    await store.close();
  }
}
