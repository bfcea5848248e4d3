// Issue 47 §2 (docs/performance.md "Past days off the hot path"): starts the BUILT server
// (`node build/cli/main.js serve`, live ingestion off) on a copy of a store and measures
//  (a) one client asking distinct past-day price-file exports at 5 requests/s for D seconds while
//      another client asks `/meta` every 20 ms: `/meta`'s p50 / p99 / max, the exports' statuses;
//  (b) the server's RSS before, after and at its peak (VmHWM) over 3,000 distinct
//      `/models?limit=500&at=…` requests, parameters in shuffled orders with an ignored one, 4 at a time.
// The rate limit is off unless RATE_LIMIT_PER_MINUTE is set (then part (a)'s client is refused once
// it has spent its points, T472). Prints `uptime`'s load average with each part: the machine is shared.
// Usage: [SERVER_LOG=<file>] [LISTED_DAYS=150] [SKIP_LISTS=1] node bench/past-days.mjs <DATA_DIR holding tariff.db> [port] [seconds]
import { spawn } from "node:child_process";
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [base, portArg, secondsArg] = process.argv.slice(2);
if (!base) throw new Error("usage: node bench/past-days.mjs <DATA_DIR> [port] [seconds]");
const port = Number(portArg ?? 18947);
const seconds = Number(secondsArg ?? 60);
const dataDir = mkdtempSync(join(tmpdir(), "past-days-"));
cpSync(join(base, "tariff.db"), join(dataDir, "tariff.db"));
const limit = process.env.RATE_LIMIT_PER_MINUTE ?? "0";
const probe = new URL("./loop-delay-probe.mjs", import.meta.url).pathname;
const child = spawn(process.execPath, ["--import", probe, "build/cli/main.js", "serve"], {
  env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), INGEST_EVERY: "off", RATE_LIMIT_PER_MINUTE: limit },
  stdio: ["ignore", "ignore", "pipe"],
});
// The server's log (a worker that stopped is a warn line) goes to SERVER_LOG when set.
// The longest event-loop block of each 500 ms (bench/loop-delay-probe.mjs) with the main thread's CPU in it.
const serverLog = process.env.SERVER_LOG;
const loop = [];
let rest = "";
await new Promise((resolve, reject) => {
  child.stderr.on("data", (d) => {
    const lines = (rest + d).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) {
      if (line.startsWith("loop-delay ")) loop.push(JSON.parse(line.slice(11)));
      else if (serverLog) appendFileSync(serverLog, `${line}\n`);
    }
    if (String(d).includes("serving dataset")) resolve();
  });
  child.on("exit", (code) => reject(new Error(`server exited ${code}`)));
});
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const status = (field) =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))[1]) / 1024;
/** One GET on its own keep-alive agent; resolves to status and ms (the body read in full). */
const getter = (agent, from) => (path) =>
  new Promise((resolve) => {
    const started = performance.now();
    http
      .get(
        { host: "127.0.0.1", port, path, agent, headers: { "accept-encoding": "br, gzip", "x-forwarded-for": from } },
        (res) => {
          res.on("data", () => {});
          res.on("end", () => resolve({ status: res.statusCode, ms: performance.now() - started }));
        },
      )
      .on("error", () => resolve({ status: 0, ms: performance.now() - started }));
  });
const quantiles = (ms) => {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p) => (s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))].toFixed(1) : "-");
  return `p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${q(1)} ms (${s.length})`;
};
const day = (i) => new Date(Date.UTC(2025, 6, 1) + i * 86_400_000).toISOString().slice(0, 10);
const EXPORTS = [
  "/api/v1/exports/litellm/model_prices_and_context_window.json",
  "/api/v1/exports/models-dev/api.json",
  "/api/v1/exports/genai-prices/data.json",
];

// Warm-up: today's answers, not measured.
const meta = getter(new http.Agent({ keepAlive: true, maxSockets: 1 }), "10.0.0.2");
for (let i = 0; i < 50; i++) await meta("/api/v1/meta");
console.log(`rate limit ${limit}/min; RSS after start ${status("VmRSS").toFixed(0)} MB; load ${load()}`);

