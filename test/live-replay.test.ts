import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildView } from "../src/catalogue/view.js";
import { runLiveIngest } from "../src/ingest/live-run.js";
import { ingestSnapshots } from "../src/ingest/run-ingest.js";
import { SOURCES } from "../src/sources/registry.js";
import type { CatalogueStore } from "../src/store/catalogue-store.js";
import { openSqliteStore } from "../src/store/open-store.js";
import { LIVE_DATES, SEED_DATES, startFakeUpstream } from "./fake-upstream.js";
import { startServer, type TestServer } from "./harness.js";
import { QUIET, testConfig } from "./live-support.js";

// issue 7 Must show: live runs against the fake upstream, then `--snapshots` replay of their
// archive into a fresh store, give byte-identical API responses (T40). The live history covers a
// good run, a partial run (a guard failure and an HTTP failure), a run after the upstream recovered,
// and a run where every upstream answered 304 Not Modified (which publishes nothing, T221).
let dir: string;
let live: CatalogueStore;
let replay: CatalogueStore;
const statuses: string[] = [];
const published: boolean[] = [];
const sourceStatuses: string[][] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tariff-replay-"));
  const upstream = await startFakeUpstream(SEED_DATES);
  live = await openSqliteStore(join(dir, "live.db"));
  const config = testConfig(upstream, dir);
  const run = async () => {
    const r = await runLiveIngest(live, SOURCES, config, QUIET);
    statuses.push(r.dataset.run.status);
    published.push(r.published);
    sourceStatuses.push(r.sources.map((s) => `${s.source}:${s.status}`));
  };
  try {
    await run();
    upstream.serve(LIVE_DATES);
    upstream.fault("openrouter", "row-drop-90");
    upstream.fault("official-anthropic", "http-500");
    await run();
    upstream.fault("openrouter", null);
    upstream.fault("official-anthropic", null);
    await run();
    await run();
  } finally {
    await upstream.close();
  }
  replay = await openSqliteStore(join(dir, "replay.db"));
  await ingestSnapshots(replay, config.archiveDir, SOURCES);
}, 60_000);
afterAll(async () => {
  await live?.close();
  await replay?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("live archive replay (issue 7 §2)", () => {
  it("the live history exercised failures, recovery and 304s", () => {
    expect(statuses).toEqual(["succeeded", "partial", "succeeded", "succeeded"]);
    expect(sourceStatuses[1]).toContain("openrouter:failed");
    expect(sourceStatuses[1]).toContain("official-anthropic:failed");
    expect(sourceStatuses[2]).toContain("models-dev:unchanged");
    expect(sourceStatuses[2]).toContain("openrouter:ok");
    expect(sourceStatuses[3]!.every((s) => s.endsWith(":unchanged"))).toBe(true);
    // No source brought new evidence in the last run: nothing was published or archived (T221).
    expect(published).toEqual([true, true, true, false]);
    // The archive holds one run folder per published run for every source that succeeded in it.
    expect(readdirSync(join(dir, "archive", "openrouter")).length).toBe(2);
    expect(readdirSync(join(dir, "archive", "models-dev")).length).toBe(3);
  });

  it("the replayed store holds the same runs, datasets, changes and history", async () => {
    const runs = await live.listRuns();
    expect(runs.length).toBe(3);
    expect(await replay.listRuns()).toEqual(runs);
    for (const r of runs)
      expect(await replay.loadDataset(r.datasetVersion)).toEqual(await live.loadDataset(r.datasetVersion));
    expect(await replay.loadChanges()).toEqual(await live.loadChanges());
    expect(await replay.loadHistory()).toEqual(await live.loadHistory());
  });

  it("every API endpoint answers byte-identically (generatedAt: views built at one instant, D31, T40)", async () => {
    const at = new Date("2026-06-02T00:00:00.000Z");
    const serverOf = async (store: CatalogueStore): Promise<TestServer> => {
      const dataset = (await store.loadDataset())!;
      const record = { changes: await store.loadChanges(), history: await store.loadHistory() };
      // One PUBLIC_BASE_URL for both: the RSS links otherwise carry each server's own port (D19).
      return startServer(buildView(dataset, SOURCES, at, record), { publicBaseUrl: "https://tariff.example" });
    };
    const [a, b] = [await serverOf(live), await serverOf(replay)];
    try {
      const dataset = (await live.loadDataset())!;
      const models = dataset.models.filter((m) => m.provider === "anthropic").slice(0, 3);
      const paths = [
        "/api/v1/meta",
        "/api/v1/providers",
        "/api/v1/models?limit=500",
        // `channel` filters /models since issue 28 (T203); an unknown channel is a 400.
        "/api/v1/models?channel=reseller_1&limit=500",
        "/api/v1/models/search?q=claude",
        "/api/v1/sources",
        "/api/v1/rates",
        "/api/v1/changes?limit=500",
        "/api/v1/changes?kinds=price_added,coverage_added,reference_changed&limit=500",
        "/api/v1/changes.xml",
        `/api/v1/compare?models=${models.map((m) => m.id).join(",")}`,
        ...models.flatMap((m) => [`/api/v1/models/${m.id}`, `/api/v1/models/${m.id}/history`]),
      ];
      for (const path of paths) {
        const [ra, rb] = [await a.get(path), await b.get(path)];
        const [ba, bb] = [await ra.text(), await rb.text()];
        expect({ path, status: ra.status }).toEqual({ path, status: 200 });
        expect(rb.status).toBe(ra.status);
        expect(ra.headers.get("etag")).toBe(rb.headers.get("etag"));
        expect(bb === ba, `${path} byte-identical`).toBe(true);
      }
      // /sources shows the partial run's failures as the live run recorded them (D4).
      const sources = (await (await a.get("/api/v1/sources")).json()) as {
        data: { id?: string; lastSuccessAt: string }[];
      };
      expect(sources.data.length).toBe(SOURCES.length);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
