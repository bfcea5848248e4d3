import { BaseSequencer, type TestSpecification } from "vitest/node";
import { replayCache, replayKey, replayReady } from "./replay-key.js";

/**
 * Files that spawn processes working for tens of seconds (a first-start replay, CLI runs killed at
 * each stage, two API processes, Chromium): started first, so none is left running alone at the end.
 */
const LONG_FILES = [
  "test/mcp-stdio-outside.test.ts",
  "test/live-crash.test.ts",
  "test/scale-out.test.ts",
  "test/ingest-runs.test.ts",
  "test/cli.test.ts",
  "test/web-e2e.test.ts",
  "test/live-sources-truth.test.ts",
  // 73 lines of 16 page checks (35 s): by size, without a recorded duration (a new clone), it went last.
  "test/web-layout.test.ts",
  "test/store-parity.test.ts",
];

/** The end-to-end files that read the replay (every file of the `api` project does). */
const E2E_REPLAY_READERS = [
  "test/browser-clients.test.ts",
  "test/cli.test.ts",
  "test/mcp-stdio.test.ts",
  "test/store-growth.test.ts",
  "test/store-migration.test.ts",
  "test/store-parity.test.ts",
  "test/web-e2e.test.ts",
  "test/web-mount.test.ts",
];

const endsWithAny = (f: TestSpecification, list: readonly string[]) => list.some((l) => f.moduleId.endsWith(l));

/**
 * The order of the test files (T152, T237): the long files first, then vitest's own order (longest
 * recorded duration first, else largest file first), so both workers stay busy to the end. When
 * the replay is still to be built (a cold run), the files that read it go last: the others keep
 * both workers busy while it builds.
 */
export class SuiteSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const readsReplay = (f: TestSpecification) => f.project.name === "api" || endsWithAny(f, E2E_REPLAY_READERS);
    const cold = files.some(readsReplay) && !replayReady(replayCache(replayKey()));
    const rank = (f: TestSpecification) => (cold && readsReplay(f) ? 2 : 0) + (endsWithAny(f, LONG_FILES) ? 0 : 1);
    return sorted
      .map((file, i) => ({ file, i }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.i - b.i)
      .map(({ file }) => file);
  }
}
