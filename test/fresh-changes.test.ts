import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadView, StoreSpans } from "../src/catalogue/load-view.js";
import type { ApiChange } from "../src/catalogue/schemas.js";
import { type CatalogueView, compareNewestFirst } from "../src/catalogue/view.js";
import { CHANGE_KINDS, type PublishedChange } from "../src/domain/change.js";
import { SOURCES } from "../src/sources/registry.js";
import type { CatalogueStore } from "../src/store/catalogue-store.js";
import { loadReplay, startServer, type TestServer } from "./harness.js";
import { changesPages, storedChange, storedRows } from "./paging.js";

/**
 * Issue 27 §3 "Must show" on the bundled replay (T226): `/changes` pages back through the whole
 * history with a keyset cursor, `/changes?since=<datasetVersion>` catches up with every change
 * published after a version, oldest first, and neither repeats nor skips a row, even when a new
 * version is published between two pages. The new parameters keep D21–D24: ETag and 304, the D22
 * Cache-Control, the rate limit.
 */

const ALL_KINDS = CHANGE_KINDS.join(",");
let store: CatalogueStore;
let view: CatalogueView;
let changes: PublishedChange[];
let runs: string[];
let server: TestServer;

beforeAll(async () => {
  const replay = await loadReplay();
  store = replay.store;
  view = replay.view;
  changes = await store.loadChanges();
  runs = (await store.listRuns()).map((r) => r.datasetVersion);
  server = await startServer(view);
});
afterAll(async () => {
  await server?.close();
  await store?.close();
});

type Page = { data: ApiChange[]; meta: { nextCursor: string | null; count: number; days: number; limit: number } };

async function page(s: TestServer, query: string): Promise<Page> {
  const res = await s.get(`/api/v1/changes?${query}`);
  expect(res.status, query).toBe(200);
  return (await res.json()) as Page;
}

/** Every page of a `/changes` query on `s`; `between` runs before each page after the first. */
function allPages(s: TestServer, query: string, between?: (n: number) => void) {
  return changesPages((path) => page(s, path.slice("/api/v1/changes?".length)), query, between);
}

