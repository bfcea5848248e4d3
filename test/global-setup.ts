import type { TestProject } from "vitest/node";
import { replayCache, replayKey, startReplayBuild } from "./replay-cache.js";

/**
 * Global setup of the `replay` project (T152): starts building the cached replay of the bundled
 * snapshots in a child process when this checkout has none for the current code and data, and
 * returns at once, so the suites that need no replay run while it builds; a suite that reads it
 * waits for it (`test/harness.ts`).
 */
export default function setup(project: TestProject) {
  const cache = replayCache(replayKey());
  const builder = startReplayBuild(cache);
  project.provide("replayKey", cache.key);
  return () => {
    // A run cut short stops its build; the next run starts over (the lock's pid is gone).
    if (builder && builder.exitCode === null && builder.signalCode === null) builder.kill("SIGTERM");
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    /** Key of the cached replay this run reads (`test/replay-cache.ts`). */
    replayKey: string;
  }
}
