import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { CatalogueStore } from "../src/store/catalogue-store.js";
import { openPostgresStore, openSqliteStore } from "../src/store/open-store.js";
import { selectedStores } from "./test-stores.js";

/**
 * The store back-ends every store test runs against (issue 5 §1: parameterized, not copied), narrowed
 * by `TARIFF_TEST_STORES` (T273, `test/test-stores.ts`).
 * PostgreSQL is the machine's real server (127.0.0.1:5432, user postgres, trust auth); when it is
 * unreachable these tests fail, they never skip.
 */
export const STORE_KINDS: readonly StoreKind[] = selectedStores().filter(
  (s): s is StoreKind => s === "sqlite" || s === "postgres",
);
export type StoreKind = "sqlite" | "postgres";

/** Admin URL of the test PostgreSQL server (TEST_PG_ADMIN_URL overrides). */
export const PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** A fresh, empty store of one kind with its location and a cleanup that removes everything. */
export interface FreshStore {
  readonly store: CatalogueStore;
  /** SQLite file path or PostgreSQL URL: what DATA_DIR/DATABASE_URL must point at for a child process. */
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  cleanup(): Promise<void>;
}

/** Creates a new PostgreSQL database and returns its URL. */
export async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `tariff_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
  return {
    url,
    async drop() {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export async function openFreshStore(kind: StoreKind): Promise<FreshStore> {
  const dataDir = mkdtempSync(join(tmpdir(), `tariff-${kind}-`));
  if (kind === "sqlite") {
    const store = await openSqliteStore(join(dataDir, "tariff.db"));
    return {
      store,
      databaseUrl: undefined,
      dataDir,
      async cleanup() {
        await store.close().catch(() => {});
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const db = await createPgDatabase();
  const store = await openPostgresStore(db.url);
  return {
    store,
    databaseUrl: db.url,
    dataDir,
    async cleanup() {
      await store.close().catch(() => {});
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
