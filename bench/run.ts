/**
 * `npm run bench` (issue 6 §3). Not part of `npm test`: nothing here asserts a time.
 *
 * 1. Replays the bundled snapshots into a fresh SQLite store (times each run and the whole replay).
 * 2. Starts `tariff serve` on that store as a child, pinned to CPU 0 (`taskset -c 0`), with
 *    RATE_LIMIT_PER_MINUTE=0 (the limit is OFF in the bench), and times spawn → first 200.
 * 3. Starts a bare node:http server (bench/bare-server.ts, also on CPU 0) returning the bytes and
 *    headers Tariff returned, and drives both with autocannon from this process, pinned to CPU 1,
 *    alternating A/B per round; prints req/s, p50, p99 and the ratio Tariff/bare per endpoint.
 * 4. The same for a Tariff with the rate limit on (set very high), i.e. every request through Fastify.
 * 5. `--workers 1` vs `--workers 2` on the single-model route (unpinned: the load generator shares the cores).
 * 6. Peak RSS (VmHWM) of the server.
 *
 * Env: BENCH_ROUNDS (3), BENCH_SECONDS (5), BENCH_CONNECTIONS (64), BENCH_SKIP_WORKERS=1,
 * BENCH_ONLY=<part of an endpoint name>.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { get } from "node:http";
import { createServer } from "node:net";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { loadView } from "../src/catalogue/load-view.js";
import { ingestSnapshots } from "../src/ingest/run-ingest.js";
import { SOURCES } from "../src/sources/registry.js";
import { openSqliteStore } from "../src/store/open-store.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const ROOT = new URL("..", import.meta.url).pathname;
const MODEL = "/api/v1/models/anthropic/claude-opus-4-0";

interface Endpoint {
  readonly name: string;
  readonly path: string;
  readonly notModified?: boolean;
}

const ENDPOINTS: readonly Endpoint[] = [
  { name: "single model", path: MODEL },
  { name: "/models?limit=50", path: "/api/v1/models?limit=50" },
  { name: "/models?limit=500", path: "/api/v1/models?limit=500" },
  { name: "/rates", path: "/api/v1/rates" },
  { name: "/changes", path: "/api/v1/changes" },
  { name: "304 single model", path: MODEL, notModified: true },
];

interface Sample {
  rps: number;
  p50: number;
  p99: number;
}

const children: ChildProcess[] = [];
const log = (line: string) => process.stdout.write(`${line}\n`);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

function fetchRaw(url: string, headers: Record<string, string> = {}): Promise<{ status: number; etag: string }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, etag: String(res.headers.etag ?? "") }));
    }).on("error", reject);
  });
}

async function waitFor200(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetchRaw(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${url} not ready after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Spawns node with tsx, pinned to `cpu` unless null. */
function spawnNode(args: string[], env: Record<string, string>, cpu: number | null): ChildProcess {
  const command = [process.execPath, "--import", "tsx", ...args];
  const child =
    cpu === null
      ? spawn(command[0] ?? "node", command.slice(1), { cwd: ROOT, env: { ...process.env, ...env }, stdio: "inherit" })
      : spawn("taskset", ["-c", String(cpu), ...command], {
          cwd: ROOT,
          env: { ...process.env, ...env },
          stdio: "inherit",
        });
  children.push(child);
  return child;
}

async function startTariff(
  dataDir: string,
  options: { cpu: number | null; rateLimit?: number; workers?: number } = { cpu: 0 },
): Promise<{ child: ChildProcess; base: string; readyMs: number }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const args = ["src/cli/main.ts", "serve", ...(options.workers ? ["--workers", String(options.workers)] : [])];
  const child = spawnNode(
    args,
    {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      RATE_LIMIT_PER_MINUTE: String(options.rateLimit ?? 0),
      LOG_LEVEL: "warn",
    },
    options.cpu,
  );
  await waitFor200(`${base}/api/v1/meta`, 60_000);
  return { child, base, readyMs: performance.now() - started };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
}

