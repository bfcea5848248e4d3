import { cpSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ingestSnapshots } from "../src/ingest/run-ingest.js";
import { SOURCES } from "../src/sources/registry.js";
import { IngestLockedError } from "../src/store/catalogue-store.js";
import { openPostgresStore, openStore } from "../src/store/open-store.js";
import { type FreshStore, openFreshStore, STORE_KINDS } from "./store-backends.js";

// Issue 5 store features against both back-ends over real connections: ingest lock, version
// propagation and retention.
describe.each(STORE_KINDS)("store: %s", (kind) => {
  let fresh: FreshStore;
  const root = () => join(fresh.dataDir, "snap");
  const copy = (source: string, date: string) =>
    cpSync(join("data/upstream", source, date), join(root(), source, date), { recursive: true });
  const second = () => openStore({ databaseUrl: fresh.databaseUrl, databasePath: join(fresh.dataDir, "tariff.db") });

  beforeEach(async () => {
    fresh = await openFreshStore(kind);
  });
  afterEach(async () => {
    await fresh.cleanup();
  });

  it("one ingester at a time: a second one fails at once without waiting, or waits its turn", async () => {
    const other = await second();
    try {
      // The first ingester holds the lock until released; no sleep: it says when it has the lock.
      let release!: () => void;
      let locked!: () => void;
      const holding = new Promise<void>((r) => (locked = r));
      const held = fresh.store.withIngestLock(
        () =>
          new Promise<void>((r) => {
            release = r;
            locked();
          }),
      );
      await holding;
      await expect(other.withIngestLock(async () => "ran", { wait: false })).rejects.toBeInstanceOf(IngestLockedError);
      const waiting = other.withIngestLock(async () => "ran after");
      release();
      await held;
      await expect(waiting).resolves.toBe("ran after");
    } finally {
      await other.close();
    }
  });

  it("two ingesters of the same snapshots under the lock publish exactly one version per date", async () => {
    copy("models-dev", "2025-07-01");
    copy("models-dev", "2025-08-01");
    const other = await second();
    try {
      const run = (s: typeof other) => s.withIngestLock(() => ingestSnapshots(s, root(), SOURCES));
      const [a, b] = await Promise.all([run(fresh.store), run(other)]);
      expect(a.length + b.length).toBe(2);
      expect((await fresh.store.listRuns()).map((r) => r.datasetVersion.slice(0, 10))).toEqual([
        "2025-07-01",
        "2025-08-01",
      ]);
    } finally {
      await other.close();
    }
  });

  it("another process hears of a new version (NOTIFY on PostgreSQL, polling on SQLite)", async () => {
    copy("models-dev", "2025-07-01");
    await ingestSnapshots(fresh.store, root(), SOURCES);
    const watcher = await second();
    const heard: string[] = [];
    const stop = await watcher.watchVersions((v) => heard.push(v), { pollMs: kind === "sqlite" ? 100 : 60_000 });
    try {
      copy("models-dev", "2025-08-01");
      await ingestSnapshots(fresh.store, root(), SOURCES);
      for (let i = 0; i < 50 && heard.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(heard).toEqual(["2025-08-01T00:00:00.000Z"]);
    } finally {
      await stop();
      await watcher.close();
    }
  });

  it("keeps the newest RETAIN_VERSIONS dataset views; runs, changes and history are never pruned", async () => {
    copy("models-dev", "2025-07-01");
    copy("models-dev", "2025-08-01");
    copy("models-dev", "2025-09-01");
    await ingestSnapshots(fresh.store, root(), SOURCES);
    const changes = (await fresh.store.loadChanges()).length;
    const points = (await fresh.store.loadHistory()).length;
    expect(await fresh.store.pruneVersions(2)).toEqual(["2025-07-01T00:00:00.000Z"]);
    expect(await fresh.store.loadDataset("2025-07-01T00:00:00.000Z")).toBeNull();
    expect((await fresh.store.loadDataset("2025-08-01T00:00:00.000Z"))?.models.length).toBeGreaterThan(0);
    expect((await fresh.store.loadDataset())?.run.datasetVersion).toBe("2025-09-01T00:00:00.000Z");
    expect((await fresh.store.listRuns()).length).toBe(3);
    expect((await fresh.store.loadChanges()).length).toBe(changes);
    expect((await fresh.store.loadHistory()).length).toBe(points);
    expect(await fresh.store.pruneVersions(2)).toEqual([]);
  });
});

// Issue 33 §5 Must show, T263: "PostgreSQL restarted under two workers: the next version reaches
// both in under 5 s". A restart ends every connection; so does `pg_terminate_backend`, which is
// what this test does to the two LISTEN connections (of this test's own database only), so the
// server other sessions' tests use keeps running. Polling is set to 10 minutes: only a renewed
// LISTEN can deliver the version.
describe("store: postgres, LISTEN connections ended under two watchers", () => {
  let fresh: FreshStore;
  beforeEach(async () => {
    fresh = await openFreshStore("postgres");
  });
  afterEach(async () => {
    await fresh.cleanup();
  });

  it("both LISTEN again with backoff, and the next version reaches both in under 5 s", async () => {
    const root = join(fresh.dataDir, "snap");
    const copy = (date: string) =>
      cpSync(join("data/upstream/models-dev", date), join(root, "models-dev", date), { recursive: true });
    copy("2025-07-01");
    await ingestSnapshots(fresh.store, root, SOURCES);
    const url = fresh.databaseUrl!;
    const database = new URL(url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const listeners = async () =>
      (
        await admin.query<{ pid: number }>(
          "select pid from pg_stat_activity where datname = $1 and query ilike 'listen %' and pid <> pg_backend_pid()",
          [database],
        )
      ).rows.map((r) => r.pid);
    const watchers = [await openPostgresStore(url), await openPostgresStore(url)];
    const heard: string[][] = [[], []];
    const stops = await Promise.all(
      watchers.map((w, i) => w.watchVersions((v) => heard[i]!.push(v), { pollMs: 600_000 })),
    );
    try {
      await vi.waitFor(async () => expect(await listeners()).toHaveLength(2), { timeout: 10_000, interval: 50 });
      const before = await listeners();
      await admin.query("select pg_terminate_backend(pid) from unnest($1::int[]) as pid", [before]);
      // Both LISTEN again on new connections (the backoff starts at 0.1 s).
      await vi.waitFor(
        async () => {
          const now = await listeners();
          expect(now).toHaveLength(2);
          expect(now.some((pid) => before.includes(pid))).toBe(false);
        },
        { timeout: 10_000, interval: 50 },
      );
      copy("2025-08-01");
      await ingestSnapshots(fresh.store, root, SOURCES);
      await vi.waitFor(() => expect(heard).toEqual([["2025-08-01T00:00:00.000Z"], ["2025-08-01T00:00:00.000Z"]]), {
        timeout: 5_000,
        interval: 20,
      });
    } finally {
      await Promise.all(stops.map((stop) => stop()));
      await Promise.all(watchers.map((w) => w.close()));
      await admin.end();
    }
  });
});
