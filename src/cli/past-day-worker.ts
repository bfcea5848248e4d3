import { parentPort, workerData } from "node:worker_threads";
import { StoreUnavailableError } from "../catalogue/errors.js";
import { StoreSpans } from "../catalogue/load-view.js";
import { buildViewInSteps, type CatalogueView } from "../catalogue/view.js";
import { EncodedBody } from "../http/cached-response.js";
import type { PastDayJob, PastDayResult } from "../http/past-days.js";
import { renderResponse } from "../http/render.js";
import { ROUTES } from "../http/routes.js";
import { SOURCES } from "../sources/registry.js";
import type { CatalogueStore } from "../store/catalogue-store.js";
import { openStore } from "../store/open-store.js";
import type { Config } from "./config.js";
import { endpointServices } from "./endpoint-services.js";

/**
 * The past-day renderer's thread (issue 47 §2, T470), started by `past-day-renderer.ts`. It holds
 * its own view of the version the server serves — the same dataset read from the same store, with
 * the server's build time, no change record or history (no `at` answer reads them) — and answers
 * each job with the same `renderResponse` the server would run, its gzip and br forms made here
 * too, so the server's event loop only copies bytes. A job about a version that is not the store's
 * latest (the server has not followed a publish yet, or lags behind it) is declined: the server
 * renders it in process.
 */

const config = workerData as Config;
// One connection for the worker's life: opening a SQLite store migrates it (a write transaction),
// and the server's own reads wait for a writer synchronously (busy_timeout): a worker that opened
// and closed stores as it went, starved of CPU, held the server's loop for 8.9 s once.
let opened: Promise<CatalogueStore> | null = null;
const store = (): Promise<CatalogueStore> => {
  opened ??= openStore(config).catch((error: unknown) => {
    opened = null;
    throw error;
  });
  return opened;
};
const spans = new StoreSpans(async () => ({ store: await store(), release: async () => {} }));
// Each version's export is computed once (the server keeps it, T470): one version's files are enough.
const services = endpointServices(config, { upstreamKept: 1 });
const routes = new Map(ROUTES.map((r) => [r.path, r]));
let held: { served: string; generatedAt: string; view: Promise<CatalogueView | null> } | null = null;

/** The view of the served version, loaded once per version (null: the store's latest is another). */
function viewOf(served: string, generatedAt: string): Promise<CatalogueView | null> {
  if (held?.served === served && held.generatedAt === generatedAt) return held.view;
  const view = (async () => {
    const opened = await store();
    if ((await opened.latestRun())?.datasetVersion !== served) return null;
    const dataset = await opened.loadDataset(served);
    if (!dataset) return null;
    const record = { changes: [], history: [], timeline: spans };
    return await buildViewInSteps(dataset, SOURCES, new Date(generatedAt), record);
  })();
  view.catch(() => {
    if (held?.view === view) held = null; // a failed load is tried again by the next job
  });
  held = { served, generatedAt, view };
  return view;
}

/** One job's answer (see {@link PastDayResult}). */
async function answer(job: PastDayJob): Promise<PastDayResult> {
  const route = routes.get(job.path);
  const view = route ? await viewOf(job.served, job.generatedAt) : null;
  if (!route || !view) return { kind: "declined" };
  const shape = { compression: job.compression, counted: false };
  try {
    const made = await renderResponse(route, view, job.url, job.params, { baseUrl: job.baseUrl }, shape, services);
    const encoded = new EncodedBody(made.body);
    const br = job.compression ? encoded.coded("br") : made.body;
    const gzip = job.compression ? encoded.coded("gzip") : made.body;
    return {
      kind: "response",
      status: made.status,
      body: made.body,
      contentType: made.contentType,
      cacheControl: made.cacheControl,
      version: made.version,
      ...(made.location === undefined ? {} : { location: made.location }),
      ...(made.headers === undefined ? {} : { headers: made.headers }),
      ...(br === made.body ? {} : { br }),
      ...(gzip === made.body ? {} : { gzip }),
    };
  } catch (error) {
    if (error instanceof StoreUnavailableError)
      return { kind: "unavailable", detail: error.detail, retryAfterSeconds: error.retryAfterSeconds };
    throw error;
  }
}

// One job at a time: two exports built at once would hold twice the memory (the heap is bounded,
// WORKER_HEAP_MB) for no gain on a thread of its own.
let queue: Promise<void> = Promise.resolve();
parentPort?.on("message", (message: { id: number; job: PastDayJob }) => {
  queue = queue.then(() =>
    answer(message.job).then(
      (result) => parentPort?.postMessage({ id: message.id, result }),
      (error: unknown) =>
        parentPort?.postMessage({ id: message.id, result: { kind: "fault", message: String(error) } as PastDayResult }),
    ),
  );
});
