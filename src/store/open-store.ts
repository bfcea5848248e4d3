import type { CatalogueStore } from "./catalogue-store.js";
import { openPostgresStore } from "./postgres/open-postgres-store.js";
import { openSqliteStore } from "./sqlite/open-sqlite-store.js";

export { openPostgresStore } from "./postgres/open-postgres-store.js";
export { openSqliteStore } from "./sqlite/open-sqlite-store.js";

/** Where the catalogue lives: a PostgreSQL URL when scaled out, else the embedded SQLite file. */
export interface StoreLocation {
  readonly databaseUrl?: string | undefined;
  readonly databasePath: string;
}

/**
 * Opens (and migrates) the store: PostgreSQL when `databaseUrl` is a `postgres://` or
 * `postgresql://` URL, otherwise SQLite at `databasePath` (issue 5 §1).
 */
export function openStore(location: StoreLocation): Promise<CatalogueStore> {
  const url = location.databaseUrl;
  if (url && /^postgres(ql)?:\/\//.test(url)) return openPostgresStore(url);
  return openSqliteStore(location.databasePath);
}
