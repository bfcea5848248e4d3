import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildView } from "../src/catalogue/view.js";
import { SERVED_ROUTES } from "../src/http/create-app.js";
import { SOURCES } from "../src/sources/registry.js";
import type { CatalogueStore } from "../src/store/catalogue-store.js";
import { openPostgresStore, openSqliteStore } from "../src/store/open-store.js";
import { httpRequest, replay, samplePath, startServer, type TestServer } from "./harness.js";
import { type CursorPage, walkItems } from "./paging.js";
import { replayPostgresUrl } from "./replay-cache.js";

// PostgreSQL parity (issue 5, issue 19 §5, T152): every publish of the bundled replay, given to a
// real PostgreSQL database in the same order, reads back exactly as from the SQLite file the other
// suites read (every run, every dataset version kept, source states, changes, history), and an API
// server on each back-end answers every endpoint with the same bytes, walking the paged lists to
// their end. The HTTP suites themselves run once, on SQLite: they only read the view, and this
// suite shows the view is the same on both back-ends. The store contract (ingest runs, locks,
// NOTIFY, pruning) runs the real pipeline on both in test/ingest-runs.test.ts,
// test/store-scale.test.ts and test/scale-out.test.ts.
let sqlite: CatalogueStore;
let pg: { store: CatalogueStore };
const servers: { sqlite?: TestServer; postgres?: TestServer } = {};

beforeAll(async () => {
  const cache = await replay();
  sqlite = await openSqliteStore(cache.dbPath);
  // Built once per replay and kept between runs (T239); read only.
  pg = { store: await openPostgresStore(await replayPostgresUrl(cache)) };
  // A cold run waits for the replay, then gives PostgreSQL its twelve publishes.
}, 400_000);
afterAll(async () => {
  await servers.sqlite?.close();
  await servers.postgres?.close();
  await sqlite?.close();
  await pg?.store.close();
});

describe("the replay reads back the same from SQLite and PostgreSQL", () => {
  it("the same runs, 12 of them, in order", async () => {
    const runs = await sqlite.listRuns();
    expect(runs).toHaveLength(12);
    expect(await pg.store.listRuns()).toEqual(runs);
    expect(await pg.store.latestRun()).toEqual(await sqlite.latestRun());
  });

  // Twelve versions loaded whole from each store: well under a minute, but not on a loaded machine.
  it("every dataset version either store keeps is the same, and both keep the same ones", {
    timeout: 240_000,
  }, async () => {
    const kept: string[] = [];
    for (const run of await sqlite.listRuns()) {
      const a = await sqlite.loadDataset(run.datasetVersion);
      const b = await pg.store.loadDataset(run.datasetVersion);
      expect(b === null, run.datasetVersion).toBe(a === null);
      if (a === null || b === null) continue;
      expect(b, run.datasetVersion).toEqual(a);
      kept.push(run.datasetVersion);
    }
    expect(kept.length).toBeGreaterThan(0);
    expect(await pg.store.loadDataset()).toEqual(await sqlite.loadDataset());
  });

  it("the same source states, change records and history points", async () => {
    expect(await pg.store.loadSourceStates()).toEqual(await sqlite.loadSourceStates());
    const changes = await sqlite.loadChanges();
    expect(changes.length).toBeGreaterThan(0);
    expect(await pg.store.loadChanges()).toEqual(changes);
    const history = await sqlite.loadHistory();
    expect(history.length).toBeGreaterThan(0);
    expect(await pg.store.loadHistory()).toEqual(history);
  });
});

describe("an API server on each back-end answers every endpoint with the same bytes", () => {
  beforeAll(async () => {
    // One clock for both views, so `generatedAt` and freshness agree.
    const now = new Date();
    for (const [name, store] of [
      ["sqlite", sqlite],
      ["postgres", pg.store],
    ] as const) {
      const dataset = (await store.loadDataset())!;
      const [changes, history] = await Promise.all([store.loadChanges(), store.loadHistory()]);
      // One public base URL, so the feed's absolute links agree too.
      const view = buildView(dataset, SOURCES, now, { changes, history });
      servers[name] = await startServer(view, { publicBaseUrl: "https://tariff.example" });
    }
  });

  /** The same status, ETag and body from both servers; the body, parsed when JSON. */
  async function same(path: string): Promise<unknown> {
    const [a, b] = await Promise.all([
      httpRequest(servers.sqlite!.base, { path }),
      httpRequest(servers.postgres!.base, { path }),
    ]);
    expect(a.status, path).toBe(200);
    expect({ status: b.status, etag: b.headers.etag, body: b.body }, path).toEqual({
      status: a.status,
      etag: a.headers.etag,
      body: a.body,
    });
    return String(a.headers["content-type"]).startsWith("application/json") ? JSON.parse(a.body) : a.body;
  }

  /** Follows `meta.nextCursor` from `path` to the last page (D12), comparing every page; the items seen. */
  async function walk(path: string): Promise<unknown[]> {
    return walkItems(path, async (p) => (await same(p)) as CursorPage);
  }

  it.each(SERVED_ROUTES.map((r) => [r.path]))("GET %s", async (route) => {
    await same(samplePath(route));
  });

  it("every page of /models, and every 25th model's prices and history", async () => {
    const models = (await walk("/api/v1/models?limit=200")) as { id: string }[];
    expect(models.length).toBeGreaterThan(1000);
    for (const { id } of models.filter((_, i) => i % 25 === 0)) {
      await same(`/api/v1/models/${id}`);
      await same(`/api/v1/models/${id}/history`);
    }
  });

  it("/changes over the whole replay, by kind, and its RSS feed", async () => {
    const all = (await same("/api/v1/changes?days=3650&limit=500")) as { data: unknown[] };
    expect(all.data).toHaveLength(500);
    for (const kind of ["price_increase", "price_decrease", "price_added", "price_removed", "reference_changed"])
      await same(`/api/v1/changes?days=3650&limit=500&kind=${kind}`);
    expect(await same("/api/v1/changes.xml")).toMatch(/^<\?xml/);
  });
});
