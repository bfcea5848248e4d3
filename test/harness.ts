import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { inject } from "vitest";
import { loadView } from "../src/catalogue/load-view.js";
import type { CatalogueView } from "../src/catalogue/view.js";
import type { Dataset } from "../src/domain/dataset.js";
import { createApp } from "../src/http/create-app.js";
import { ViewHolder } from "../src/http/view-holder.js";
import { SOURCES } from "../src/sources/registry.js";
import type { CatalogueStore } from "../src/store/catalogue-store.js";
import { openSqliteStore } from "../src/store/open-store.js";

/** Opens the store the global setup replayed the bundled snapshots into (a real SQLite file). */
export async function openReplayStore(): Promise<CatalogueStore> {
  return openSqliteStore(inject("replayDbPath"));
}

/** The current (latest) dataset of the bundled replay and its view. */
export async function loadReplay(): Promise<{ dataset: Dataset; view: CatalogueView; store: CatalogueStore }> {
  const store = await openReplayStore();
  const view = await loadView(store, SOURCES);
  if (!view) throw new Error("the replay published nothing");
  return { dataset: view.dataset, view, store };
}

/** A running API server on a free loopback port. */
export interface TestServer {
  readonly base: string;
  readonly app: FastifyInstance;
  readonly views: ViewHolder;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export async function startServer(
  view: CatalogueView,
  options: { rateLimitPerMinute?: number } = {},
): Promise<TestServer> {
  const views = new ViewHolder(view);
  const app = await createApp({ views, rateLimitPerMinute: options.rateLimitPerMinute ?? 0, logLevel: "silent" });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    app,
    views,
    get: (path, headers = {}) => fetch(`${base}${path}`, { headers }),
    close: () => app.close(),
  };
}
