#!/usr/bin/env node
// The docs, run as written from a fresh clone (issue 38 §6 Must show, T355).
//
//   node docs/checks/docs-as-written.mjs [repository]     (default: the checkout holding this script)
//
// Clones the repository into a temporary folder and runs there, in order and exactly as written, the
// command lines of the README's running, CLI and price-file sections, then those of docs/deploy.md
// (the lines `test/live-docs-commands.test.ts` runs, read by the same code: docs-commands.mjs). Nothing
// is substituted: `npm install` installs from the registry, `npm start` replays the bundled 12 months
// into an empty per-user data folder (HOME is a throwaway folder, so that folder starts empty) and
// fetches the live upstreams, servers listen on port 8787 as written, curl asks them. The one thing
// kept from this machine is npm's own configuration and download cache (`npm_config_userconfig`,
// `npm_config_cache`): what a reader's npm has, whatever their HOME. Servers (`npm start`,
// `… serve …`) run in the background until their start log's last line, the next lines are run
// against them, then they get Ctrl-C (SIGINT to their process group, as a terminal sends it) and
// must be gone within STOP_SECONDS, having said "tariff: stopped" once.
// Prints PASS/FAIL/SKIP and seconds per line; exits 1 on any FAIL (the clone is then kept).
import { execFileSync, spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { documentedLines, isServerLine, READY, SKIPPED, STOPPED_LINE } from "./docs-commands.mjs";

const REPOSITORY = resolve(process.argv[2] ?? join(import.meta.dirname, "..", ".."));
/** The port the docs write (README "Run it", docs/deploy.md). */
const PORT = 8787;
/** A first start replays 12 months of snapshots before it serves: minutes on a loaded machine. */
const READY_MINUTES = 30;
/** A command that is not a server (npm install compiles better-sqlite3 where no prebuilt binary fits). */
const COMMAND_MINUTES = 20;
/** Ctrl-C must end a server within this. */
const STOP_SECONDS = 10;
/** Variables that would place the store, the port or the upstreams elsewhere than the docs say. */
const PLACE =
  /^(DATA_DIR|SNAPSHOTS_DIR|DATABASE_URL|REDIS_URL|XDG_DATA_HOME|PORT|HOST|INGEST_EVERY|LOG_LEVEL|SOURCE_URL_.*|npm_.*)$/;

/** @type {{ status: "PASS" | "FAIL" | "SKIP"; seconds: number | null; line: string; note: string }[]} */
const rows = [];

/**
 * @param {"PASS" | "FAIL" | "SKIP"} status
 * @param {number | null} seconds
 * @param {string} line
 * @param {string} [note]
 */
function row(status, seconds, line, note = "") {
  rows.push({ status, seconds, line, note });
  const time = seconds === null ? "" : `${seconds.toFixed(1)}s`;
  console.log(`${status.padEnd(4)} ${time.padStart(7)}  ${line}${note ? `  — ${note}` : ""}`);
}

/** Seconds since `t0` (ms). @param {number} t0 */
const since = (t0) => (Date.now() - t0) / 1000;

/** Whether nothing listens on the port, on any interface. @param {number} port */
function portFree(port) {
  return new Promise((done) => {
    const probe = createServer();
    probe.once("error", () => done(false));
    probe.listen(port, "0.0.0.0", () => probe.close(() => done(true)));
  });
}

/** The last lines of a text, for a FAIL's note. @param {string} text @param {number} [n] */
function tail(text, n = 6) {
  return text.trimEnd().split("\n").slice(-n).join("\n      ");
}

const work = mkdtempSync(join(tmpdir(), "tariff-docs-as-written-"));
const clone = join(work, "clone");
const home = join(work, "home");
const logs = join(work, "logs");
mkdirSync(home);
mkdirSync(logs);

// HOME is new so the per-user data folder starts empty; npm keeps this machine's configuration (its
// user config file: registry, `nodedir` for compiling better-sqlite3 offline, …) and download cache.
const npmConfig = (/** @type {string} */ key) =>
  execFileSync("npm", ["config", "get", key], { encoding: "utf8" }).trim();
const npmCache = npmConfig("cache");
const npmUserConfig = npmConfig("userconfig");
/** @type {NodeJS.ProcessEnv} */
const env = { HOME: home, npm_config_cache: npmCache, npm_config_userconfig: npmUserConfig };
for (const [name, value] of Object.entries(process.env)) if (!PLACE.test(name) && name !== "HOME") env[name] = value;

execFileSync("git", ["clone", "--quiet", REPOSITORY, clone]);
const commit = execFileSync("git", ["-C", clone, "log", "-1", "--format=%h %cs %s"], { encoding: "utf8" }).trim();
console.log(`docs as written: ${new Date().toISOString()}, node ${process.version}`);
console.log(`clone of ${REPOSITORY} at ${commit}`);
console.log(`in ${clone}; HOME=${home}; npm config ${npmUserConfig}, cache ${npmCache}\n`);

let logCount = 0;
/** A new log file for a command's output. */
function logFile() {
  logCount += 1;
  return join(logs, `${String(logCount).padStart(2, "0")}.log`);
}

/**
 * Runs a line with `sh -c` in the clone to its end.
 * @param {string} line
 * @returns {Promise<{ code: number | null; stdout: string; stderr: string; log: string }>}
 */
function runLine(line) {
  return new Promise((done) => {
    const log = logFile();
    const out = createWriteStream(log);
    const child = spawn("sh", ["-c", line], { cwd: clone, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => {
      stdout += c;
      out.write(c);
    });
    child.stderr.on("data", (c) => {
      stderr += c;
      out.write(c);
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), COMMAND_MINUTES * 60_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      out.end();
      done({ code, stdout, stderr, log });
    });
  });
}

/**
 * @typedef {{ line: string; child: import("node:child_process").ChildProcess; output: () => string;
 *   closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }> }} Server
 */

/**
 * Starts a server line in the background (its own process group, as a terminal's foreground job) and
 * waits for its start log's last line.
 * @param {string} line
 * @returns {Promise<Server | string>} the server, or why it did not start
 */
async function startServer(line) {
  const out = createWriteStream(logFile());
  const child = spawn("sh", ["-c", line], { cwd: clone, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const closed = new Promise((done) => child.on("close", (code, signal) => done({ code, signal })));
  const ready = new Promise((done) => {
    const take = (/** @type {Buffer} */ c) => {
      output += c;
      out.write(c);
      if (READY.test(output)) done(true);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    closed.then(() => done(false));
    setTimeout(() => done(false), READY_MINUTES * 60_000).unref();
  });
  if (await ready) return { line, child, output: () => output, closed };
  try {
    if (child.pid) process.kill(-child.pid, "SIGKILL");
  } catch {
    // the group is gone already
  }
  return `not serving after ${child.exitCode === null ? `${READY_MINUTES} min` : `exit ${child.exitCode}`}:\n      ${tail(output)}`;
}

/**
 * Ctrl-C to a server's process group; checks it is gone within STOP_SECONDS, having said it stopped
 * once and nothing about a second signal.
 * @param {Server} server
 */
async function stopServer(server) {
  const t0 = Date.now();
  process.kill(-(server.child.pid ?? 0), "SIGINT");
  const ended = await Promise.race([
    server.closed,
    new Promise((done) => setTimeout(() => done(null), STOP_SECONDS * 1000).unref()),
  ]);
  const seconds = since(t0);
  const label = `Ctrl-C → ${server.line}`;
  if (ended === null) {
    try {
      process.kill(-(server.child.pid ?? 0), "SIGKILL");
    } catch {
      // gone meanwhile
    }
    return row("FAIL", seconds, label, `still running after ${STOP_SECONDS} s`);
  }
  const log = server.output();
  const stopped = log.split(STOPPED_LINE).length - 1;
  const status = ended.signal ?? `exit ${ended.code}`;
  const ok = stopped === 1 && !/again/.test(log) && log.endsWith(STOPPED_LINE);
  // What its first live run did, as its start log said it (T222): published, nothing new, unreachable.
  const live = /^tariff: live (run|sources)[^\n]*/m.exec(log)?.[0].slice(0, 200);
  row(
    ok ? "PASS" : "FAIL",
    seconds,
    label,
    `"tariff: stopped" ×${stopped}; the command's own status ${status}${live ? `; ${live}` : ""}` +
      (ok ? "" : `:\n      ${tail(log)}`),
  );
}

const { readme, deploy } = documentedLines(clone);
/** @type {Server | null} */
let server = null;
for (const line of [...readme, ...deploy]) {
  if (line in SKIPPED) {
    row("SKIP", null, line, SKIPPED[line]);
    continue;
  }
  if (isServerLine(line)) {
    if (server) await stopServer(server);
    server = null;
    if (!(await portFree(PORT))) {
      row("FAIL", 0, line, `port ${PORT} is taken: stop what listens there and run again`);
      continue;
    }
    const t0 = Date.now();
    const started = await startServer(line);
    if (typeof started === "string") row("FAIL", since(t0), line, started);
    else {
      server = started;
      const serving = /serving (dataset \S+|at \S+)/.exec(started.output())?.[0] ?? "";
      const replayed = /replaying \d+ snapshot folder/.test(started.output()) ? "replayed the bundled snapshots, " : "";
      row("PASS", since(t0), line, `${replayed}${serving}`);
    }
    continue;
  }
  const t0 = Date.now();
  const result = await runLine(line);
  const seconds = since(t0);
  if (result.code !== 0) {
    row("FAIL", seconds, line, `exit ${result.code}:\n      ${tail(result.stderr || result.stdout)}`);
    continue;
  }
  if (line.startsWith("curl ")) {
    /** @type {unknown} */
    let body;
    try {
      body = JSON.parse(result.stdout);
    } catch {
      row("FAIL", seconds, line, `not JSON: ${result.stdout.slice(0, 200)}`);
      continue;
    }
    const ok = typeof body === "object" && body !== null && "data" in body;
    row(ok ? "PASS" : "FAIL", seconds, line, ok ? "JSON with data" : `no data: ${result.stdout.slice(0, 300)}`);
    continue;
  }
  row("PASS", seconds, line, tail(result.stdout, 1).slice(0, 100));
}
if (server) await stopServer(server);

// What `export all` wrote: the three files under the names each tool expects.
const exportsDir = join(clone, "tariff-exports");
const written = existsSync(exportsDir) ? readdirSync(exportsDir).sort() : [];
const expected = ["api.json", "data.json", "model_prices_and_context_window.json"];
const wroteAll = expected.every((f) => written.includes(f));
row(wroteAll ? "PASS" : "FAIL", null, "(check) ./tariff-exports holds the three price files", written.join(", "));

const store = join(home, ".local", "share", "tariff", "tariff.db");
if (existsSync(store)) console.log(`\nstore: ${store}, ${statSync(store).size.toLocaleString("en")} bytes`);
const count = (/** @type {string} */ s) => rows.filter((r) => r.status === s).length;
console.log(`\n${count("PASS")} passed, ${count("FAIL")} failed, ${count("SKIP")} skipped (listed with why)`);
if (count("FAIL") > 0) {
  console.log(`kept for a look: ${work} (logs/ holds each command's output)`);
  process.exit(1);
}
rmSync(work, { recursive: true, force: true });
