import { Worker } from "node:worker_threads";
import type { PastDayJob, PastDayRenderer, PastDayResult } from "../http/past-days.js";
import type { Config } from "./config.js";

/**
 * Starts the worker: the compiled `.js` beside this file, or the `.ts` source through tsx's loader
 * (tests, `tsx src/cli/main.ts`; node 20 does not carry `--import tsx` into a worker's entry).
 */
function startWorker(config: Config): Worker {
  const options = { workerData: config, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } };
  if (!import.meta.url.endsWith(".ts")) return new Worker(new URL("./past-day-worker.js", import.meta.url), options);
  const source = new URL("./past-day-worker.ts", import.meta.url).href;
  const code = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(code, { ...options, eval: true });
}

/**
 * The worker's old-generation heap, MB (T470): its view of the served version holds ~150 MB and an
 * export's build ~100 MB more while it runs; without a bound V8 lets garbage grow the process by
 * 300 MB before it collects. A worker that runs out is restarted, its jobs rendered in process.
 */
const WORKER_HEAP_MB = 288;

/**
 * The past-day renderer of a serving process (issue 47 §2, T470): one worker thread
 * (`past-day-worker.ts`) that answers `at` questions from its own view of the served version, so a
 * cold past day (a price-file export takes 0.3–2 s) never holds the event loop that answers
 * everyone else. Jobs are answered in the order the worker finishes them. A worker that fails or
 * exits declines its pending jobs (the server renders those in process) and is started again on
 * the next job. The worker does not keep the process alive.
 * @param config the process's configuration (the store the worker reads)
 * @param onExit told when a worker stops unasked (its error, or its exit code), for the log
 */
export function pastDayRenderer(config: Config, onExit?: (detail: string) => void): PastDayRenderer {
  const pending = new Map<number, (result: PastDayResult) => void>();
  let worker: Worker | null = null;
  let next = 0;
  let closed = false;
  const declineAll = () => {
    for (const resolve of pending.values()) resolve({ kind: "declined" });
    pending.clear();
  };
  const start = (): Worker => {
    const made = startWorker(config);
    made.unref();
    made.on("message", ({ id, result }: { id: number; result: PastDayResult }) => {
      const resolve = pending.get(id);
      pending.delete(id);
      resolve?.(result);
    });
    const gone = (detail: string) => {
      if (worker !== made) return;
      worker = null;
      if (!closed) onExit?.(`${detail}; ${pending.size} job(s) rendered in process, a new worker on the next one`);
      declineAll();
    };
    made.on("error", (error) => gone(String(error)));
    made.on("exit", (code) => gone(`exit code ${code}`));
    return made;
  };
  return {
    render(job: PastDayJob): Promise<PastDayResult> {
      if (closed) return Promise.resolve({ kind: "declined" });
      worker ??= start();
      const id = next++;
      const sent = worker;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        sent.postMessage({ id, job });
      });
    },
    async close(): Promise<void> {
      closed = true;
      const stopping = worker;
      worker = null;
      declineAll();
      await stopping?.terminate();
    },
  };
}
