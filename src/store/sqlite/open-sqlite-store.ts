import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import type { CatalogueStore } from "../catalogue-store.js";
import { KyselyCatalogueStore } from "../kysely-store.js";
import type { StoreSchema } from "../schema.js";
import type { StoreBackend } from "../store-backend.js";
import { takeIngestLock } from "./ingest-lock.js";

/**
 * Opens the embedded SQLite store at `path` (created with its folder when missing), migrated.
 * WAL mode lets API processes read while an ingester writes. The ingest lock is an OS-level lock
 * on a file beside the database (`ingest-lock.ts`, T260): held however long a run computes, and
 * dropped by the operating system when its process ends.
 */
export async function openSqliteStore(path: string): Promise<CatalogueStore> {
  const inMemory = path === ":memory:";
  if (!inMemory) mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  database.pragma("busy_timeout = 10000");
  return sqliteStoreOver(database, inMemory ? null : path);
}

/**
 * The store over an open better-sqlite3 connection (its pragmas as the caller set them), migrated;
 * `path` locates the ingest lock (null: no lock, an in-memory database). A test sets
 * `max_page_count` on its connection to fill the store (T265).
 */
export async function sqliteStoreOver(database: SQLite.Database, path: string | null): Promise<CatalogueStore> {
  const store = new KyselyCatalogueStore(
    new Kysely<StoreSchema>({ dialect: new SqliteDialect({ database }) }),
    sqliteBackend(path),
  );
  await store.migrate();
  return store;
}

function sqliteBackend(path: string | null): StoreBackend {
  return {
    async withLock(fn, wait) {
      if (!path) return fn();
      const lock = await takeIngestLock(path, wait);
      try {
        return await fn();
      } finally {
        lock.release();
      }
    },
    async beginPublish() {},
    async afterPublish() {},
    async listen() {
      return async () => {};
    },
    defaultPollMs: 2000,
    async close() {},
  };
}
