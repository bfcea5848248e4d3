import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { Agent, request } from "undici";
import { startRecordedUpstream } from "../test/recorded-upstream.js";

/**
 * Issue 27 "Must show": a live run during a 60 s load test costs no 5xx and no request above
 * 100 ms beyond the run's publish (T229). `tariff serve` (compiled build/, live by default) starts
 * on a copy of the bundled replay with its upstreams at a local server of the newest recorded
 * payloads (test/recorded-upstream.ts), so its first live run publishes a new version while
 * closed-loop clients keep asking a mix of endpoints. Every request's start, duration and status
 * is kept; the run's stages come from the server's JSON log (LOG_LEVEL=debug: the worker thread's
 * `live run stage` lines, T150, and `serving a new dataset version` once the view is swapped).
 * "The run's publish" is the window from the `publishing` stage to the swap; a request above
 * 100 ms is counted inside or outside it.
 *
 *   npm run build:server
 *   npx tsx bench/live-load.ts [--store <tariff.db of the bundled replay>] [--port 8831]
 *     [--seconds 60] [--connections 8] [--rate 400 (requests/s; 0 = closed loop)] [--warmup 3]
 *     [--baseline (the same load with live ingestion off)]
 *
 * The clients send at a fixed rate (open loop), the load a server is sized for, so the live run's
 * thread shares the machine with a busy server rather than a saturated one; `--rate 0` saturates.
 * Requests of the first `--warmup` seconds (a fresh process builds its responses, T52) are
 * reported apart.
 *
 * Without --store, the bundled snapshots are replayed first (a minute or more). Loopback only.
 */

const ROOT = resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    store: { type: "string" },
    port: { type: "string", default: "8831" },
    seconds: { type: "string", default: "60" },
    connections: { type: "string", default: "8" },
    rate: { type: "string", default: "400" },
    warmup: { type: "string", default: "3" },
    baseline: { type: "boolean", default: false },
  },
});
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
/** Requests per second, all clients together (0: closed loop, as fast as the server answers). */
const RATE = Number(values.rate);
/** Seconds at the start whose requests are reported apart (a fresh process builds its responses, T52). */
const WARMUP = Number(values.warmup);
const PORT = Number(values.port);
const SLOW_MS = 100;

const PATHS = [
  "/api/v1/meta",
  "/api/v1/models?limit=50",
  "/api/v1/models/anthropic/claude-opus-4-0",
  "/api/v1/models/openai/gpt-4o?channel=reseller_1",
  "/api/v1/changes",
  "/api/v1/changes?since=2026-05-01T00:00:00.000Z&limit=50",
  "/api/v1/sources",
  "/api/v1/rates?provider=openai,anthropic",
  "/api/v1/models/search?q=claude",
  "/api/v1/compare?models=openai/gpt-4o,anthropic/claude-sonnet-4-5",
  "/api/v1/models/google/gemini-2.5-pro/history",
];

interface Sample {
  readonly start: number;
  readonly ms: number;
  readonly status: number;
  readonly path: string;
}

function node(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
}

async function replayInto(dir: string): Promise<void> {
  process.stderr.write("bench: replaying the bundled snapshots (no --store given)…\n");
  const child = node(["build/cli/main.js", "ingest", "--snapshots", "data/upstream"], {
    DATA_DIR: dir,
    LOG_LEVEL: "warn",
  });
  const code = await new Promise<number | null>((r) => child.on("exit", r));
  if (code !== 0) throw new Error(`the replay failed (exit ${code})`);
}

