// Issue 26 §4, §5 by hand (docs/performance.md "Issue 26 §4, §5"): starts the BUILT server
// (`node build/cli/main.js serve`) on a copy of a store and measures
//  (a) server CPU of 1,000 `/models?limit=500&junk=<random>` vs 1,000 of the same URL without junk,
//  (b) the worst delay of `/meta` requests sent every 5 ms while the first `at=` question runs,
//  (c) the server's RSS before and after that first `at=` question.
// Usage: node bench/issue-26-load.mjs <DATA_DIR holding tariff.db> [port]
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";

const dataDir = process.argv[2];
const port = Number(process.argv[3] ?? 18926);
if (!dataDir) throw new Error("usage: node bench/issue-26-load.mjs <DATA_DIR> [port]");
const child = spawn(process.execPath, ["build/cli/main.js", "serve"], {
  env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), INGEST_EVERY: "off", RATE_LIMIT_PER_MINUTE: "0" },
  stdio: ["ignore", "ignore", "pipe"],
});
await new Promise((resolve, reject) => {
  child.stderr.on("data", (d) => {
    if (String(d).includes("serving dataset")) resolve();
  });
  child.on("exit", (code) => reject(new Error(`server exited ${code}`)));
});
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
const get = (path) =>
  new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get({ host: "127.0.0.1", port, path, agent, headers: { "accept-encoding": "br, gzip" } }, (res) => {
        let bytes = 0;
        res.on("data", (c) => (bytes += c.length));
        res.on("end", () => resolve({ status: res.statusCode, bytes, ms: performance.now() - started }));
      })
      .on("error", reject);
  });
const ticks = () => {
  const f = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1].split(" ");
  return Number(f[11]) + Number(f[12]); // utime + stime, clock ticks (100/s)
};
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))[1]) / 1024;
async function many(n, path, concurrency = 4) {
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const r = await get(path(i));
      if (r.status !== 200) throw new Error(`${path(i)}: ${r.status}`);
    }
  };
  const t0 = ticks();
  const w0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { cpuS: (ticks() - t0) / 100, wallS: (performance.now() - w0) / 1000 };
}
try {
  await get("/api/v1/meta");
  await get("/api/v1/models?limit=500"); // rendered once, warm for both runs
  const plain = await many(1000, () => "/api/v1/models?limit=500");
  const junk = await many(1000, () => `/api/v1/models?limit=500&junk=${Math.random().toString(36).slice(2)}`);
  console.log(`(a) 1000 × /models?limit=500: CPU ${plain.cpuS.toFixed(2)} s (${plain.wallS.toFixed(1)} s wall)`);
  console.log(
    `(a) 1000 × /models?limit=500&junk=<random>: CPU ${junk.cpuS.toFixed(2)} s (${junk.wallS.toFixed(1)} s wall)`,
  );
  await new Promise((r) => setTimeout(r, 500));
  const rssBefore = rssMb();
  let done = false;
  let worst = 0;
  let metas = 0;
  const at = get("/api/v1/models/deepseek/deepseek-chat?at=2025-09-15").then((r) => {
    done = true;
    return r;
  });
  while (!done) {
    const m = await get("/api/v1/meta");
    metas++;
    worst = Math.max(worst, m.ms);
    await new Promise((r) => setTimeout(r, 5));
  }
  const first = await at;
  console.log(
    `(b) first at= question: ${first.status} in ${first.ms.toFixed(0)} ms; worst /meta of ${metas} meanwhile ${worst.toFixed(1)} ms`,
  );
  const second = await get("/api/v1/compare?models=openai/gpt-4o,deepseek/deepseek-chat&at=2025-10-15");
  console.log(`    a second at= (another version): ${second.status} in ${second.ms.toFixed(0)} ms`);
  global.gc?.();
  await new Promise((r) => setTimeout(r, 1000));
  console.log(`(c) RSS before the first at=: ${rssBefore.toFixed(0)} MB; after: ${rssMb().toFixed(0)} MB`);
  console.log(`load average: ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
} finally {
  child.kill("SIGTERM");
  agent.destroy();
}
