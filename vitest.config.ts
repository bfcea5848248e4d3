import { availableParallelism } from "node:os";
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { SuiteSequencer } from "./test/sequencer.js";
import { selectedStores, type TestStore } from "./test/test-stores.js";

/**
 * The test projects, by what a file costs (issue 34 §1, T274; issue 30 §5, T237):
 *
 * - `unit`: pure, in process, no replay, no database, browser or child process worth counting:
 *   invented rows, each adapter on its recorded dates one at a time, property tests at the local
 *   budget (`test/property-runs.ts`). Every new `src/**\/*.test.ts` or `test/*.test.ts` lands here
 *   unless listed below. `npm run test:quick`.
 * - `data`: the sweeps over every recorded payload (their parse reports cached, T272) and the
 *   whole-build property tests.
 * - `api`: in-process suites reading the replayed catalogue (`test/harness.ts`), built once per
 *   code and data version (T152, T271) and shared through `test/fixtures.ts`.
 *
 *   `npm test` runs these three.
 *
 * - `live`: live ingestion against the local fake upstream, its fault and crash matrices.
 * - `stores`: real PostgreSQL and Redis (and SQLite beside them), narrowed by `TARIFF_TEST_STORES`
 *   (T273): a file that needs a store not listed is left out.
 * - `spawn`: suites that spawn `tariff` processes (CLI, MCP over stdio, workers).
 * - `browser`: Chromium driven through playwright-core, and the web catalogue's real Vite build.
 *
 *   `npm run test:e2e` runs these four; `npx vitest run --project <name>` runs one.
 */

/** The whole-run sweeps over the recorded payloads, and the whole-build properties. */
const DATA_SUITES = [
  "src/core/plausibility.test.ts",
  "src/core/rejected-amount.test.ts",
  "src/core/source-guard.test.ts",
  "src/core/stability.test.ts",
  "src/sources/field-maps.test.ts",
  "test/identity-former-ids.test.ts",
  "test/identity-resolve.test.ts",
  "test/maker-clouds.test.ts",
  "test/alias-snapshots.test.ts",
  // Sweeps moved from unit (issue 45: the unit project within 10 s): every recorded payload's
  // listings through the store's JSON columns, and announcements over the recorded history.
  "src/store/columns.test.ts",
  "test/announcement-faults.test.ts",
];

/** In-process suites that read the replay. */
const API_SUITES = [
  "test/catalogue-answers.test.ts",
  "test/catalogue-dimensions.test.ts",
  "test/catalogue-replay.test.ts",
  "test/changes-history.test.ts",
  "test/cost.test.ts",
  "test/cost-examples.test.ts",
  "test/docs-figures.test.ts",
  "test/{exports,usage}-*.test.ts",
  "test/fresh-*.test.ts",
  "test/http-*.test.ts",
  "test/identity-golden.test.ts",
  "test/load-in-steps.test.ts",
  "test/maker-agreement.test.ts",
  "test/market-moves.test.ts",
  "test/market-replay.test.ts",
  "test/mcp-http.test.ts",
  "test/mcp-tools.test.ts",
  "test/point-in-time.test.ts",
  "test/ids-keep-their-past.test.ts",
  "test/announced-prices.test.ts",
  "test/official-{verified,makers}.test.ts",
  "test/one-answer.test.ts",
  "test/history-agreement.test.ts",
  "test/verified-when-served.test.ts",
  "test/page-ids.test.ts",
];

const LIVE_SUITES = ["test/live-*.test.ts", "test/fresh-live.test.ts"];

/**
 * The store suites and the stores each needs: a file runs when every store it needs is selected
 * (`TARIFF_TEST_STORES`); `any` marks the files parameterized over the selected back-ends.
 */
const STORE_SUITES: Readonly<Record<string, readonly TestStore[] | "any">> = {
  "test/http-rate-limit.test.ts": ["redis"],
  "test/ingest-runs.test.ts": "any",
  "test/scale-out.test.ts": ["postgres", "redis"],
  "test/store-growth.test.ts": ["sqlite"],
  "test/store-migration.test.ts": "any",
  "test/store-parity.test.ts": ["sqlite", "postgres"],
  "test/store-pg-restart.test.ts": ["postgres"],
  "test/store-scale.test.ts": "any",
};

