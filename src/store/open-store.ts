import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import type { CatalogueStore } from "./catalogue-store.js";
import { KyselyCatalogueStore } from "./kysely-store.js";
import type { StoreSchema } from "./schema.js";

/**
 * Opens the embedded SQLite store at `path` (created with its folder when missing), migrated.
 * WAL mode lets API processes read while an ingester writes.
 */
export async function openSqliteStore(path: string): Promise<CatalogueStore> {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  database.pragma("busy_timeout = 10000");
  const store = new KyselyCatalogueStore(new Kysely<StoreSchema>({ dialect: new SqliteDialect({ database }) }));
  await store.migrate();
  return store;
}
