import type { CatalogueStore } from "./catalogue-store.js";

/** Where the catalogue lives: a PostgreSQL URL when scaled out, else the embedded SQLite file. */
export interface StoreLocation {
  readonly databaseUrl?: string | undefined;
  readonly databasePath: string;
}

/**
 * Opens (and migrates) the PostgreSQL store at `url` (issue 5). The driver (pg) is loaded on the
 * first call, so a SQLite installation never loads it (issue 16, T134).
 */
export async function openPostgresStore(url: string): Promise<CatalogueStore> {
  const { openPostgresStore: open } = await import("./postgres/open-postgres-store.js");
  return open(url);
}

/** Opens (and migrates) the embedded SQLite store at `path`; its modules load on the first call. */
export async function openSqliteStore(path: string): Promise<CatalogueStore> {
  const { openSqliteStore: open } = await import("./sqlite/open-sqlite-store.js");
  return open(path);
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