/**
 * The docs' commands run as written (T312) spawn `tariff` servers and CLI runs: a spawn suite, though
 * named `live-*` (it is the live project's longest file after fresh-live: each end-to-end project
 * within 150 s, issue 34).
 */
const DOCS_COMMANDS = "test/live-docs-commands.test.ts";

const SPAWN_SUITES = [
  "test/cli.test.ts",
  DOCS_COMMANDS,
  "test/mcp-stdio.test.ts",
  "test/mcp-stdio-outside.test.ts",
  "test/serve-workers.test.ts",
  "test/usage-log.test.ts",
  // The past-day worker thread boots its own module graph and view (issue 45: out of `npm test`).
  "test/past-day-worker.test.ts",
];

/** `live-sources-truth` reads the web sources page too: it needs the browser project's web build. */
const LIVE_WITH_WEB = ["test/live-sources-truth.test.ts"];

const BROWSER_SUITES = [
  "test/browser-clients.test.ts",
  "test/fresh-web.test.ts",
  "test/web-*.test.ts",
  ...LIVE_WITH_WEB,
];

/** Test workers: one per core. */
const WORKERS = availableParallelism();

const stores = selectedStores();
const STORES_RUN = Object.entries(STORE_SUITES)
  .filter(([, needs]) =>
    needs === "any" ? stores.some((s) => s === "sqlite" || s === "postgres") : needs.every((s) => stores.includes(s)),
  )
  .map(([file]) => file);

const E2E_SUITES = [...LIVE_SUITES, ...Object.keys(STORE_SUITES), ...SPAWN_SUITES, ...BROWSER_SUITES];

/** The end-to-end projects' global setup: the compiled build (T133), then the replay. */
const E2E_SETUP = ["test/build-setup.ts", "test/global-setup.ts"];

const project = (
  name: string,
  include: readonly string[],
  exclude: readonly string[],
  globalSetup: readonly string[] = [],
  pool: "forks" | "threads" = "forks",
): TestProjectInlineConfiguration => ({
  extends: true,
  test: {
    pool,
    name,
    include: [...include],
    exclude: [...configDefaults.exclude, ...exclude],
    globalSetup: [...globalSetup],
  },
});

export default defineConfig({
  test: {
    pool: "forks",
    // One test worker per core (vitest's default leaves one core to its own process, which idles:
    // on a 2-core machine that ran one file at a time). Files share their worker's modules
    // (isolate: false): the replayed view and parse reports are loaded once per worker (T152).
    maxWorkers: WORKERS,
    // As many kept as run (T379): with fewer, tinypool (idleTimeout 0) removes a worker the moment it
    // finds the queue empty, and a file queued while that worker's teardown answers is handed to it
    // and then killed with it: "Terminating worker thread", the file reports nothing, a green run
    // exits 1 (one run in ten under load). `--maxWorkers N` on the command line wants `--minWorkers N`.
    minWorkers: WORKERS,
    isolate: false,
    // A young generation of 32 MB per semi-space (V8's default is 16 on 64-bit): the suites allocate
    // whole catalogues, and a CPU profile of `npm test` put 19 % of the workers' time in the garbage
    // collector; with it, the heaviest data suites take ~9 % less CPU (issue 45, T505).
    poolOptions: { forks: { execArgv: ["--max-semi-space-size=32"] } },
    sequence: { sequencer: SuiteSequencer },
    // A turn of the event loop before each test, so vitest's RPC is answered between tests (T274).
    setupFiles: ["test/turn-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    projects: [
      // Worker threads for the unit project (issue 45, T505): it is mostly module loading, and threads
      // start and load faster than forked processes (paired runs: wall −13 %, CPU −14 %).
      project(
        "unit",
        ["src/**/*.test.ts", "test/**/*.test.ts"],
        [...DATA_SUITES, ...API_SUITES, ...E2E_SUITES],
        [],
        "threads",
      ),
      project("data", DATA_SUITES, []),
      project("api", API_SUITES, [...DATA_SUITES, ...E2E_SUITES], ["test/global-setup.ts"]),
      project("live", LIVE_SUITES, [...LIVE_WITH_WEB, DOCS_COMMANDS], E2E_SETUP),
      project("stores", STORES_RUN, [], E2E_SETUP),
      project("spawn", SPAWN_SUITES, [], E2E_SETUP),
      project("browser", BROWSER_SUITES, [], [...E2E_SETUP, "test/web-build-setup.ts"]),
    ],
  },
});
