import cluster from "node:cluster";

/**
 * `tariff serve --workers N` (issue 5 §5): the primary forks N API processes sharing the port
 * (node:cluster) and replaces any that die; each worker serves and follows new versions itself.
 * @param runWorker what a worker runs (the server)
 * @param runPrimary what the primary runs besides supervising (one live ingester, at most)
 */
export async function runWorkers(
  workers: number,
  runWorker: () => Promise<void>,
  runPrimary: () => Promise<void>,
): Promise<void> {
  if (!cluster.isPrimary) return runWorker();
  await runPrimary();
  let stopping = false;
  for (let i = 0; i < workers; i++) cluster.fork();
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    process.stderr.write(`worker ${worker.process.pid} exited (${signal ?? code}); starting another\n`);
    cluster.fork();
  });
  const stop = () => {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.kill("SIGTERM");
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
