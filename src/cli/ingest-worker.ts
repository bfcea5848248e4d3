import { channel } from "node:diagnostics_channel";
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { LIVE_RUN_CHANNEL, type LiveRunStageMessage, runLiveIngest } from "../ingest/live-run.js";
import { SOURCES } from "../sources/registry.js";
import { openStore } from "../store/open-store.js";
import type { Config } from "./config.js";
import { ingestLogger, type LiveRunReport, pruneVersions, reportOf } from "./ingest-live.js";

/**
 * The worker thread of one scheduled live run (T220): it opens its own store connection, runs live
 * ingestion once under the store's ingest lock, prunes, and posts a {@link LiveRunReport} (or the
 * error) to the server's thread. Parsing payloads and building the dataset take seconds of CPU:
 * here they never hold up a request.
 */
const config = (workerData as { config: Config }).config;
// On Linux a thread has its own nice value: this thread yields the CPU to the server's requests
// (elsewhere the call would renice the whole process, so it is left out there).
if (process.platform === "linux") {
  try {
    setPriority(10);
  } catch {
    // not permitted: the run goes on at normal priority
  }
}
const logger = ingestLogger(config);
// The run's stages (T150) at debug level: when it fetched, archived, began and ended its publish.
channel(LIVE_RUN_CHANNEL).subscribe((message) => {
  const { stage, runTime } = message as LiveRunStageMessage;
  logger.debug({ stage, run: runTime }, "live run stage");
});
const store = await openStore(config);
try {
  const result = await runLiveIngest(store, SOURCES, config.live, logger);
  if (result.published) await pruneVersions(store, config);
  parentPort?.postMessage({ report: reportOf(result) });
} catch (error) {
  parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
} finally {
  await store.close();
}
