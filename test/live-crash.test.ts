import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { loadView } from "../src/catalogue/load-view.js";
import { runLiveIngest } from "../src/ingest/live-run.js";
import { ingestSnapshots } from "../src/ingest/run-ingest.js";
import { SOURCES } from "../src/sources/registry.js";
import { snapshotFolder } from "../src/sources/snapshot-reader.js";
import { openSqliteStore } from "../src/store/open-store.js";
import { tariffEnv } from "./cli-support.js";
import { startServer } from "./harness.js";
import { cloneSeed, liveFileFixtures, QUIET, testConfig } from "./live-support.js";

// issue 7 §6 Must show: `node bin/tariff.js ingest` (live, against the fake upstream) is SIGKILLed
// as the run enters one of its stages: test/crash-hook.ts, preloaded with `node --import`, listens
// on the run's stage channel (T150; nothing test-only ships in src/). `during-publish:<ms>` kills
// from another thread while the publishing transaction runs. Afterwards the store is consistent,
// the previous version is what a server loads and serves (or the complete new one, once the
// publish committed), and the next run succeeds and repairs the archive.
const POINTS: { point: string; published: boolean | "either" }[] = [
  { point: "archived", published: false },
  { point: "during-publish:0", published: false },
  { point: "during-publish:10", published: "either" },
  { point: "published", published: true },
  { point: "finished", published: true },
];

const live = liveFileFixtures({ upstream: true });

function runCli(
  dataDir: string,
  crashAt: string,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const hook = ["--import", "tsx", "--import", "./test/crash-hook.ts"];
    const child = spawn(process.execPath, [...hook, "bin/tariff.js", "ingest"], {
      env: tariffEnv({
        ...live.upstream.env(),
        DATA_DIR: dataDir,
        LOG_LEVEL: "silent",
        INGEST_TIMEOUT_MS: "5000",
        INGEST_RETRIES: "1",
        INGEST_RETRY_MIN_MS: "10",
        CRASH_AT: crashAt,
      }),
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += String(d);
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve({ code, signal, stderr }));
  });
}

describe("SIGKILL during live ingestion (issue 7 §6)", () => {
  // Sequential: each case spawns a CLI process (tsx start-up is CPU-bound on 2 cores).
  it.each(POINTS)(
    "killed at $point: store consistent, previous version served, next run succeeds",
    async ({ point, published }) => {
      const { dir, cleanup } = cloneSeed(live.seed);
      const dbPath = join(dir, "tariff.db");
      try {
        const exit = await runCli(dir, point);
        expect({ signal: exit.signal, stderr: exit.stderr }).toEqual({ signal: "SIGKILL", stderr: "" });

        const raw = new SQLite(dbPath);
        expect(raw.pragma("integrity_check", { simple: true })).toBe("ok");
        raw.close();

        const store = await openSqliteStore(dbPath);
        try {
          const runs = await store.listRuns();
          const seedVersion = live.seed.dataset.run.datasetVersion;
          // The seed's run stays first; the killed run is there exactly when its publish committed
          // (`during-publish:10` may die on either side of the commit: both counts are right).
          expect(runs[0]?.datasetVersion).toBe(seedVersion);
          if (published === "either") expect([1, 2]).toContain(runs.length);
          else expect(runs.length).toBe(published ? 2 : 1);
          // Whatever is latest loads whole: the counts of its run record match its rows.
          const latest = (await store.loadDataset())!;
          expect(latest.prices.length).toBe(latest.run.summary.prices);
          expect(latest.models.length).toBe(latest.run.summary.models);
          expect((await store.loadDataset(seedVersion))?.prices.length).toBe(live.seed.dataset.prices.length);

          // What a (re)starting server serves: the previous version, or the complete new one.
          const view = (await loadView(store, SOURCES))!;
          const server = await startServer(view);
          try {
            const meta = (await (await server.get("/api/v1/meta")).json()) as { meta: { datasetVersion: string } };
            expect(meta.meta.datasetVersion).toBe(runs.at(-1)?.datasetVersion);
          } finally {
            await server.close();
          }

          // The next run succeeds. The killed process's ingest lock died with it (an OS-level lock,
          // T260): the next run takes it at once, with no stale time to wait out.
          await store.withIngestLock(async () => {}, { wait: false });
          const next = await runLiveIngest(store, SOURCES, testConfig(live.upstream, dir), QUIET);
          expect(next.dataset.run.summary.failed).toEqual({});
          expect(next.dataset.run.status).toBe("succeeded");
          // A run killed once finished had recorded what it fetched: the same payloads again are no
          // new evidence, so the next run publishes nothing (T221); any earlier kill left them new.
          const fresh = point !== "finished";
          expect(next.published).toBe(fresh);
          const after = await store.listRuns();
          expect(after.length).toBe(runs.length + (fresh ? 1 : 0));

          // The archive is whole again: no pending manifest, one final manifest per published run,
          // and replaying it gives the same runs.
          const archive = join(dir, "archive");
          const manifests = readdirSync(join(archive, "runs")).sort();
          expect(manifests).toEqual(after.map((r) => `${snapshotFolder(r.datasetVersion)}.json`).sort());
          const replay = await openSqliteStore(join(dir, "replay.db"));
          try {
            await ingestSnapshots(replay, archive, SOURCES);
            expect(await replay.listRuns()).toEqual(after);
          } finally {
            await replay.close();
          }
        } finally {
          await store.close();
        }
      } finally {
        cleanup();
      }
    },
  );
});