// (a) 5 requests/s of distinct past days (a shuffled walk over 330 days × 3 exports) against /meta.
const exporter = getter(new http.Agent({ keepAlive: true, maxSockets: 16 }), "10.0.0.1");
const order = Array.from({ length: 330 * 3 }, (_, i) => i).sort(() => Math.random() - 0.5);
const metaMs = [];
const exportMs = [];
const statuses = {};
let stop = false;
const from = Date.now();
const metaLoop = (async () => {
  while (!stop) {
    const started = performance.now();
    metaMs.push((await meta("/api/v1/meta")).ms);
    await new Promise((r) => setTimeout(r, Math.max(0, 20 - (performance.now() - started))));
  }
})();
const asked = [];
for (let n = 0; n < seconds * 5; n++) {
  const i = order[n % order.length];
  asked.push(
    exporter(`${EXPORTS[i % 3]}?at=${day(Math.floor(i / 3))}`).then((r) => {
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      exportMs.push(r.ms);
    }),
  );
  await new Promise((r) => setTimeout(r, 200));
}
await Promise.all(asked);
stop = true;
await metaLoop;
console.log(`(a) ${seconds * 5} distinct past-day exports at 5/s for ${seconds} s; load ${load()}`);
console.log(
  `    /meta every 20 ms meanwhile: ${quantiles(metaMs)}, over 50 ms: ${metaMs.filter((m) => m > 50).length}`,
);
console.log(`    exports: ${quantiles(exportMs)}; statuses ${JSON.stringify(statuses)}`);
console.log(`    RSS ${status("VmRSS").toFixed(0)} MB, peak ${status("VmHWM").toFixed(0)} MB`);
const blocks = loop.filter((l) => l.t >= from);
const worst = blocks.reduce((a, b) => (b.maxMs > a.maxMs ? b : a), { maxMs: 0, mainCpuMs: 0, cpuMs: 0 });
console.log(
  `    longest event-loop block ${worst.maxMs.toFixed(0)} ms (main thread CPU in its 500 ms: ${worst.mainCpuMs} ms, ` +
    `process ${worst.cpuMs.toFixed(0)} ms); 500 ms windows with a block over 50 ms: ${blocks.filter((l) => l.maxMs > 50).length} ` +
    `of ${blocks.length}, with the main thread busy over 50 ms in them: ${blocks.filter((l) => l.maxMs > 50 && l.mainCpuMs > 50).length}`,
);
if (process.env.SKIP_LISTS) {
  child.kill("SIGTERM");
  await new Promise((r) => child.on("exit", r));
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}

// (b) 3,000 distinct `/models?limit=500&at=…` URLs over LISTED_DAYS days (each day one render,
// T198), parameters shuffled, 4 at a time.
const LISTED_DAYS = Number(process.env.LISTED_DAYS ?? 150);
const lister = getter(new http.Agent({ keepAlive: true, maxSockets: 4 }), "10.0.0.3");
const before = status("VmRSS");
const listed = {};
let next = 0;
const worker = async () => {
  while (next < 3000) {
    const n = next++;
    const params = [`limit=500`, `at=${day(n % LISTED_DAYS)}`, `n=${n}`].sort(() => Math.random() - 0.5);
    const r = await lister(`/api/v1/models?${params.join("&")}`);
    listed[r.status] = (listed[r.status] ?? 0) + 1;
  }
};
await Promise.all([worker(), worker(), worker(), worker()]);
console.log(
  `(b) 3,000 distinct /models?limit=500&at=… (${LISTED_DAYS} days, shuffled order, an ignored parameter); load ${load()}`,
);
console.log(
  `    statuses ${JSON.stringify(listed)}; RSS ${before.toFixed(0)} → ${status("VmRSS").toFixed(0)} MB, peak ${status("VmHWM").toFixed(0)} MB`,
);
child.kill("SIGTERM");
await new Promise((r) => child.on("exit", r));
rmSync(dataDir, { recursive: true, force: true });
