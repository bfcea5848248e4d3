import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ingestSnapshots } from "../src/ingest/run-ingest.js";
import { SOURCES } from "../src/sources/registry.js";
import type { CatalogueStore } from "../src/store/catalogue-store.js";
import { sqliteStoreOver } from "../src/store/sqlite/open-sqlite-store.js";
import { StoreFullError } from "../src/store/write-errors.js";

// Issue 33 §5, T265: "a full disk is misreported as 'cannot rollback – no transaction is active'".
// The disk is SQLite's own limit: `max_page_count` on the store's connection, set a few pages above
// what the migrated, empty store holds (a real SQLITE_FULL from SQLite, without a filesystem to
// fill). The run is a real replay of one recorded models.dev payload.
describe("a full disk is named as such (issue 33 §5, T265)", () => {
  let dir: string;
  let database: SQLite.Database;
  let store: CatalogueStore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "tariff-full-"));
    cpSync("data/upstream/models-dev/2025-07-01", join(dir, "snap", "models-dev", "2025-07-01"), { recursive: true });
    database = new SQLite(join(dir, "tariff.db"));
    database.pragma("journal_mode = WAL");
    store = await sqliteStoreOver(database, join(dir, "tariff.db"));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a publish that fills the store fails as 'disk full', and publishes nothing", async () => {
    const pages = database.pragma("page_count", { simple: true }) as number;
    database.pragma(`max_page_count = ${pages + 4}`);
    const failed = ingestSnapshots(store, join(dir, "snap"), SOURCES);
    await expect(failed).rejects.toBeInstanceOf(StoreFullError);
    await expect(failed).rejects.toThrow(
      /^disk full: dataset 2025-07-01T00:00:00\.000Z is not published \(SQLITE_FULL: database or disk is full\)$/,
    );
    expect(await store.listRuns()).toEqual([]);
    // With room again, the same run publishes.
    database.pragma("max_page_count = 1073741823");
    expect(await ingestSnapshots(store, join(dir, "snap"), SOURCES)).toHaveLength(1);
  });
});
