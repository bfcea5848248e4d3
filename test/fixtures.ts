import { test as base } from "vitest";
import type { CatalogueView } from "../src/catalogue/view.js";
import type { Dataset } from "../src/domain/dataset.js";
import { startExportServer } from "./exports-support.js";
import { loadReplay, type MemoryServer, memoryServer, startServer, type TestServer } from "./harness.js";

/**
 * The replay suites' shared fixtures (issue 34 §1, §5; T274), through vitest's `test.extend`: each is
 * set up once per test worker, on first use, and shared by every file the worker runs (`isolate:
 * false`, T152), instead of a server per file. They are read-only: a suite that swaps a view, turns
 * the rate limit on, writes, or counts what the server renders (`test/http-canonical-query.test.ts`:
 * another suite may have rendered it first) makes its own server (`test/harness.ts`).
 */
export interface ReplayFixtures {
  /** The replay's current dataset and view (T152). */
  replay: { readonly dataset: Dataset; readonly view: CatalogueView };
  /** The API on the replay, answering in memory (Fastify `inject`): for answers, not transport. */
  api: MemoryServer;
  /** The API on the replay on a loopback port (links, headers and bytes as a client sees them). */
  apiServer: TestServer;
  /** The API on the replay, on a loopback port, whose price-file exports read the bundled recorded files. */
  exportServer: TestServer;
}

/** `test` (and `it`) with {@link ReplayFixtures}; a suite takes what it needs from the test context. */
export const test = base.extend<ReplayFixtures>({
  replay: [
    // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from its first parameter
    async ({}, use) => {
      const { dataset, view, store } = await loadReplay();
      await store.close();
      await use({ dataset, view });
    },
    { scope: "worker" },
  ],
  api: [
    async ({ replay }, use) => {
      const server = await memoryServer(replay.view);
      await use(server);
      await server.close();
    },
    { scope: "worker" },
  ],
  apiServer: [
    async ({ replay }, use) => {
      const server = await startServer(replay.view);
      await use(server);
      await server.close();
    },
    { scope: "worker" },
  ],
  exportServer: [
    async ({ replay }, use) => {
      const server = await startExportServer(replay.view);
      await use(server);
      await server.close();
    },
    { scope: "worker" },
  ],
});

export const it = test;

/** The shared servers a file can bind (see {@link ReplayFixtures}). */
export type SharedServer = "api" | "apiServer" | "exportServer";

/**
 * `it` for a file that reads the shared fixtures through its own module-level variables (issue 34
 * §5, T274): before the file's first test, `bind` gets the replay's view and the server named by
 * `kind` (once per file; an `async` bind may also read what the file needs once, e.g. an export).
 */
export function bindShared<K extends SharedServer>(
  kind: K,
  bind: (view: CatalogueView, server: ReplayFixtures[K]) => void | Promise<void>,
) {
  let binding: Promise<void> | undefined;
  const once = (view: CatalogueView, server: ReplayFixtures[K]) =>
    (binding ??= Promise.resolve().then(() => bind(view, server)));
  type Use = (value: undefined) => Promise<void>;
  // vitest reads a fixture's dependencies from its first parameter's pattern: one function per server.
  const fixtures = {
    api: async ({ replay, api }: ReplayFixtures, use: Use) => {
      await once(replay.view, api as ReplayFixtures[K]);
      await use(undefined);
    },
    apiServer: async ({ replay, apiServer }: ReplayFixtures, use: Use) => {
      await once(replay.view, apiServer as ReplayFixtures[K]);
      await use(undefined);
    },
    exportServer: async ({ replay, exportServer }: ReplayFixtures, use: Use) => {
      await once(replay.view, exportServer as ReplayFixtures[K]);
      await use(undefined);
    },
  };
  return test.extend<{ bound: undefined }>({ bound: [fixtures[kind], { auto: true }] });
}
