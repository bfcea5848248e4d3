import { Kysely, PostgresDialect, sql } from "kysely";
import pRetry from "p-retry";
import pg from "pg";
import { type CatalogueStore, IngestLockedError, VERSION_CHANNEL } from "../catalogue-store.js";
import { KyselyCatalogueStore } from "../kysely-store.js";
import type { StoreSchema } from "../schema.js";
import type { StoreBackend } from "../store-backend.js";

/** Advisory lock key of the ingester (an arbitrary constant: "tariff" in ASCII). */
export const INGEST_LOCK_KEY = 0x746172696666;

/** Transaction lock key of a publish (T260): publishes check the latest version one at a time. */
const PUBLISH_LOCK_KEY = INGEST_LOCK_KEY + 1;

/**
 * Opens the PostgreSQL store at `url` through Kysely and the `pg` driver, migrated (the same
 * migrations as SQLite). One ingester at a time holds a session advisory lock; each publish
 * NOTIFYs `tariff_dataset_version` so API processes swap their view at once.
 */
export async function openPostgresStore(url: string): Promise<CatalogueStore> {
  const pool = new pg.Pool({ connectionString: url, max: 5 });
  // An idle client the server drops (restart, failover) must not crash the process; the pool
  // replaces it on the next query.
  pool.on("error", () => {});
  const store = new KyselyCatalogueStore(
    new Kysely<StoreSchema>({ dialect: new PostgresDialect({ pool }) }),
    postgresBackend(url, pool),
  );
  try {
    await store.migrate();
  } catch (error) {
    // A server that cannot be reached leaves no pool behind (T199: the next attempt opens anew).
    await store.close().catch(() => {});
    throw error;
  }
  return store;
}

function postgresBackend(url: string, pool: pg.Pool): StoreBackend {
  const listeners: { stop(): Promise<void> }[] = [];
  return {
    async withLock(fn, wait) {
      // A session lock lives on one connection: hold a dedicated client for the whole run.
      const client = await pool.connect();
      try {
        if (wait) await client.query("select pg_advisory_lock($1)", [INGEST_LOCK_KEY]);
        else {
          const { rows } = await client.query<{ locked: boolean }>("select pg_try_advisory_lock($1) as locked", [
            INGEST_LOCK_KEY,
          ]);
          if (!rows[0]?.locked) throw new IngestLockedError("another ingester holds the PostgreSQL advisory lock");
        }
        try {
          return await fn();
        } finally {
          await client.query("select pg_advisory_unlock($1)", [INGEST_LOCK_KEY]);
        }
      } finally {
        client.release();
      }
    },
    async beginPublish(trx) {
      // Another key than the session lock's: the ingester holds that one on another connection.
      await sql`select pg_advisory_xact_lock(${PUBLISH_LOCK_KEY})`.execute(trx);
    },
    async afterPublish(trx, version) {
      await sql`select pg_notify(${VERSION_CHANNEL}, ${version})`.execute(trx);
    },
    async listen(onVersion) {
      const listener = await listenWithReconnect(url, onVersion);
      listeners.push(listener);
      return () => listener.stop();
    },
    defaultPollMs: 30_000,
    async close() {
      await Promise.all(listeners.map((l) => l.stop()));
    },
  };
}

/** Backoff of a LISTEN connection's reconnects (T263): 0.1 s first, doubling, at most 2 s apart. */
const RELISTEN = { retries: Number.POSITIVE_INFINITY, minTimeout: 100, maxTimeout: 2000, factor: 2 } as const;

/**
 * LISTENs on {@link VERSION_CHANNEL} over a connection of its own, and LISTENs again whenever that
 * connection ends (issue 33 §5, T263: a PostgreSQL restart, a failover, `pg_terminate_backend`),
 * reconnecting with backoff (p-retry) until it is stopped. After each reconnect `onVersion("")` asks
 * the caller to look at the store itself, as a NOTIFY may have been sent while nobody listened.
 * @throws Error when the first connection fails (the caller polls instead)
 */
async function listenWithReconnect(
  url: string,
  onVersion: (version: string) => void,
): Promise<{ stop(): Promise<void> }> {
  const stopping = new AbortController();
  let current: pg.Client | null = null;
  const connect = async (): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString: url });
    client.on("error", () => {}); // the end that follows reconnects
    try {
      await client.connect();
      client.on("notification", (msg) => {
        if (msg.channel === VERSION_CHANNEL && msg.payload) onVersion(msg.payload);
      });
      await client.query(`listen ${VERSION_CHANNEL}`);
      return client;
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
  };
  const hold = (client: pg.Client) => {
    current = client;
    client.once("end", () => {
      if (current !== client || stopping.signal.aborted) return;
      current = null;
      pRetry(connect, { ...RELISTEN, signal: stopping.signal }).then(
        (next) => {
          if (stopping.signal.aborted) {
            next.end().catch(() => {});
            return;
          }
          hold(next);
          onVersion("");
        },
        () => {}, // stopped while reconnecting
      );
    });
  };
  hold(await connect());
  return {
    async stop() {
      stopping.abort();
      const client = current;
      current = null;
      await client?.end().catch(() => {});
    },
  };
}
