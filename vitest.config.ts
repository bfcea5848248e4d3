import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";
import { SuiteSequencer } from "./test/sequencer.js";

/**
 * The suites that read the replayed catalogue (`test/harness.ts` `replay()`). They form the
 * `replay` project, whose global setup builds the cached replay in the background (T152); every
 * other suite is in `unit` and starts at once.
 */
const REPLAY_SUITES = [
  "test/browser-clients.test.ts",
  "test/catalogue-answers.test.ts",
  "test/catalogue-dimensions.test.ts",
  "test/catalogue-replay.test.ts",
  "test/changes-history.test.ts",
  "test/cli.test.ts",
  "test/cost.test.ts",
  "test/{exports,usage}-*.test.ts",
  "test/fresh-*.test.ts",
  "test/http-*.test.ts",
  "test/identity-golden.test.ts",
  "test/market-replay.test.ts",
  "test/mcp-http.test.ts",
  "test/mcp-stdio.test.ts",
  "test/mcp-tools.test.ts",
  "test/point-in-time.test.ts",
  "test/store-growth.test.ts",
  "test/store-migration.test.ts",
  "test/store-parity.test.ts",
  "test/web-answers.test.ts",
  "test/web-e2e.test.ts",
  "test/web-mount.test.ts",
];

export default defineConfig({
  test: {
    pool: "forks",
    // One test worker per core (vitest's default leaves one core to its own process, which idles:
    // on a 2-core machine that ran one file at a time). Files share their worker's modules
    // (isolate: false): the replayed view is loaded once per worker, not once per file (T152).
    maxWorkers: availableParallelism(),
    minWorkers: 1,
    isolate: false,
    sequence: { sequencer: SuiteSequencer },
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Compiled once per run, before any suite spawns bin/tariff.js (T133).
    globalSetup: ["test/build-setup.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["src/**/*.test.ts", "test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...REPLAY_SUITES],
        },
      },
      {
        extends: true,
        test: { name: "replay", include: REPLAY_SUITES, globalSetup: ["test/global-setup.ts"] },
      },
    ],
  },
});
