import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";
import { SuiteSequencer } from "./test/sequencer.js";

/**
 * The test projects, split by what a file costs (issue 30 §5, T237):
 *
 * - `unit`: everything else, in process, with no PostgreSQL, Redis, Chromium, replay or spawned
 *   `tariff` (`npx vitest run --project unit`, the quick check while working).
 * - `replay`: in-process suites that read the replayed catalogue (`test/harness.ts` `replay()`),
 *   built once per run and shared, cached on disk between runs (T152).
 * - `e2e`: the slow end-to-end files: real PostgreSQL and Redis, Chromium, spawned `tariff`
 *   processes, live runs against the fake upstream and their fault matrices.
 *
 * `npm test` runs all three.
 */
const E2E_SUITES = [
  "test/browser-clients.test.ts",
  "test/cli.test.ts",
  "test/fresh-live.test.ts",
  "test/fresh-web.test.ts",
  "test/http-rate-limit.test.ts",
  "test/ingest-runs.test.ts",
  "test/live-*.test.ts",
  "test/mcp-stdio.test.ts",
  "test/mcp-stdio-outside.test.ts",
  "test/scale-out.test.ts",
  "test/serve-workers.test.ts",
  "test/store-growth.test.ts",
  "test/store-migration.test.ts",
  "test/store-parity.test.ts",
  "test/store-scale.test.ts",
  "test/usage-log.test.ts",
  "test/web-answers.test.ts",
  "test/web-e2e.test.ts",
  "test/web-mount.test.ts",
];

/** In-process suites that read the replay. */
const REPLAY_SUITES = [
  "test/catalogue-answers.test.ts",
  "test/catalogue-dimensions.test.ts",
  "test/catalogue-replay.test.ts",
  "test/changes-history.test.ts",
  "test/cost.test.ts",
  "test/{exports,usage}-*.test.ts",
  "test/fresh-*.test.ts",
  "test/http-*.test.ts",
  "test/identity-golden.test.ts",
  "test/market-replay.test.ts",
  "test/mcp-http.test.ts",
  "test/mcp-tools.test.ts",
  "test/point-in-time.test.ts",
  "test/official-verified.test.ts",
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
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["src/**/*.test.ts", "test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...E2E_SUITES, ...REPLAY_SUITES],
        },
      },
      {
        extends: true,
        test: {
          name: "replay",
          include: REPLAY_SUITES,
          exclude: [...configDefaults.exclude, ...E2E_SUITES],
          globalSetup: ["test/global-setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: E2E_SUITES,
          // Compiled once per run, before any suite spawns bin/tariff.js (T133); then the replay.
          globalSetup: ["test/build-setup.ts", "test/global-setup.ts"],
        },
      },
    ],
  },
});
