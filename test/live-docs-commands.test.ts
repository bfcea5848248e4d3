import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentedLines, isServerLine, READY, SKIPPED, STOPPED_LINE } from "../docs/checks/docs-commands.mjs";
import { freshEnv } from "./cli-support.js";
import { copyReplayStore } from "./harness.js";

/**
 * Issue 38 §6 "Must show" (T312): the command lines of `docs/deploy.md` and of the README's running,
 * CLI and price-file sections are run as written, in a fresh clone of this repository. What differs
 * from a reader's machine, and only that: `npm install` (it needs the registry and compiles for
 * minutes) is the checkout's node_modules linked in plus `npm run build:server` (what its `prepare`
 * compiles for `npm start`); the store is a copy of the bundled replay in `DATA_DIR` (a first start
 * replays 12 months first; `test/fresh-live.test.ts` covers that); `PORT=8787` and
 * `HOST=0.0.0.0` become a free loopback port (these tests never listen beyond 127.0.0.1), and curl
 * asks that port; the live ingester's upstreams are the loopback port nothing answers (the e2e
 * setup's). A line that needs what a clone does not have is listed in {@link SKIPPED} with why, and
 * the list must match exactly. The lines and that list come from `docs/checks/docs-commands.mjs`,
 * which `docs/checks/docs-as-written.mjs` shares: it runs the same lines with none of the
 * substitutions above (T355). This file runs in the e2e `spawn` project (vitest.config.ts)
 * because it spawns servers.
 */

const ROOT = resolve(import.meta.dirname, "..");

/**
 * After Ctrl-C a server says it stopped, once, and nothing of the copies of the signal npm and tsx
 * forward to it (T356).
 */
function expectStoppedOnce(log: string): void {
  expect(log.split(STOPPED_LINE).length - 1, log).toBe(1);
  expect(log, log).not.toContain("again");
}

let root: string;
let clone: string;
let dataDir: string;
let home: string;
const servers: ChildProcess[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "tariff-docs-"));
  clone = join(root, "clone");
  execFileSync("git", ["clone", "--quiet", ROOT, clone]);
  home = join(root, "home");
  mkdirSync(home);
  dataDir = join(root, "data");
  mkdirSync(dataDir);
  await copyReplayStore(dataDir);
}, 300_000);
afterAll(() => {
  for (const s of servers)
    if (s.exitCode === null && s.pid)
      try {
        process.kill(-s.pid, "SIGKILL");
      } catch {
        // the group is gone already
      }
  if (root) rmSync(root, { recursive: true, force: true });
});

function env(): NodeJS.ProcessEnv {
  return freshEnv(home, { DATA_DIR: dataDir, PORT: "0" });
}

/** A loopback port instead of 8787 and all interfaces, nothing else. */
function onLoopback(line: string): string {
  return line.replace("HOST=0.0.0.0", "HOST=127.0.0.1").replace("PORT=8787", "PORT=0");
}

/** Runs one line with `sh -c` in the clone; its exit code and output. */
function run(line: string): { code: number; stdout: string; stderr: string } {
  try {
    const stdout = execFileSync("sh", ["-c", line], { cwd: clone, env: env(), encoding: "utf8", stdio: "pipe" });
    return { code: 0, stdout, stderr: "" };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { code: e.status, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Starts a server line, waits for its start log's last line, and gives its API origin (when it says it). */
async function startServerLine(line: string): Promise<{ child: ChildProcess; base: string | null; log: () => string }> {
  const child = spawn("sh", ["-c", onLoopback(line)], { cwd: clone, env: env(), detached: true, stdio: "pipe" });
  servers.push(child);
  let log = "";
  await new Promise<void>((done, fail) => {
    child.stderr!.on("data", (c: Buffer) => {
      log += c.toString("utf8");
      if (READY.test(log)) done();
    });
    child.on("exit", (code) => fail(new Error(`${line} exited ${code} before serving:\n${log}`)));
  });
  const base = /at (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(log)?.[1] ?? null;
  return { child, base, log: () => log };
}

/**
 * Ctrl-C to the server's process group (npm, sh and node, as a terminal sends it); resolves with
 * its log once every process holding its output exited. npm's own exit status after a Ctrl-C is npm's
 * (it ends by SIGINT), so the server's own line is what says it stopped.
 */
async function stopServer(server: { child: ChildProcess; log: () => string }): Promise<string> {
  const exited = new Promise<void>((done) => server.child.on("close", () => done()));
  process.kill(-server.child.pid!, "SIGINT");
  await exited;
  return server.log();
}

/** Runs a block's lines in order: `npm install` as said above, servers until the next server, curl against the last. */
async function runLines(lines: readonly string[]): Promise<string[]> {
  const ran: string[] = [];
  let server: { child: ChildProcess; base: string | null; log: () => string } | null = null;
  try {
    for (const line of lines) {
      if (line in SKIPPED) continue;
      if (line === "npm install") {
        symlinkSync(join(ROOT, "node_modules"), join(clone, "node_modules"), "dir");
        expect(run("npm run build:server").code).toBe(0);
      } else if (isServerLine(line)) {
        if (server) expectStoppedOnce(await stopServer(server));
        server = await startServerLine(line);
      } else if (line.startsWith("curl ")) {
        expect(server?.base, `a server for: ${line}`).toBeTruthy();
        const result = run(line.replace("http://127.0.0.1:8787", server!.base!));
        expect(result.code, `${line}\n${result.stderr}`).toBe(0);
        expect(() => JSON.parse(result.stdout), line).not.toThrow();
      } else {
        const result = run(line);
        expect(result.code, `${line}\n${result.stderr}`).toBe(0);
      }
      ran.push(line);
    }
  } finally {
    if (server) expectStoppedOnce(await stopServer(server));
  }
  return ran;
}

describe("the documented commands run as written from a fresh clone (issue 38 §6, T312)", () => {
  it("docs/deploy.md, then the README's running, CLI and price-file sections", { timeout: 600_000 }, async () => {
    const { readme, deploy } = documentedLines(clone);
    // Every line is run or listed as skipped with why; nothing else is skipped.
    expect([...readme, ...deploy].filter((l) => l in SKIPPED).sort()).toEqual(Object.keys(SKIPPED).sort());
    expect(await runLines(deploy)).toEqual(deploy);
    const rest = readme.filter((l) => l !== "npm install"); // installed above
    expect(await runLines(rest)).toEqual(rest.filter((l) => !(l in SKIPPED)));
    // What they wrote: `export all` wrote the three files under the names each tool expects.
    expect(run("ls tariff-exports").stdout.split("\n").filter(Boolean).sort()).toEqual(
      expect.arrayContaining(["api.json", "data.json", "model_prices_and_context_window.json"]),
    );
  });
});
