// Issue 33 §5 (docs/performance.md "Issue 33 §5: a publish without a pause"): serves a copy of a
// SQLite store, sends `/api/v1/models/openai/gpt-4o` (and a few other URLs) at N connections with
// autocannon for D seconds, and runs `tariff ingest --snapshots <dir>` once per given folder, spread
// over the run: each publishes one more version, which the server loads and swaps in.
// Prints every request's latency split into "in a publish window" (from the ingest's start to 1 s
// after the server logged the swap) and "outside", the 5xx count, and the server's longest
// event-loop block (monitorEventLoopDelay, bench/loop-delay-probe.mjs) per window.
// Usage: [BENCH_PORT=<port>] node bench/publish-pause.mjs <store dir holding tariff.db> <seconds> <connections> <snapshots dir>...
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";

const [base, secondsArg, connectionsArg, ...publishes] = process.argv.slice(2);
if (!base || !secondsArg || publishes.length === 0)
  throw new Error("usage: node bench/publish-pause.mjs <store dir> <seconds> <connections> <snapshots dir>...");
const seconds = Number(secondsArg);
const connections = Number(connectionsArg ?? 64);
const port = Number(process.env.BENCH_PORT ?? 18933);
const dataDir = mkdtempSync(join(tmpdir(), "publish-pause-"));
cpSync(join(base, "tariff.db"), join(dataDir, "tariff.db"));
const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), INGEST_EVERY: "off", RATE_LIMIT_PER_MINUTE: "0" };
const tsx = ["--import", "tsx", "--import", new URL("./loop-delay-probe.mjs", import.meta.url).pathname];
const extra = (process.env.SERVER_FLAGS ?? "").split(" ").filter(Boolean); // e.g. --trace-gc
const server = spawn(process.execPath, [...extra, ...tsx, "src/cli/main.ts", "serve"], {
  env,
  stdio: ["ignore", "pipe", "pipe"],
});
let started = Date.now();
const loop = []; // { t, maxMs, cpuMs }
const swaps = []; // t of "serving a new dataset version"
let out = "";
const onLine = (line) => {
  if (line.startsWith("loop-delay ")) loop.push(JSON.parse(line.slice(11)));
  else if (/Mark-Compact|Scavenge/.test(line) && Number(/, ([\d.]+) \/ [\d.]+ ms/.exec(line)?.[1] ?? 0) > 40)
    process.stderr.write(`${((Date.now() - started) / 1000).toFixed(1)} s ${line}\n`);
  else if (line.includes("serving a new dataset version")) {
    swaps.push(Date.now());
    process.stderr.write(`${line}\n`);
  }
};
for (const stream of [server.stdout, server.stderr]) {
  let rest = "";
  stream.on("data", (d) => {
    const lines = (rest + d).split("\n");
    rest = lines.pop() ?? "";
    for (const l of lines) {
      out += `${l}\n`;
      onLine(l);
    }
  });
}
await new Promise((resolve, reject) => {
  const timer = setInterval(() => {
    if (out.includes("serving dataset") || out.includes("listening")) {
      clearInterval(timer);
      resolve();
    }
  }, 100);
  server.on("exit", (code) => reject(new Error(`server exited ${code}\n${out}`)));
});
// A few seconds of the same load first: the server's first requests compile its code (not measured).
await autocannon({
  url: `http://127.0.0.1:${port}`,
  connections,
  duration: 3,
  requests: [{ method: "GET", path: "/api/v1/meta" }],
});
started = Date.now();
// Every response as (end time ms, latency ms, status) in typed chunks, not 4 M small arrays: a
// major GC of those in this process delayed autocannon's own reads, and the requests it was reading
// then measured over 100 ms while the server's loop was never blocked for more than 45 ms.
const CHUNK = 1 << 20;
const chunks = [];
let filled = CHUNK;
const record = (t, ms, status) => {
  if (filled === CHUNK) {
    chunks.push({ t: new Float64Array(CHUNK), ms: new Float32Array(CHUNK), status: new Uint16Array(CHUNK), n: 0 });
    filled = 0;
  }
  const c = chunks[chunks.length - 1];
  c.t[filled] = t;
  c.ms[filled] = ms;
  c.status[filled] = status;
  c.n = ++filled;
};
const windows = []; // [start, end] of each publish
const paths = ["/api/v1/models/openai/gpt-4o", "/api/v1/models/anthropic/claude-sonnet-4-0", "/api/v1/meta"];
const run = autocannon({
  url: `http://127.0.0.1:${port}`,
  connections,
  duration: seconds,
  requests: paths.map((path) => ({ method: "GET", path })),
  setupClient(client) {
    client.on("response", (status, _bytes, ms) => record(Date.now(), ms, status));
  },
});
// One publish after the other, the i-th starting at i/(n+1) of the run at the earliest.
const publishing = (async () => {
  for (const [i, dir] of publishes.entries()) {
    const at = started + ((i + 1) * seconds * 1000) / (publishes.length + 1);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
    const from = Date.now();
    const before = swaps.length;
    const ingest = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "ingest", "--snapshots", dir], {
      env,
      stdio: "ignore",
    });
    await new Promise((resolve) => ingest.on("exit", resolve));
    while (swaps.length === before) await new Promise((resolve) => setTimeout(resolve, 50));
    windows.push([from, swaps[before] + 1000]);
  }
})();
const result = await run;
await publishing;
server.kill("SIGTERM");
const inWindow = (t) => windows.some(([a, b]) => t >= a && t <= b);
const samples = chunks.flatMap((c) => Array.from({ length: c.n }, (_, i) => [c.t[i], c.ms[i], c.status[i]]));
const stats = (rows) => {
  const ms = rows.map((r) => r[1]).sort((a, b) => a - b);
  const q = (p) => (ms.length ? ms[Math.min(ms.length - 1, Math.floor(p * ms.length))].toFixed(1) : "-");
  return `${ms.length} requests, p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${q(1)} ms, >100 ms: ${ms.filter((m) => m > 100).length}`;
};
const outside = samples.filter((s) => !inWindow(s[0]));
const inside = samples.filter((s) => inWindow(s[0]));
const maxLoop = (rows) => Math.max(0, ...rows.filter((r) => r.t >= started).map((r) => r.maxMs)).toFixed(1);
console.log(
  `${connections} connections, ${seconds} s, ${publishes.length} publish(es); uptime: ${readFileSync("/proc/loadavg", "utf8").trim()}`,
);
console.log(
  `all: ${result.requests.total} requests, ${result["2xx"]} 2xx, ${result["5xx"]} 5xx, ${result.errors} errors, ${result.timeouts} timeouts`,
);
console.log(
  `outside the publishes: ${stats(outside)}; longest loop block ${maxLoop(loop.filter((l) => !inWindow(l.t)))} ms`,
);
console.log(
  `in the publishes:      ${stats(inside)}; longest loop block ${maxLoop(loop.filter((l) => inWindow(l.t)))} ms`,
);
for (const l of loop.filter((r) => r.t >= started && r.maxMs > 100))
  console.log(
    `loop block ${l.maxMs.toFixed(0)} ms at ${((l.t - started) / 1000).toFixed(1)} s, the process had ${l.cpuMs.toFixed(0)} ms CPU in that 500 ms`,
  );
const slowOutside = outside.filter((s) => s[1] > 100).map((s) => ((s[0] - started) / 1000).toFixed(0));
console.log(
  `requests over 100 ms outside, per second of the run: ${JSON.stringify(Object.fromEntries(slowOutside.map((k) => [k, slowOutside.filter((x) => x === k).length])))}`,
);
for (const [a, b] of windows)
  console.log(`publish window ${((a - started) / 1000).toFixed(1)}–${((b - started) / 1000).toFixed(1)} s`);
console.log(
  `5xx outside: ${outside.filter((s) => s[2] >= 500).length}, inside: ${inside.filter((s) => s[2] >= 500).length}`,
);
