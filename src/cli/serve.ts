import { buildView } from "../catalogue/view.js";
import type { Config } from "../config.js";
import { createApp } from "../http/create-app.js";
import { ViewHolder } from "../http/view-holder.js";
import { ingestSnapshots } from "../ingest/run-ingest.js";
import { SOURCES } from "../sources/registry.js";
import { openSqliteStore } from "../store/open-store.js";
import { consoleReporter } from "./progress.js";

/**
 * `tariff serve`: opens the store, replays the bundled snapshots into it when it is empty, builds
 * the in-memory view of the current dataset version and serves API v1.
 */
export async function serve(config: Config): Promise<void> {
  const store = await openSqliteStore(config.databasePath);
  if (!(await store.latestRun())) {
    process.stderr.write(
      `empty store at ${config.databasePath}: replaying bundled snapshots from ${config.snapshotsDir}\n`,
    );
    await ingestSnapshots(store, config.snapshotsDir, SOURCES, consoleReporter());
  }
  const dataset = await store.loadDataset();
  await store.close();
  if (!dataset) throw new Error(`no dataset version in ${config.databasePath} and no snapshots to replay`);
  const views = new ViewHolder(buildView(dataset, SOURCES));
  const app = await createApp({
    views,
    rateLimitPerMinute: config.rateLimitPerMinute,
    trustProxy: config.trustProxy,
    logLevel: config.logLevel,
  });
  const shutdown = async () => {
    await app.close();
    process.exit(0);
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
  await app.listen({ port: config.port, host: config.host });
  process.stderr.write(
    `Tariff serving dataset ${dataset.run.datasetVersion} at http://${config.host}:${config.port}/api/v1\n`,
  );
}
