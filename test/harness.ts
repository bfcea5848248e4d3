import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { type Agent, type IncomingHttpHeaders, request } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import { inject } from "vitest";
import { judgeView } from "../src/catalogue/judged-view.js";
import { loadView } from "../src/catalogue/load-view.js";
import type { CatalogueView } from "../src/catalogue/view.js";
import { ViewHolder } from "../src/catalogue/view-holder.js";
import type { Dataset } from "../src/domain/dataset.js";
import { type AppOptions, createApp } from "../src/http/create-app.js";
import { SOURCES } from "../src/sources/registry.js";
import type { CatalogueStore } from "../src/store/catalogue-store.js";
import { openSqliteStore } from "../src/store/open-store.js";
import {
  type ReplayCache,
  replayCache,
  replayReady,
  runningBuilder,
  startReplayBuild,
  waitForReplay,
} from "./replay-cache.js";

/**
 * The cached replay of the bundled snapshots this run reads (T152), once it is built (the build
 * started here when no one has started it).
 * @throws Error in a suite outside the `api` and end-to-end projects (it has no replay), or when the build failed
 */
export async function replay(): Promise<ReplayCache> {
  const key = inject("replayKey");
  if (!key)
    throw new Error("this suite reads the replay: list it in API_SUITES or an end-to-end project (vitest.config.ts)");
  const cache = replayCache(key);
  if (!replayReady(cache) && runningBuilder(cache) === null) startReplayBuild(cache);
  await waitForReplay(cache);
  return cache;
}

/** The replayed SQLite file; suites that write (a CLI run, a server with its own lock) copy it. */
export async function replayDbPath(): Promise<string> {
  return (await replay()).dbPath;
}

/**
 * Copies the replayed store to `<dir>/tariff.db` (a `DATA_DIR` of its own, for a process that may
 * write), making `dir` when it is missing.
 * @returns `dir`
 */
export async function copyReplayStore(dir: string): Promise<string> {
  const source = await replayDbPath();
  mkdirSync(dir, { recursive: true });
  copyFileSync(source, join(dir, "tariff.db"));
  if (existsSync(`${source}-wal`)) copyFileSync(`${source}-wal`, join(dir, "tariff.db-wal"));
  return dir;
}

/** Opens the SQLite store the bundled snapshots were replayed into (a real file; read it only). */
export async function openReplayStore(): Promise<CatalogueStore> {
  return openSqliteStore(await replayDbPath());
}

/** What `read` reads from the bundled replay's store, opened for it and closed after. */
export async function readReplayStore<T>(read: (store: CatalogueStore) => Promise<T>): Promise<T> {
  const store = await openReplayStore();
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}

let shared: Promise<{ dataset: Dataset; view: CatalogueView }> | undefined;

/**
 * The current (latest) dataset of the bundled replay, its view, and the store opened for the
 * caller (who closes it). The view is built once per test worker and shared by the suites it runs
 * (`isolate: false`, T152): they only read it (a suite that needs another version swaps a copy into
 * its own server's holder).
 *
 * Its prices' `verified` is judged as of the replay's last run (issue 46 §5, T463): the suites read the
 * catalogue as it was when the bundled data were current. `/sources` health is judged at the real
 * clock, as before. A suite that asks about today judges the view again ({@link judgedNow}).
 */
export async function loadReplay(): Promise<{ dataset: Dataset; view: CatalogueView; store: CatalogueStore }> {
  shared ??= (async () => {
    const store = await openReplayStore();
    try {
      const built = await loadView(store, SOURCES);
      if (!built) throw new Error("the replay published nothing");
      const view = judgeView(built, Date.parse(built.version));
      return { dataset: view.dataset, view };
    } finally {
      await store.close();
    }
  })();
  const { dataset, view } = await shared;
  return { dataset, view, store: await openReplayStore() };
}

/**
 * `view` with its prices' `verified` judged at `at` (epoch ms; the real clock by default, T460): what a
 * server started today serves from the bundled data.
 */
export function judgedNow(view: CatalogueView, at: number = Date.now()): CatalogueView {
  return judgeView(view, at);
}

/**
 * The replay's current view and an API server on it ({@link startServer}'s options pass through),
 * for a suite's `beforeAll`; the suite closes the server.
 */
export async function replayServer(
  options: Partial<Omit<AppOptions, "views">> = {},
): Promise<{ view: CatalogueView; server: TestServer }> {
  const { view, store } = await loadReplay();
  await store.close();
  return { view, server: await startServer(view, options) };
}

