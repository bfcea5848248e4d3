import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tariffEnv } from "./cli-support.js";
import { copyReplayStore } from "./harness.js";

// Issue 26 §4 (T243): `tariff serve --workers N` replaces a worker that dies after a wait that
// doubles while the replacements die too, and says so. Real processes on a copy of the replay;
// the workers are killed (SIGKILL) by the test, so nothing here depends on how fast they start.

let dir: string;
let primary: ChildProcess | null = null;
let log = "";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tariff-workers-"));
  mkdirSync(join(dir, "var"));
  await copyReplayStore(join(dir, "var"));
});
afterAll(() => {
  primary?.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** The primary's live child processes (its workers), from /proc. */
function workerPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

async function waitFor<T>(probe: () => T | undefined, ms: number, what: string): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`${what}: not within ${ms} ms; the log so far:\n${log}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("tariff serve --workers (issue 26 §4)", () => {
  it("a worker killed again and again is replaced after 0.5 s, 1 s, 2 s, and the log says so", async () => {
    const child = spawn(process.execPath, ["bin/tariff.js", "serve", "--workers", "2"], {
      env: tariffEnv({
        DATA_DIR: join(dir, "var"),
        SNAPSHOTS_DIR: join(dir, "none"),
        INGEST_EVERY: "off",
        RATE_LIMIT_PER_MINUTE: "0",
        PORT: "18947",
      }),
      stdio: ["ignore", "ignore", "pipe"],
    });
    primary = child;
    child.stderr?.on("data", (d: Buffer) => {
      log += d.toString();
    });
    const pid = child.pid!;
    await waitFor(() => (log.includes("2 workers serving") ? true : undefined), 120_000, "the workers listen");
    const seen = new Set(workerPids(pid));
    expect(seen.size).toBe(2);
    let victim = [...seen][0]!;
    const waits: string[] = [];
    for (let i = 0; i < 3; i++) {
      process.kill(victim, "SIGKILL");
      const line = await waitFor(
        () =>
          new RegExp(`worker ${victim} exited \\(SIGKILL\\) after [^;]+; starting another in ([^\\n]+)`).exec(log)?.[1],
        30_000,
        `the primary says it replaces ${victim}`,
      );
      waits.push(line);
      // The replacement: a child the primary did not have before.
      victim = await waitFor(() => workerPids(pid).find((p) => !seen.has(p)), 30_000, "the replacement worker starts");
      seen.add(victim);
    }
    expect(waits).toEqual(["0.5 s", "1 s (2 in a row died within a minute)", "2 s (3 in a row died within a minute)"]);
    child.kill("SIGTERM");
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(0);
    primary = null;
  });
});
