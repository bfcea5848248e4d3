import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { Agent, request } from "undici";

/**
 * Issue 26 §3 "Must show", by hand (not a test): what a greedy `/mcp` client costs the server.
 * `tariff serve` (compiled build/) starts on a copy of a replayed store, live ingestion off and
 * no rate limit, then:
 *
 * 1. one POST of a 100-message batch of `tools/call list_models {limit: 500}` (the request that
 *    used to answer 75 MB after 7.8 s of CPU), then the largest batch still answered (4 such
 *    calls) and a lone call: answer bytes and the server's CPU time (utime + stime of
 *    /proc/<pid>/stat, the server otherwise idle);
 * 2. 16 clients sending those POSTs in parallel, `--rounds` each (20 times as many of the refused
 *    100-message batch), while one client polls
 *    `/api/v1/meta` in a closed loop: the poll's p50/p99/max latency and the server's peak RSS
 *    (VmHWM of /proc/<pid>/status);
 * 3. five clients that POST a batch and never read the answer (T197): the server's established
 *    connections on its port (`ss`) right after, and once `--idle-ms` (the server's
 *    IDLE_TIMEOUT_MS) and a second have passed.
 *
 *   npm run build:server
 *   npx tsx bench/mcp-greedy.ts --store <tariff.db of a replayed store> [--port 8841] [--rounds 5]
 *     [--idle-ms 2000]
 *
 * Linux only (reads /proc). Loopback only.
 */

const ROOT = resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    store: { type: "string" },
    port: { type: "string", default: "8841" },
    rounds: { type: "string", default: "5" },
    "idle-ms": { type: "string", default: "2000" },
  },
});
if (!values.store) throw new Error("--store <tariff.db> is required");
const port = Number(values.port);
const rounds = Number(values.rounds);
const base = `http://127.0.0.1:${port}`;
const agent = new Agent({ connections: 64 });

const call = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "list_models", arguments: { limit: 500 } },
});
const batch = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => call(i + 1)));

/** CPU seconds the process has used (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command's ") ".
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function statusKb(pid: number, field: "VmHWM" | "VmRSS"): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.split(/\s+/)[1] ?? Number.NaN);
}

async function post(body: string): Promise<{ status: number; bytes: number }> {
  const res = await request(`${base}/mcp`, {
    method: "POST",
    dispatcher: agent,
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body,
  });
  const bytes = (await res.body.arrayBuffer()).byteLength;
  return { status: res.statusCode, bytes };
}

async function waitUp(server: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (server.exitCode !== null) throw new Error("the server exited");
    try {
      const res = await request(`${base}/api/v1/meta`, { dispatcher: agent });
      await res.body.dump();
      if (res.statusCode === 200) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the server did not start");
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

const dir = mkdtempSync(join(tmpdir(), "tariff-mcp-greedy-"));
copyFileSync(values.store, join(dir, "tariff.db"));
const server = spawn(process.execPath, [join(ROOT, "build/cli/main.js"), "serve"], {
  env: {
    ...process.env,
    DATA_DIR: dir,
    PORT: String(port),
    HOST: "127.0.0.1",
    INGEST_EVERY: "off",
    RATE_LIMIT_PER_MINUTE: "0",
    LOG_LEVEL: "warn",
    IDLE_TIMEOUT_MS: String(values["idle-ms"]),
  },
  stdio: ["ignore", "ignore", "inherit"],
});
try {
  await waitUp(server);
  const pid = server.pid as number;
  // Warm up: the SDK and the tools load on the first /mcp request (T134).
  await post(batch(1));
  for (const n of [100, 4, 1]) {
    const before = cpuSeconds(pid);
    const answer = await post(batch(n));
    const cpuMs = Math.round((cpuSeconds(pid) - before) * 1000);
    console.log(`batch of ${n}: HTTP ${answer.status}, ${answer.bytes} bytes, server CPU ${cpuMs} ms`);
  }
  for (const n of [100, 4]) {
    const latencies: number[] = [];
    let done = false;
    const poll = (async () => {
      while (!done) {
        const t = performance.now();
        const res = await request(`${base}/api/v1/meta`, { dispatcher: agent });
        await res.body.dump();
        latencies.push(performance.now() - t);
      }
    })();
    const statuses = new Map<number, number>();
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        // A refused batch costs little: send more of them, for a sample of /meta polls worth its p99.
        for (let r = 0; r < (n > 4 ? rounds * 20 : rounds); r++) {
          const a = await post(batch(n));
          statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    done = true;
    await poll;
    const sorted = latencies.sort((a, b) => a - b);
    console.log(
      `16 clients × ${n > 4 ? rounds * 20 : rounds} batches of ${n} in ${seconds.toFixed(1)} s (statuses ${JSON.stringify([...statuses])}): ` +
        `/meta ${sorted.length} polls, p50 ${percentile(sorted, 50).toFixed(1)} ms, ` +
        `p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted.at(-1)?.toFixed(1)} ms; ` +
        `server peak RSS ${Math.round(statusKb(pid, "VmHWM") / 1024)} MB (now ${Math.round(statusKb(pid, "VmRSS") / 1024)} MB)`,
    );
  }
  const established = () =>
    execFileSync("ss", ["-Htn", "state", "established", `( sport = :${port} )`], { encoding: "utf8" })
      .split("\n")
      .filter((l) => l.trim() !== "").length;
  const body = batch(4);
  // The pool's idle keep-alive connections of the phases above stay open (KEEP_ALIVE_TIMEOUT_MS): counted apart.
  const pooled = established();
  const sockets = Array.from({ length: 5 }, () => {
    const socket = connect(port, "127.0.0.1");
    socket.pause(); // never reads
    socket.on("error", () => {});
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        `Accept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    return socket;
  });
  await new Promise((r) => setTimeout(r, 500));
  const before = established() - pooled;
  const rssBefore = Math.round(statusKb(pid, "VmRSS") / 1024);
  await new Promise((r) => setTimeout(r, Number(values["idle-ms"]) + 1500));
  console.log(
    `5 clients that never read: ${before} of their connections established after 0.5 s (server RSS ` +
      `${rssBefore} MB), ${established() - pooled} once IDLE_TIMEOUT_MS + 1 s passed (server RSS ` +
      `${Math.round(statusKb(pid, "VmRSS") / 1024)} MB)`,
  );
  for (const socket of sockets) socket.destroy();
} finally {
  server.kill("SIGTERM");
  await new Promise((r) => server.once("exit", r));
  await agent.close();
  rmSync(dir, { recursive: true, force: true });
}
