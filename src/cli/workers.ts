import cluster from "node:cluster";
import { type BackoffPolicy, backoffMs } from "../catalogue/backoff.js";
import { onStopSignal } from "./signals.js";

/** Waits before replacing a worker that died (issue 26 §4, T243): 0.5 s, 1 s, 2 s … at most 30 s. */
export const WORKER_BACKOFF: BackoffPolicy = { baseMs: 500, capMs: 30_000 };

/** A worker that served this long before it died was healthy: its replacement starts the backoff over. */
export const WORKER_STABLE_MS = 60_000;

/** Where the replacement of dead workers stands: deaths in a row of workers that did not last. */
export interface RestartState {
  readonly failures: number;
}

/**
 * The replacement of a worker that died after `livedMs` (T243), pure: a worker that lasted
 * {@link WORKER_STABLE_MS} counts as the first failure, any other adds one to the run of
 * failures; the wait before forking its replacement is {@link backoffMs} of that run.
 */
export function nextRestart(
  state: RestartState,
  livedMs: number,
  policy: BackoffPolicy = WORKER_BACKOFF,
  stableMs: number = WORKER_STABLE_MS,
): { state: RestartState; delayMs: number } {
  const failures = livedMs >= stableMs ? 1 : state.failures + 1;
  return { state: { failures }, delayMs: backoffMs(failures, policy) };
}

/** "0.5 s", "2 s", "30 s". */
function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** Work of the primary besides supervising: started once every worker listens, stopped on SIGINT/SIGTERM. */
export interface PrimaryWork {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `tariff serve --workers N` (issue 5 §5): the primary forks N API processes sharing the port
 * (node:cluster) and replaces any that die, after a wait that doubles while replacements die too
 * ({@link nextRestart}, T243), said in the log; each worker serves and follows new versions itself.
 * The primary says when they listen and, on SIGINT/SIGTERM, that it stops them (T97).
 * @param runWorker what a worker runs (the server)
 * @param runPrimary what the primary runs besides supervising (one live ingester, at most, T220);
 *   it returns that work, started once every worker listens and stopped on SIGINT/SIGTERM
 */
export async function runWorkers(
  workers: number,
  runWorker: () => Promise<void>,
  runPrimary: () => Promise<PrimaryWork | undefined>,
): Promise<void> {
  if (!cluster.isPrimary) return runWorker();
  const primary = await runPrimary();
  let stopping = false;
  let listening = 0;
  let restarts: RestartState = { failures: 0 };
  const forkedAt = new Map<number, number>();
  const pending = new Set<NodeJS.Timeout>();
  cluster.on("fork", (worker) => forkedAt.set(worker.id, Date.now()));
  for (let i = 0; i < workers; i++) cluster.fork();
  cluster.on("listening", (_worker, address) => {
    listening++;
    if (listening !== workers) return;
    const host = address.addressType === 6 ? `[${address.address}]` : address.address;
    const base = `http://${host ?? "localhost"}:${address.port}`;
    process.stderr.write(`tariff: ${workers} workers serving at ${base}/api/v1 (API reference at ${base}/docs)\n`);
    const started = primary?.start();
    process.stderr.write("tariff: Ctrl-C (SIGINT) or SIGTERM stops them\n");
    started?.catch((error: unknown) =>
      process.stderr.write(`tariff: live ingestion did not start: ${error instanceof Error ? error.message : error}\n`),
    );
  });
  cluster.on("exit", (worker, code, signal) => {
    const lived = Date.now() - (forkedAt.get(worker.id) ?? Date.now());
    forkedAt.delete(worker.id);
    if (stopping) return;
    const next = nextRestart(restarts, lived);
    restarts = next.state;
    const run = next.state.failures > 1 ? ` (${next.state.failures} in a row died within a minute)` : "";
    process.stderr.write(
      `tariff: worker ${worker.process.pid} exited (${signal ?? code}) after ${seconds(lived)}; ` +
        `starting another in ${seconds(next.delayMs)}${run}\n`,
    );
    const timer = setTimeout(() => {
      pending.delete(timer);
      if (!stopping) cluster.fork();
    }, next.delayMs);
    pending.add(timer);
  });
  onStopSignal((signal) => {
    stopping = true;
    for (const timer of pending) clearTimeout(timer);
    pending.clear();
    process.stderr.write(`tariff: ${signal}: stopping the ${workers} workers (each finishes its requests in flight)\n`);
    return async () => {
      await primary?.stop();
      const exits = Object.values(cluster.workers ?? {}).map(
        (w) =>
          new Promise<void>((resolve) => {
            if (!w || w.isDead()) return resolve();
            w.once("exit", () => resolve());
            w.kill("SIGTERM");
          }),
      );
      // A worker that does not finish within 10 s is left to the exit below.
      await Promise.race([Promise.all(exits), new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
      process.stderr.write("tariff: stopped\n");
    };
  });
}
