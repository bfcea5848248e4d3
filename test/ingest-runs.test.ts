import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ingestSnapshots } from "../src/ingest/run-ingest.js";
import { SOURCES } from "../src/sources/registry.js";
import type { CatalogueStore } from "../src/store/catalogue-store.js";
import { type FreshStore, openFreshStore, STORE_KINDS } from "./store-backends.js";

// Ingestion runs over real snapshot folders copied from data/upstream into a temp layout, against
// every store back-end (issue 5 §1): a real SQLite file and a real PostgreSQL database.
describe.each(STORE_KINDS)("store: %s", (kind) => {
  let dir: string;
  let store: CatalogueStore;
  let fresh: FreshStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "tariff-ingest-"));
    fresh = await openFreshStore(kind);
    store = fresh.store;
  });
  afterEach(async () => {
    await fresh.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  function copySnapshot(root: string, source: string, date: string) {
    cpSync(join("data/upstream", source, date), join(root, source, date), { recursive: true });
  }

  describe("tariff ingest --snapshots (issue 2 §6)", () => {
    it("runs one run per date in date order and skips dates not newer than the store's latest run", async () => {
      const root = join(dir, "snap");
      copySnapshot(root, "models-dev", "2025-07-01");
      copySnapshot(root, "genai-prices", "2025-07-01");
      copySnapshot(root, "models-dev", "2025-08-01");
      const first = await ingestSnapshots(store, root, SOURCES);
      expect(first.map((d) => d.run.datasetVersion)).toEqual(["2025-07-01T00:00:00.000Z", "2025-08-01T00:00:00.000Z"]);

      // New snapshots are added to an existing store: only the newer date runs.
      copySnapshot(root, "models-dev", "2025-09-01");
      const skipped: string[] = [];
      const second = await ingestSnapshots(store, root, SOURCES, {
        skipped: (date) => skipped.push(date),
        published: () => {},
        sourceFailed: () => {},
      });
      expect(skipped).toEqual(["2025-07-01", "2025-08-01"]);
      expect(second.map((d) => d.run.datasetVersion)).toEqual(["2025-09-01T00:00:00.000Z"]);
      expect((await store.listRuns()).length).toBe(3);
    });

    it("a source missing from a date did not run: its last listings are carried, stale, and its health keeps the last success", async () => {
      const root = join(dir, "snap");
      copySnapshot(root, "models-dev", "2025-07-01");
      copySnapshot(root, "genai-prices", "2025-07-01");
      copySnapshot(root, "models-dev", "2025-08-01");
      const [, august] = await ingestSnapshots(store, root, SOURCES);
      const genai = august!.sources.find((s) => s.source === "genai-prices");
      expect(genai).toMatchObject({ lastSuccessAt: "2025-07-01T00:00:00.000Z", lastError: null });
      const carriedOnly = august!.prices.filter((p) => p.sources.length === 1 && p.sources[0] === "genai-prices");
      expect(carriedOnly.length).toBeGreaterThan(0);
      for (const p of carriedOnly) expect(p.staleSince).toBe("2025-08-01T00:00:00.000Z");
    });

    it("a payload that does not parse fails that source only: the run is partial and names the error (D4, D9)", async () => {
      const root = join(dir, "snap");
      copySnapshot(root, "models-dev", "2025-07-01");
      // Invented: real data has no broken payload, so one is written here.
      mkdirSync(join(root, "genai-prices", "2025-07-01"), { recursive: true });
      writeFileSync(join(root, "genai-prices", "2025-07-01", "data.json.gz"), gzipSync('{"not": "an array"'));
      const [run] = await ingestSnapshots(store, root, SOURCES);
      expect(run?.run.status).toBe("partial");
      expect(run?.run.summary.failed["genai-prices"]).toMatch(/data\.json/);
      const health = run?.sources.find((s) => s.source === "genai-prices");
      expect(health?.lastError?.message).toMatch(/data\.json/);
      expect(health?.lastSuccessAt).toBeNull();
      expect(run?.prices.length).toBeGreaterThan(100);
      expect((await store.latestRun())?.status).toBe("partial");
    });

    it("publishing is one transaction: a run that fails while writing publishes nothing", async () => {
      const root = join(dir, "snap");
      copySnapshot(root, "models-dev", "2025-07-01");
      const [run] = await ingestSnapshots(store, root, SOURCES);
      const broken = {
        ...run!,
        run: { ...run!.run, id: "run-broken", datasetVersion: "2025-08-01T00:00:00.000Z" },
        // A duplicate provider violates the primary key after the run row and some rows are written.
        providers: [...run!.providers, run!.providers[0]!],
      };
      await expect(store.publish(broken, [])).rejects.toThrow();
      expect((await store.listRuns()).map((r) => r.id)).toEqual([run!.run.id]);
      expect(await store.loadDataset("2025-08-01T00:00:00.000Z")).toBeNull();
      const current = await store.loadDataset();
      expect(current?.prices.length).toBe(run!.prices.length);
    });

    it("every dataset version is kept and loads back exactly as published", async () => {
      const root = join(dir, "snap");
      copySnapshot(root, "models-dev", "2025-07-01");
      copySnapshot(root, "models-dev", "2025-08-01");
      const [july, august] = await ingestSnapshots(store, root, SOURCES);
      expect(await store.loadDataset(july!.run.datasetVersion)).toEqual(july);
      expect(await store.loadDataset()).toEqual(august);
    });
  });

  describe("change records and history across runs (issue 3)", () => {
    it("the first run of an empty store records no changes; later runs record the differences", async () => {
      const root = join(dir, "snap");
      copySnapshot(root, "models-dev", "2025-07-01");
      copySnapshot(root, "models-dev", "2025-08-01");
      await ingestSnapshots(store, root, SOURCES);
      const changes = await store.loadChanges();
      expect(changes.length).toBeGreaterThan(0);
      expect(changes.every((c) => c.occurredAt === "2025-08-01T00:00:00.000Z")).toBe(true);
    });

    it("re-running ingestion of the same snapshot adds no change records and no history points (idempotent)", async () => {
      const root = join(dir, "snap");
      copySnapshot(root, "models-dev", "2025-07-01");
      copySnapshot(root, "models-dev", "2025-08-01");
      await ingestSnapshots(store, root, SOURCES);
      const before = { changes: (await store.loadChanges()).length, points: (await store.loadHistory()).length };
      expect(await ingestSnapshots(store, root, SOURCES)).toEqual([]);
      // The same payload again under a newer date: a run happens, nothing changed.
      cpSync(join("data/upstream", "models-dev", "2025-08-01"), join(root, "models-dev", "2025-08-15"), {
        recursive: true,
      });
      const graced = new Set(
        (await store.loadDataset())!.prices
          .filter((p) => !p.observations.some((o) => o.fresh))
          .map((p) => `${p.modelId}|${p.channel}|${p.seller}|${p.label}`),
      );
      const [again] = await ingestSnapshots(store, root, SOURCES);
      expect(again?.run.datasetVersion).toBe("2025-08-15T00:00:00.000Z");
      // The only records: prices graced on 2025-08-01 after leaving every source, now removed in the
      // second run without them (T85); nothing else moved and no history point was added.
      const added = (await store.loadChanges()).slice(before.changes);
      for (const c of added) {
        expect(c.kind).toBe("price_removed");
        expect(graced.has(`${c.modelId}|${c.channel}|${c.seller}|${c.label}`)).toBe(true);
      }
      expect((await store.loadHistory()).length).toBe(before.points);
    });

    it("staleSince is set in the first run where no source re-confirms and cleared when one does (D8)", async () => {
      const root = join(dir, "snap");
      copySnapshot(root, "models-dev", "2025-07-01");
      copySnapshot(root, "genai-prices", "2025-07-01");
      copySnapshot(root, "models-dev", "2025-08-01");
      copySnapshot(root, "models-dev", "2025-09-01");
      copySnapshot(root, "genai-prices", "2025-09-01");
      const [, august, september] = await ingestSnapshots(store, root, SOURCES);
      const onlyGenai = august!.prices.find((p) => p.sources.length === 1 && p.sources[0] === "genai-prices");
      expect(onlyGenai?.staleSince).toBe("2025-08-01T00:00:00.000Z");
      const same = september!.prices.find(
        (p) => p.modelId === onlyGenai!.modelId && p.channel === onlyGenai!.channel && p.label === onlyGenai!.label,
      );
      expect(same?.staleSince).toBeNull();
    });
  });
});
