import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { replayCache, replayKey, startReplayBuild } from "./replay-cache.js";

/**
 * Global setup of the projects that read the cached replay of the bundled snapshots (T152, T237):
 * gives their suites the replay's key. The `api` project, every file of which reads it, starts
 * building it in a child process at once when this checkout has none for the current code and data,
 * and returns, so the suites that need no replay run while it builds; a suite that reads it waits
 * for it, and starts the build itself when nobody has (`test/harness.ts`: a run of end-to-end files alone).
 * It also gives them a folder of the run for the live suites' seeds (`test/live-support.ts`, T384),
 * removed when the run ends.
 */
export default function setup(project: TestProject) {
  const cache = replayCache(replayKey());
  project.provide("replayKey", cache.key);
  const builder = project.name === "api" ? startReplayBuild(cache) : null;
  const seedRoot = mkdtempSync(join(tmpdir(), "tariff-seeds-"));
  project.provide("seedRoot", seedRoot);
  return () => {
    rmSync(seedRoot, { recursive: true, force: true });
    // A run cut short stops its build; the next run starts over (the lock's pid is gone).
    if (builder && builder.exitCode === null && builder.signalCode === null) builder.kill("SIGTERM");
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    /** Key of the cached replay this run reads (`test/replay-cache.ts`). */
    replayKey: string;
    /** The run's folder of the live suites' seeds, one per test worker and dates (T384). */
    seedRoot: string;
  }
}
