import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { ingestSnapshots } from "../src/ingest/run-ingest.js";
import { SOURCES } from "../src/sources/registry.js";
import { openPostgresStore, openSqliteStore } from "../src/store/open-store.js";
import { createPgDatabase } from "./store-backends.js";

/**
 * Replays every bundled snapshot once into a real store; the integration suites read it. This is
 * the same replay `npm start` does on an empty store. The `postgres` project (and any run with
 * DATABASE_URL set) replays into a fresh PostgreSQL database instead of a SQLite file, so the HTTP
 * suites run unchanged on both back-ends (issue 5).
 */
export default async function setup(project: TestProject) {
  // `bin/tariff.js` (spawned by the CLI, MCP stdio and scale-out suites, all in the sqlite project)
  // runs the compiled build/ when there is one, as `npm start` does (T133): compile the sources
  // under test first, so no suite runs a build older than the code.
  if (project.name !== "postgres")
    execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json", "--noCheck"], {
      stdio: "inherit",
    });
  const dir = mkdtempSync(join(tmpdir(), "tariff-test-"));
  const path = join(dir, "replay.db");
  if (project.name !== "postgres") {
    const sqlite = await openSqliteStore(path);
    await ingestSnapshots(sqlite, "data/upstream", SOURCES);
    await sqlite.close();
  }
  project.provide("replayDbPath", project.name !== "postgres" ? path : "");
  let drop = async () => {};
  if (project.name === "postgres" || process.env.DATABASE_URL) {
    const db = await createPgDatabase();
    const store = await openPostgresStore(db.url);
    await ingestSnapshots(store, "data/upstream", SOURCES);
    await store.close();
    project.provide("replayDatabaseUrl", db.url);
    drop = db.drop;
  } else project.provide("replayDatabaseUrl", "");
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    await drop();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The SQLite file of the replay ("" in the postgres project); some suites copy it. */
    replayDbPath: string;
    /** The PostgreSQL database of the replay, or "" when the suites read SQLite. */
    replayDatabaseUrl: string;
  }
}
