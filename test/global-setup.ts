import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { ingestSnapshots } from "../src/ingest/run-ingest.js";
import { SOURCES } from "../src/sources/registry.js";
import { openSqliteStore } from "../src/store/open-store.js";

/**
 * Replays every bundled snapshot once into a real SQLite file; the integration suites read it.
 * This is the same replay `npm start` does on an empty store.
 */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), "tariff-test-"));
  const path = join(dir, "replay.db");
  const store = await openSqliteStore(path);
  await ingestSnapshots(store, "data/upstream", SOURCES);
  await store.close();
  project.provide("replayDbPath", path);
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    replayDbPath: string;
  }
}
