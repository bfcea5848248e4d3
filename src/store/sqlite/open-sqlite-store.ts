import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import lockfile from "proper-lockfile";
import { type CatalogueStore, IngestLockedError } from "../catalogue-store.js";
import { KyselyCatalogueStore } from "../kysely-store.js";
import type { StoreSchema } from "../schema.js";
import type { StoreBackend } from "../store-backend.js";

/**
 * Opens the embedded SQLite store at `path` (created with its folder when missing), migrated.
 * WAL mode lets API processes read while an ingester writes. The ingest lock is a lock file
 * beside the database (proper-lockfile), which a killed ingester leaves stale and the next one
 * takes over after 10 s.
 */
export async function openSqliteStore(path: string): Promise<CatalogueStore> {
  const inMemory = path === ":memory:";
  if (!inMemory) mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  database.pragma("busy_timeout = 10000");
  const store = new KyselyCatalogueStore(
    new Kysely<StoreSchema>({ dialect: new SqliteDialect({ database }) }),
    sqliteBackend(inMemory ? null : path),
  );
  await store.migrate();
  return store;
}

function sqliteBackend(path: string | null): StoreBackend {
  return {
    async withLock(fn, wait) {
      if (!path) return fn();
      let release: () => Promise<void>;
      try {
        release = await lockfile.lock(path, {
          lockfilePath: `${path}.ingest-lock`,
          stale: 10_000,
          realpath: false,
          retries: wait ? { retries: 600, minTimeout: 200, maxTimeout: 1000 } : 0,
        });
      } catch (error) {
        if ((error as { code?: string }).code === "ELOCKED")
          throw new IngestLockedError(`another ingester holds the lock on ${path}`);
        throw error;
      }
      try {
        return await fn();
      } finally {
        await release();
      }
    },
    async afterPublish() {},
    async listen() {
      return async () => {};
    },
    defaultPollMs: 2000,
    async close() {},
  };
}
