import cluster from "node:cluster";
import { onStopSignal } from "./signals.js";

/** Work of the primary besides supervising: started once every worker listens, stopped on SIGINT/SIGTERM. */
export interface PrimaryWork {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `tariff serve --workers N` (issue 5 §5): the primary forks N API processes sharing the port
 * (node:cluster) and replaces any that die; each worker serves and follows new versions itself.
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
    if (stopping) return;
    process.stderr.write(`tariff: worker ${worker.process.pid} exited (${signal ?? code}); starting another\n`);
    cluster.fork();
  });
  onStopSignal((signal) => {
    stopping = true;
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