/** A row without its `confidence` (T343: read from the prices of the version answered, checked in test/change-confidence.test.ts). */
describe("/changes pages back through the whole history (T226)", () => {
  it("every change of all twelve bundled runs, newest first, once each", async () => {
    expect(runs).toHaveLength(12);
    const { rows, pages } = await allPages(server, `days=3650&kind=${ALL_KINDS}&limit=500`);
    expect(rows.length).toBe(changes.length);
    expect(pages).toBe(Math.ceil(changes.length / 500));
    // Exactly the stored records, in the order of the feed: occurredAt descending, then publication.
    expect(storedRows(rows)).toEqual([...changes].sort(compareNewestFirst).map(storedChange));
    // The first run publishes no change (there is nothing before it); every later run's are there.
    expect(new Set(rows.map((c) => c.occurredAt))).toEqual(new Set(runs.slice(1)));
  });

  it("the first page without a cursor is what /changes answered before (days, limit, kinds as in api-v1.md)", async () => {
    const first = await page(server, "");
    expect(first.meta).toMatchObject({ days: 30, limit: 100, count: 100 });
    const window = Date.parse(view.version) - 30 * 86_400_000;
    const expected = [...changes]
      .sort(compareNewestFirst)
      .filter(
        (c) =>
          Date.parse(c.occurredAt) > window &&
          ["price_increase", "price_decrease", "price_removed", "unit_change"].includes(c.kind),
      )
      .map(storedChange);
    expect(storedRows(first.data)).toEqual(expected.slice(0, 100));
    expect(first.meta.nextCursor).not.toBeNull();
    const rest = await allPages(server, "");
    expect(storedRows(rest.rows)).toEqual(expected);
  });

  it("filters hold across pages; a cursor from other filters is a 400", async () => {
    const { rows } = await allPages(server, "days=3650&provider=openai&limit=7");
    expect(rows.length).toBeGreaterThan(7);
    expect(new Set(rows.map((c) => c.model.split("/")[0]))).toEqual(new Set(["openai"]));
    const first = await page(server, "days=3650&provider=openai&limit=7");
    const res = await server.get(
      `/api/v1/changes?days=3650&provider=anthropic&limit=7&cursor=${first.meta.nextCursor}`,
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toBe(
      "cursor was made with other filters (since, days, provider, model, q, kind, channel, at); repeat them unchanged or drop the cursor",
    );
    const bad = await server.get("/api/v1/changes?cursor=not-a-cursor!");
    expect(((await bad.json()) as { detail: string }).detail).toBe(
      "cursor is not valid: pass meta.nextCursor of a previous response unchanged",
    );
  });
});

describe("/changes?since=<datasetVersion> catches up exactly (T226)", () => {
  it.each([0, 5, 9, 10])("since run %i: every change published after it, oldest first, in pages", async (i) => {
    const since = runs[i]!;
    const expected = changes.filter((c) => c.publishedIn > since).map(storedChange);
    const { rows, pages } = await allPages(server, `since=${since}&kind=${ALL_KINDS}&limit=500`);
    expect(storedRows(rows)).toEqual(expected);
    expect(pages).toBe(Math.max(1, Math.ceil(expected.length / 500)));
  });

  it("since the served version: nothing, and no cursor", async () => {
    const p = await page(server, `since=${view.version}&kind=${ALL_KINDS}`);
    expect(p).toMatchObject({ data: [], meta: { count: 0, nextCursor: null, days: 3650 } });
  });

  it("a since that is no dataset version is a 400 naming the form", async () => {
    for (const since of ["yesterday", "2026-06-01", "2026-13-01T00:00:00.000Z", "2026-06-01T00:00:00+02:00"]) {
      const res = await server.get(`/api/v1/changes?since=${encodeURIComponent(since)}`);
      expect(res.status, since).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toBe(
        "since must be a dataset version, an ISO 8601 UTC timestamp such as 2026-06-01T00:00:00.000Z",
      );
    }
  });
});

describe("a version published between two pages shifts nothing (T226)", () => {
  let older: CatalogueView;
  beforeAll(async () => {
    // Its `at=` index is read per question (none is asked here), not built from every span at load.
    const spans = new StoreSpans(async () => ({ store, release: async () => {} }));
    older = (await loadView(store, SOURCES, runs[10], spans))!;
  });

  it("newest first: the pages keep to the version the first page came from", async () => {
    const local = await startServer(older);
    try {
      const query = `days=3650&kind=${ALL_KINDS}&limit=400`;
      const alone = await allPages(local, query);
      local.views.swap(older);
      const across = await allPages(local, query, (n) => {
        if (n === 3) local.views.swap(view); // 2026-06-01 is published while the reader is on page 3
      });
      expect(storedRows(across.rows)).toEqual(storedRows(alone.rows));
      expect(across.rows.every((c) => c.occurredAt <= runs[10]!)).toBe(true);
    } finally {
      await local.close();
    }
  });

  it("since: the pages run on into the new version's changes, none twice, none missing", async () => {
    const local = await startServer(older);
    try {
      const since = runs[8]!;
      const across = await allPages(local, `since=${since}&kind=${ALL_KINDS}&limit=400`, (n) => {
        if (n === 2) local.views.swap(view);
      });
      expect(storedRows(across.rows)).toEqual(changes.filter((c) => c.publishedIn > since).map(storedChange));
    } finally {
      await local.close();
    }
  });
});

describe("the new parameters keep D21–D24 (ETag, 304, Cache-Control, rate limit)", () => {
  it("same headers as /changes; 304 on If-None-Match; a 400 keeps its ETag and never turns 304", async () => {
    const local = await startServer(view, { rateLimitPerMinute: 1000 });
    try {
      const plain = await local.get("/api/v1/changes");
      const first = await page(local, `since=${runs[9]}&limit=3`);
      for (const query of [`since=${runs[9]}&limit=3`, `since=${runs[9]}&limit=3&cursor=${first.meta.nextCursor}`]) {
        const res = await local.get(`/api/v1/changes?${query}`);
        expect(res.status).toBe(200);
        for (const h of ["cache-control", "x-dataset-version", "access-control-allow-origin", "content-type", "vary"])
          expect(res.headers.get(h), h).toBe(plain.headers.get(h));
        expect(res.headers.get("ratelimit-limit")).toBe("1000");
        const etag = res.headers.get("etag")!;
        expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
        expect(etag).not.toBe(plain.headers.get("etag"));
        const again = await local.get(`/api/v1/changes?${query}`, { "if-none-match": etag });
        expect(again.status).toBe(304);
        expect(again.headers.get("etag")).toBe(etag);
        expect(again.headers.get("cache-control")).toBe(plain.headers.get("cache-control"));
        expect(await again.text()).toBe("");
      }
      const bad = await local.get("/api/v1/changes?since=soon");
      const badEtag = bad.headers.get("etag")!;
      expect(bad.status).toBe(400);
      expect(bad.headers.get("cache-control")).toBe("public, max-age=60");
      expect(bad.headers.get("content-type")).toBe("application/problem+json");
      expect((await local.get("/api/v1/changes?since=soon", { "if-none-match": badEtag })).status).toBe(400);
    } finally {
      await local.close();
    }
  });

  it("each page counts against the rate limit; over it, a 429", async () => {
    const local = await startServer(view, { rateLimitPerMinute: 3 });
    try {
      const seen: [number, string | null][] = [];
      let cursor = "";
      for (let i = 0; i < 4; i++) {
        const res = await local.get(`/api/v1/changes?since=${runs[9]}&limit=2${cursor ? `&cursor=${cursor}` : ""}`);
        seen.push([res.status, res.headers.get("ratelimit-remaining")]);
        if (res.status === 200) cursor = ((await res.json()) as Page).meta.nextCursor ?? "";
      }
      expect(seen).toEqual([
        [200, "2"],
        [200, "1"],
        [200, "0"],
        [429, "0"],
      ]);
    } finally {
      await local.close();
    }
  });
});