const dir = mkdtempSync(join(tmpdir(), "tariff-live-load-"));
const upstream = await startRecordedUpstream();
let server: ChildProcess | null = null;
try {
  if (!existsSync(join(ROOT, "build/cli/main.js"))) throw new Error("run `npm run build:server` first");
  if (values.store) copyFileSync(values.store, join(dir, "tariff.db"));
  else await replayInto(dir);

  const events: { time: number; msg: string; stage?: string; loadMs?: number; datasetVersion?: string }[] = [];
  const plain: string[] = [];
  server = node(["build/cli/main.js", "serve"], {
    DATA_DIR: dir,
    PORT: String(PORT),
    HOST: "127.0.0.1",
    // The D24 limiter stays on the request path, with a limit no client here reaches.
    RATE_LIMIT_PER_MINUTE: "100000000",
    LOG_LEVEL: "debug",
    ...upstream.env(),
    // --baseline: the same load without a live run, to tell the run's cost from the machine's.
    ...(values.baseline ? { INGEST_EVERY: "off" } : {}),
  });
  let buffered = "";
  const listening = new Promise<void>((resolveListening, reject) => {
    server!.on("exit", (code) => reject(new Error(`tariff serve exited (${code}): ${plain.join("\n")}`)));
    server!.stderr!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      let nl = buffered.indexOf("\n");
      while (nl >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        nl = buffered.indexOf("\n");
        if (line.startsWith("{")) events.push(JSON.parse(line));
        else {
          plain.push(line);
          if (/stops the server/.test(line)) resolveListening();
        }
      }
    });
  });
  await listening;
  const base = `http://127.0.0.1:${PORT}`;

  const agent = new Agent({ connections: CONNECTIONS, pipelining: 1 });
  const samples: Sample[] = [];
  const begin = Date.now();
  const until = begin + SECONDS * 1000;
  let next = 0;
  const interval = RATE > 0 ? (CONNECTIONS * 1000) / RATE : 0;
  const client = async (i: number) => {
    let due = begin + (interval * i) / CONNECTIONS;
    while (Date.now() < until) {
      if (interval > 0) {
        const wait = due - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        due += interval;
      }
      const path = PATHS[next++ % PATHS.length]!;
      const start = performance.timeOrigin + performance.now();
      let status = 0;
      try {
        const res = await request(`${base}${path}`, { dispatcher: agent, headers: { "accept-encoding": "gzip" } });
        status = res.statusCode;
        await res.body.arrayBuffer();
      } catch {
        status = -1; // a connection error counts as a failure, like a 5xx
      }
      samples.push({ start, ms: performance.timeOrigin + performance.now() - start, status, path });
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => client(i)));
  await agent.close();

  const stage = (name: string) => events.find((e) => e.msg === "live run stage" && e.stage === name)?.time ?? null;
  const swapped = events.find((e) => e.msg === "serving a new dataset version");
  const started = events.find((e) => e.msg === "live run started")?.time ?? null;
  const publishing = stage("publishing");
  const windowStart = publishing;
  const windowEnd = swapped?.time ?? null;
  const inPublish = (s: Sample) =>
    windowStart !== null && windowEnd !== null && s.start <= windowEnd && s.start + s.ms >= windowStart;
  const inRun = (s: Sample) =>
    started !== null && publishing !== null && s.start + s.ms >= started && s.start <= publishing;
  const warm = (s: Sample) => s.start >= begin + WARMUP * 1000;
  const warmup = samples.filter((s) => !warm(s));
  const slow = samples.filter((s) => warm(s) && s.ms > SLOW_MS);
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]?.toFixed(1);
  const during = samples
    .filter(inRun)
    .map((s) => s.ms)
    .sort((a, b) => a - b);
  const report = {
    seconds: SECONDS,
    connections: CONNECTIONS,
    targetRate: RATE > 0 ? RATE : "closed loop",
    requests: samples.length,
    perSecond: Math.round(samples.length / SECONDS),
    status: Object.fromEntries(
      [...new Set(samples.map((s) => s.status))]
        .sort()
        .map((code) => [code, samples.filter((s) => s.status === code).length]),
    ),
    fiveXxOrErrors: samples.filter((s) => s.status >= 500 || s.status < 0).length,
    latencyMs: { p50: pct(50), p99: pct(99), p999: pct(99.9), max: sorted.at(-1)?.toFixed(1) },
    liveRun: {
      published: swapped?.datasetVersion ?? null,
      runMs: started !== null && publishing !== null ? publishing - started : null,
      publishWindowMs: windowStart !== null && windowEnd !== null ? windowEnd - windowStart : null,
      viewLoadMs: swapped?.loadMs ?? null,
      requestsDuringRunBeforePublish: during.length,
      maxMsDuringRunBeforePublish: during.at(-1)?.toFixed(1) ?? null,
    },
    warmup: {
      seconds: WARMUP,
      requests: warmup.length,
      above100ms: warmup.filter((s) => s.ms > SLOW_MS).length,
      maxMs: Math.max(0, ...warmup.map((s) => s.ms)).toFixed(1),
    },
    above100ms: {
      total: slow.length,
      duringPublish: slow.filter(inPublish).length,
      beyondPublish: slow.filter((s) => !inPublish(s)).length,
      beyondPublishSamples: slow
        .filter((s) => !inPublish(s))
        .slice(0, 10)
        .map((s) => ({
          path: s.path,
          ms: Math.round(s.ms),
          atSecond: Math.round((s.start - (until - SECONDS * 1000)) / 1000),
        })),
    },
    machine: { loadavg: loadavg().map((l) => l.toFixed(2)), note: "indicative: the machine is shared" },
    startLog: plain.filter((l) => /live/.test(l)),
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  if (!swapped && !values.baseline)
    process.stderr.write("bench: the live run did not publish within the load test; use --seconds 120\n");
} finally {
  if (server && server.exitCode === null) {
    server.kill("SIGINT");
    await new Promise((r) => server!.once("exit", r));
  }
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
}