function peakRssMb(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function drive(base: string, endpoint: Endpoint, etag: string, seconds: number): Promise<Sample> {
  const result = await autocannon({
    url: `${base}${endpoint.path}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: endpoint.notModified ? { "if-none-match": etag } : {},
  });
  const expected = endpoint.notModified ? result["3xx"] : result["2xx"];
  if (result.errors > 0 || expected === 0 || result.non2xx > (endpoint.notModified ? result["3xx"] : 0))
    throw new Error(`${endpoint.name} at ${base}: unexpected answers (${JSON.stringify(result.statusCodeStats)})`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/** Alternates A and B for ROUNDS rounds; the ratio is the median of the per-round ratios. */
async function compare(a: string, b: string, endpoint: Endpoint, etag: string) {
  await drive(a, endpoint, etag, 1);
  await drive(b, endpoint, etag, 1);
  const as: Sample[] = [];
  const bs: Sample[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ([a, b] as const) : ([b, a] as const);
    for (const base of order) (base === a ? as : bs).push(await drive(base, endpoint, etag, SECONDS));
  }
  const ratios = as.map((s, i) => s.rps / (bs[i]?.rps ?? Number.NaN));
  const summary = (xs: Sample[]) => ({
    rps: median(xs.map((s) => s.rps)),
    p50: median(xs.map((s) => s.p50)),
    p99: median(xs.map((s) => s.p99)),
  });
  return { a: summary(as), b: summary(bs), ratio: median(ratios) };
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number) => n.toFixed(2);

async function main() {
  execFileSync("taskset", ["-a", "-p", "-c", "1", String(process.pid)], { stdio: "ignore" });
  log(`# Tariff bench — ${new Date().toISOString()}`);
  log(`machine: ${cpus().length} CPUs (${cpus()[0]?.model ?? "?"}), node ${process.version}`);
  log(
    `load: autocannon ${CONNECTIONS} connections, ${ROUNDS} rounds × ${SECONDS} s per server and endpoint, ` +
      "A/B alternating; servers pinned to CPU 0, autocannon to CPU 1; RATE_LIMIT_PER_MINUTE=0 (rate limit OFF)\n",
  );

  // 1. Ingestion.
  const dataDir = mkdtempSync(join(tmpdir(), "tariff-bench-"));
  const store = await openSqliteStore(join(dataDir, "tariff.db"));
  const runs: { date: string; ms: number }[] = [];
  const replayStart = performance.now();
  let last = replayStart;
  await ingestSnapshots(store, join(ROOT, "data/upstream"), SOURCES, {
    skipped() {},
    sourceFailed() {},
    published(dataset) {
      const now = performance.now();
      runs.push({ date: dataset.run.datasetVersion.slice(0, 10), ms: now - last });
      last = now;
    },
  });
  const replayMs = performance.now() - replayStart;
  const loadStart = performance.now();
  const view = await loadView(store, SOURCES);
  const loadMs = performance.now() - loadStart;
  await store.close();
  const slowest = runs.reduce((m, r) => (r.ms > m.ms ? r : m), { date: "", ms: 0 });
  log("## Ingestion");
  log(`- full bundled replay: ${runs.length} runs in ${(replayMs / 1000).toFixed(1)} s`);
  log(
    `- one run over all sources of one date: last (${runs.at(-1)?.date}) ${fmt(runs.at(-1)?.ms ?? 0)} ms, slowest (${slowest.date}) ${fmt(slowest.ms)} ms`,
  );
  log(`- runs: ${runs.map((r) => `${r.date} ${fmt(r.ms)}`).join(", ")}`);
  log(`- load store + build view (in process): ${fmt(loadMs)} ms (${view?.models.length} models)\n`);

  // 2. Cold start to ready, three times; the last server stays up for the load.
  const starts: number[] = [];
  let tariff = await startTariff(dataDir);
  starts.push(tariff.readyMs);
  for (let i = 0; i < 2; i++) {
    await stop(tariff.child);
    tariff = await startTariff(dataDir);
    starts.push(tariff.readyMs);
  }
  log("## Start to ready (existing store; spawn of `node --import tsx src/cli/main.ts serve` → first 200 of /meta)");
  log(`- ${starts.map((s) => `${fmt(s)} ms`).join(", ")} (median ${fmt(median(starts))} ms)\n`);
  // Let the background precompute of the version finish before measuring.
  await new Promise((r) => setTimeout(r, 3000));

  // 3. Tariff vs bare node:http.
  const barePort = await freePort();
  const bareBase = `http://127.0.0.1:${barePort}`;
  const paths = [...new Set(ENDPOINTS.map((e) => e.path))];
  spawnNode(["bench/bare-server.ts", String(barePort), tariff.base, ...paths], {}, 0);
  await waitFor200(`${bareBase}${MODEL}`, 30_000);
  const etag = (await fetchRaw(`${tariff.base}${MODEL}`)).etag;
  if ((await fetchRaw(`${tariff.base}${MODEL}`, { "if-none-match": etag })).status !== 304) throw new Error("no 304");

  log("## Tariff (fast path, rate limit off) vs bare node:http");
  log(
    "| endpoint | Tariff req/s | bare req/s | Tariff / bare | Tariff p50 ms | Tariff p99 ms | bare p50 ms | bare p99 ms |",
  );
  log("|---|---:|---:|---:|---:|---:|---:|---:|");
  const only = process.env.BENCH_ONLY;
  for (const endpoint of ENDPOINTS.filter((e) => !only || e.name.includes(only))) {
    const r = await compare(tariff.base, bareBase, endpoint, etag);
    log(
      `| ${endpoint.name} | ${fmt(r.a.rps)} | ${fmt(r.b.rps)} | ${(r.ratio * 100).toFixed(0)} % | ${ms(r.a.p50)} | ${ms(r.a.p99)} | ${ms(r.b.p50)} | ${ms(r.b.p99)} |`,
    );
  }
  const rss = peakRssMb(tariff.child.pid);
  log(`\npeak RSS of the Tariff server (VmHWM after all runs): ${rss.toFixed(0)} MB\n`);

  // 4. With the rate limit on: every request through Fastify and @fastify/rate-limit.
  const limited = await startTariff(dataDir, { cpu: 0, rateLimit: 1_000_000_000 });
  await new Promise((r) => setTimeout(r, 3000));
  log("## Rate limit on (1e9/min, so never refused): Fastify path vs bare node:http");
  log("| endpoint | Tariff req/s | bare req/s | Tariff / bare | Tariff p50 ms | Tariff p99 ms |");
  log("|---|---:|---:|---:|---:|---:|");
  for (const endpoint of ENDPOINTS.filter((e) => e.path === MODEL)) {
    const r = await compare(limited.base, bareBase, endpoint, etag);
    log(
      `| ${endpoint.name} | ${fmt(r.a.rps)} | ${fmt(r.b.rps)} | ${(r.ratio * 100).toFixed(0)} % | ${ms(r.a.p50)} | ${ms(r.a.p99)} |`,
    );
  }
  await stop(limited.child);
  await stop(tariff.child);

  // 5. --workers.
  if (process.env.BENCH_SKIP_WORKERS !== "1") {
    log("\n## `tariff serve --workers N`, single model, unpinned (autocannon shares the 2 CPUs)");
    log("| workers | req/s | p50 ms | p99 ms |");
    log("|---:|---:|---:|---:|");
    execFileSync("taskset", ["-a", "-p", "-c", "0-1", String(process.pid)], { stdio: "ignore" });
    for (const workers of [1, 2]) {
      const server = await startTariff(dataDir, { cpu: null, workers });
      await new Promise((r) => setTimeout(r, 4000));
      const endpoint = ENDPOINTS[0] as Endpoint;
      await drive(server.base, endpoint, etag, 1);
      const samples: Sample[] = [];
      for (let round = 0; round < ROUNDS; round++) samples.push(await drive(server.base, endpoint, etag, SECONDS));
      log(
        `| ${workers} | ${fmt(median(samples.map((s) => s.rps)))} | ${ms(median(samples.map((s) => s.p50)))} | ${ms(median(samples.map((s) => s.p99)))} |`,
      );
      await stop(server.child);
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  });