/** A running API server on a free loopback port. */
export interface TestServer {
  readonly base: string;
  readonly app: FastifyInstance;
  readonly views: ViewHolder;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/** The app on `view`, logs silent and the rate limit off unless `options` say otherwise. */
async function appOn(view: CatalogueView, options: Partial<Omit<AppOptions, "views">>) {
  const views = new ViewHolder(view);
  const app = await createApp({
    logLevel: "silent",
    ...options,
    views,
    rateLimitPerMinute: options.rateLimitPerMinute ?? 0,
    // T505: a test app builds no responses ahead of its requests unless the suite tests that (and
    // waits for it with `precomputed`); each precompute rendered every model's answers again.
    precompute: options.precompute ?? false,
  });
  return { app, views };
}

/**
 * Starts the app on 127.0.0.1:0. Any other {@link AppOptions} (rate-limit window and store,
 * TRUST_PROXY, timeouts, a logger) pass through; the limit is off and logs silent by default.
 */
export async function startServer(
  view: CatalogueView,
  options: Partial<Omit<AppOptions, "views">> = {},
): Promise<TestServer> {
  const { app, views } = await appOn(view, options);
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    app,
    views,
    get: (path, headers = {}) => fetch(`${base}${path}`, { headers }),
    close: () => closeNow(app),
  };
}

/**
 * Closes a test server at once (T380): `app.close()` closes idle connections only, and one whose
 * answer a test never read (a large body left in the socket) is not idle, so the close waited for
 * the socket idle timeout (up to 30 s; 20 s seen at the end of an `api` worker, after its last
 * test). When a suite closes its server every request it cares about is answered; what is left
 * open is ended.
 */
async function closeNow(app: FastifyInstance): Promise<void> {
  const closing = app.close();
  app.server.closeAllConnections();
  await closing;
}

/** The API answering in memory through Fastify's `inject` (issue 34 §1): no socket, no port, no links to follow. */
export type MemoryServer = Omit<TestServer, "base">;

/**
 * The app on `view` answering in memory (Fastify `inject`), for suites that test answers and not the
 * transport: `get` resolves to a fetch `Response` of the uncompressed answer (no `Accept-Encoding`
 * is sent unless given). No `base`: links the app builds name the listening socket, which there is
 * none of; a suite that checks them uses {@link startServer}. Options as for {@link startServer}.
 */
export async function memoryServer(
  view: CatalogueView,
  options: Partial<Omit<AppOptions, "views">> = {},
): Promise<MemoryServer> {
  const { app, views } = await appOn(view, options);
  await app.ready();
  return {
    app,
    views,
    get: async (path, headers = {}) => {
      const res = await app.inject({ method: "GET", url: path, headers });
      const out = new Headers();
      for (const [name, value] of Object.entries(res.headers))
        for (const v of Array.isArray(value) ? value : value === undefined ? [] : [String(value)]) out.append(name, v);
      // A 204 or 304 has no body (fetch's Response refuses one).
      const body = res.statusCode === 204 || res.statusCode === 304 ? null : new Uint8Array(res.rawPayload);
      return new Response(body, { status: res.statusCode, headers: out });
    },
    close: () => app.close(),
  };
}

/** A response read in full over node:http (HEAD and 304 have an empty body), its body decoded. */
export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/**
 * One request over node:http with any method, any path as sent (no URL normalisation, unlike
 * fetch) and any headers; pass a keep-alive `agent` to reuse connections. A gzip or br body (the
 * app compresses by default, issue 16) is decoded; `headers` still say how it was sent.
 */
export function httpRequest(
  base: string,
  options: { method?: string; path: string; headers?: Record<string, string>; agent?: Agent },
): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? "GET",
        path: options.path,
        headers: options.headers ?? {},
        ...(options.agent ? { agent: options.agent } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          try {
            const bytes = Buffer.concat(chunks);
            const coding = res.headers["content-encoding"];
            const body =
              bytes.length === 0
                ? bytes
                : coding === "br"
                  ? brotliDecompressSync(bytes)
                  : coding === "gzip"
                    ? gunzipSync(bytes)
                    : bytes;
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body.toString("utf8") });
          } catch (error) {
            reject(error);
          }
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** A real model of the replay, for routes with `:provider/:model`. */
export const SAMPLE_MODEL = { provider: "anthropic", model: "claude-opus-4-0" } as const;

/** Queries a route needs to answer 200 (the rest answer 200 without any). */
const SAMPLE_QUERIES: Readonly<Record<string, string>> = {
  "/compare": "?models=openai/gpt-4o,anthropic/claude-opus-4-0",
  "/cost": "?model=openai/gpt-4o&inputTokens=1000&cachedInputTokens=500&outputTokens=100",
};

/**
 * A path under /api/v1 at which a route (Fastify syntax, e.g. `/models/:provider/:model`) answers
 * 200 on the replay: path parameters become {@link SAMPLE_MODEL}.
 */
export function samplePath(routePath: string, query?: string): string {
  const path = routePath.replace(":provider", SAMPLE_MODEL.provider).replace(":model", SAMPLE_MODEL.model);
  return `/api/v1${path}${query ?? SAMPLE_QUERIES[routePath] ?? ""}`;
}
