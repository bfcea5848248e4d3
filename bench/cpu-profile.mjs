// Issue 51 by hand (docs/performance.md "CPU per answer (issue 51)"): where the server's CPU goes
// under load on one route, Tariff beside the bare server. Starts the BUILT server (`node --cpu-prof
// build/cli/main.js serve`, the limit on at 10⁹/min, live ingestion off) on a copy of a store and
// `bench/bare-server.ts` (also under --cpu-prof) with Tariff's bytes, both pinned to CPU 0; drives
// the route on each in turn with wrk (1 thread, 64 connections) on CPU 1; stops both and prints,
// for each frame, its self time per answer in µs over the load window only (start-up and shutdown
// left out): the frame's share of the main thread's busy samples × the main thread's CPU time per
// answer (/proc/<pid>/task/<pid>/stat). Shares are what a loaded machine leaves steadiest; the
// absolute µs move with the load (the machine's load average is printed).
// Usage: node bench/cpu-profile.mjs <tariff.db> <route path> [seconds=10] [304] [port=8871]
//   `304` sends the answer's own ETag in If-None-Match. TOP=<n> frames (25).
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { get } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { startArgs, startFlags } from "./start-command.mjs";

const [store, route, secondsArg, mode, portArg] = process.argv.slice(2);
if (!store || !route)
  throw new Error("usage: node bench/cpu-profile.mjs <tariff.db> <route path> [seconds] [304] [port]");
const seconds = Number(secondsArg ?? 10);
const port = Number(portArg ?? 8871);
const dir = mkdtempSync(join(tmpdir(), "tariff-cpuprof-"));
copyFileSync(store, join(dir, "tariff.db"));
const TICK_MS = 1000 / (Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100);

const fetchHead = (base) =>
  new Promise((resolve, reject) =>
    get(`${base}${route}`, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode, etag: String(res.headers.etag ?? "") }));
    }).on("error", reject),
  );

async function waitFor200(base) {
  for (const until = Date.now() + 180_000; ; ) {
    try {
      if ((await fetchHead(base)).status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${base} not ready`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts `node --cpu-prof <args>` on CPU 0, its profile written to its own folder. */
function start(name, args, env) {
  const profDir = join(dir, name);
  mkdirSync(profDir);
  const child = spawn("taskset", ["-c", "0", process.execPath, "--cpu-prof", "--cpu-prof-dir", profDir, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return { name, child, profDir, exited: new Promise((resolve) => child.once("exit", resolve)) };
}

/** The main thread's CPU time so far, ms. */
function mainThreadMs(pid) {
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** Drives `base` for `seconds` after a 2 s warm-up; the window and the main thread's CPU in it. */
function drive(server, base, header) {
  const wrk = (s) =>
    spawnSync("taskset", ["-c", "1", "wrk", "-t1", "-c64", `-d${s}s`, ...header, `${base}${route}`], {
      encoding: "utf8",
    }).stdout;
  wrk(2);
  const cpuBefore = mainThreadMs(server.child.pid);
  const from = performance.now();
  const out = wrk(seconds);
  const to = performance.now();
  const answers = Number(/(\d+) requests in/.exec(out)?.[1]);
  return { from, to, answers, cpuUs: ((mainThreadMs(server.child.pid) - cpuBefore) * 1000) / answers };
}

/** Self samples per frame of a server's main-thread profile within its load window. */
function frames(server, window, exitAt) {
  const file = readdirSync(server.profDir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => JSON.parse(readFileSync(join(server.profDir, f), "utf8")))
    .sort((a, b) => b.samples.length - a.samples.length)[0]; // the main thread's (tsx adds a loader thread)
  const nodes = new Map(file.nodes.map((n) => [n.id, n]));
  const offsetMs = exitAt - file.endTime / 1000; // exit ≈ the profile's end (a few ms of shutdown)
  const self = new Map();
  let busy = 0;
  let t = file.startTime;
  file.samples.forEach((id, i) => {
    t += file.timeDeltas[i] ?? 0;
    const at = t / 1000 + offsetMs;
    if (at < window.from + 500 || at > window.to - 500) return;
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    if (functionName === "(idle)") return;
    busy++;
    const where = url.replace(/^.*\/(build|node_modules|bench)\//, "$1/");
    const key = `${functionName || "(anonymous)"}${where ? ` ${where}:${lineNumber + 1}` : ""}`;
    self.set(key, (self.get(key) ?? 0) + 1);
  });
  const perAnswer = new Map();
  for (const [key, n] of self) perAnswer.set(key, (n / busy) * window.cpuUs);
  return { perAnswer, busy };
}

const startCommand = startArgs(new URL("../package.json", import.meta.url));
const tariff = start("tariff", startCommand, {
  DATA_DIR: dir,
  PORT: String(port),
  HOST: "127.0.0.1",
  RATE_LIMIT_PER_MINUTE: "1000000000",
  INGEST_EVERY: "off",
  LOG_LEVEL: "warn",
});
const tariffBase = `http://127.0.0.1:${port}`;
await waitFor200(tariffBase);
// The version's responses are built in slices after start: let that finish.
await new Promise((r) => setTimeout(r, 8000));
const bareBase = `http://127.0.0.1:${port + 1}`;
const bare = start(
  "bare",
  [...startFlags(startCommand), "--import", "tsx", "bench/bare-server.ts", String(port + 1), tariffBase, route],
  {},
);
await waitFor200(bareBase);
const { etag } = await fetchHead(tariffBase);
const header = mode === "304" ? ["-H", `if-none-match: ${etag}`] : [];
const loadAt = () => (loadavg()[0] ?? 0).toFixed(1);
const loadStart = loadAt();
const tariffWindow = drive(tariff, tariffBase, header);
const bareWindow = drive(bare, bareBase, header);
const loadEnd = loadAt();
const stop = async (server) => {
  server.child.kill("SIGTERM");
  await server.exited;
  return performance.now();
};
const tariffFrames = frames(tariff, tariffWindow, await stop(tariff));
const bareFrames = frames(bare, bareWindow, await stop(bare));
rmSync(dir, { recursive: true, force: true });

const us = (n) => (n === undefined ? "—" : n.toFixed(2));
const sum = (m, test) => [...m].filter(([k]) => test(k)).reduce((a, [, n]) => a + n, 0);
const own = (k) => k.includes(" build/");
process.stdout.write(
  `route ${route}${mode === "304" ? " (304)" : ""}, ${seconds} s each, load average ${loadStart} → ${loadEnd}\n` +
    `main thread CPU per answer: Tariff ${us(tariffWindow.cpuUs)} µs (${tariffWindow.answers} answers, ` +
    `${tariffFrames.busy} busy samples), bare ${us(bareWindow.cpuUs)} µs (${bareWindow.answers} answers, ` +
    `${bareFrames.busy} busy samples); bare ÷ Tariff ${((bareWindow.cpuUs / tariffWindow.cpuUs) * 100).toFixed(0)} %\n` +
    `Tariff's own code (build/**): ${us(sum(tariffFrames.perAnswer, own))} µs per answer; ` +
    `GC: Tariff ${us(tariffFrames.perAnswer.get("(garbage collector)"))}, bare ${us(bareFrames.perAnswer.get("(garbage collector)"))} µs\n\n`,
);
process.stdout.write("| frame (self time) | Tariff µs/answer | bare µs/answer |\n|---|---:|---:|\n");
for (const [key, n] of [...tariffFrames.perAnswer].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 25)))
  process.stdout.write(`| \`${key}\` | ${us(n)} | ${us(bareFrames.perAnswer.get(key))} |\n`);
