import type { Logger } from "pino";
import { loadView } from "../catalogue/load-view.js";
import { withSourceAttempts } from "../catalogue/source-records.js";
import type { PointInTimeSource } from "../catalogue/timeline.js";
import type { ViewHolder } from "../catalogue/view-holder.js";
import { SOURCES } from "../sources/registry.js";
import { openStore } from "../store/open-store.js";
import type { Config } from "./config.js";

/** A process following the store's dataset versions. */
export interface Following {
  /**
   * After a live run in this process: loads `version` when it is newer than the one served (the run
   * published it), then re-reads the sources' last attempts (T310).
   */
  check(version: string): Promise<void>;
  /** Stops following and closes the store connection. */
  stop(): Promise<void>;
}

/**
 * Keeps an API process on the newest dataset version (issue 5 §3): the store announces new
 * versions (LISTEN/NOTIFY on PostgreSQL, polling on SQLite and as the fallback), the process
 * builds the new view off the request path and swaps it in one assignment. Requests in flight
 * finish on the view they took. A version is loaded once, whoever announced it. Every view reads
 * its `at=` answers through `spans`, the process's one point-in-time reader (T199).
 */
export async function followVersions(
  config: Config,
  views: ViewHolder,
  log: Logger,
  spans: PointInTimeSource,
): Promise<Following> {
  const store = await openStore(config);
  let loading = Promise.resolve();
  const load = (version: string) => {
    loading = loading
      .then(async () => {
        if ((views.current()?.version ?? "") >= version) return;
        const started = performance.now();
        const next = await loadView(store, SOURCES, version, spans);
        if (next && next.version > (views.current()?.version ?? "")) {
          views.swap(next);
          log.info(
            { datasetVersion: next.version, loadMs: Math.round(performance.now() - started) },
            "serving a new dataset version",
          );
        }
      })
      .catch((error: unknown) => log.error({ err: error }, "could not load the new dataset version"));
    return loading;
  };
  // T310: `/sources` says the sources' last attempts (a live run that published nothing writes them
  // too) and their health now; re-read and re-judged at the same pace as versions are polled.
  const refresh = () => {
    loading = loading
      .then(async () => {
        const view = views.current();
        if (!view) return;
        const attempts = await store.loadAttempts();
        const current = views.current();
        if (current !== view) return; // a new version came meanwhile; its load read the attempts
        const next = withSourceAttempts(view, SOURCES, attempts, new Date().toISOString());
        if (next !== view) views.swap(next);
      })
      .catch((error: unknown) => log.error({ err: error }, "could not read the sources' last attempts"));
    return loading;
  };
  const pollMs = config.databaseUrl ? 30_000 : 2000;
  const stop = await store.watchVersions(load, { pollMs });
  const timer = setInterval(refresh, pollMs);
  timer.unref();
  return {
    check: async (version) => {
      await load(version);
      await refresh();
    },
    async stop() {
      clearInterval(timer);
      await stop();
      await loading;
      await store.close();
    },
  };
}
