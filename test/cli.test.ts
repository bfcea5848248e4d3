import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadView } from "../src/catalogue/load-view.js";
import { BUNDLED_SNAPSHOTS_DIR, CONFIG_VARIABLES } from "../src/cli/config.js";
import { SOURCES } from "../src/sources/registry.js";
import { openSqliteStore } from "../src/store/open-store.js";
import { freshEnv, runTariff, startTariff } from "./cli-support.js";
import { copyReplayStore } from "./harness.js";

/**
 * Issue 15, the first five minutes: what `tariff` says, run by path from a folder outside the
 * checkout with a fresh home (so the per-user data folder starts empty). Each message is asserted
 * as printed, and where a command fails, that it wrote nothing.
 */
const { version } = JSON.parse(readFileSync(resolve(import.meta.dirname, "..", "package.json"), "utf8")) as {
  version: string;
};

/** This checkout, and tsx's command line (what `npm run cli` runs). */
const CHECKOUT = resolve(import.meta.dirname, "..");
const TSX_CLI = join(CHECKOUT, "node_modules", "tsx", "dist", "cli.mjs");

let root: string;
let cwd: string;
let home: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "tariff-cli-"));
  cwd = join(root, "elsewhere");
  home = join(root, "home");
  mkdirSync(cwd);
  mkdirSync(home);
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Every file under a folder, relative paths (nothing written = []). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

/** A copy of the replayed store in a new DATA_DIR. */
async function copiedStore(name: string): Promise<string> {
  const dir = join(root, name);
  mkdirSync(dir);
  await copyReplayStore(dir);
  return dir;
}

describe("version and help", () => {
  it.each(["--version", "-V"])("%s prints the package's version", async (flag) => {
    const res = await runTariff([flag], cwd, freshEnv(home));
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`${version}\n`);
  });

  it("the help lists every environment variable, with this installation's defaults", async () => {
    const res = await runTariff(["--help"], cwd, freshEnv(home));
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("Environment (default in brackets):");
    for (const name of CONFIG_VARIABLES) expect(res.stdout).toMatch(new RegExp(`^  ${name} `, "m"));
    expect(res.stdout).toContain("SOURCE_URL_<ID>");
    expect(res.stdout).toMatch(/^ {2}DATA_DIR +folder of the SQLite store tariff\.db \[(.+)\]$/m);
    expect(res.stdout).toContain(`[${join(home, ".local", "share", "tariff")}]`);
    expect(res.stdout).toContain(`[${BUNDLED_SNAPSHOTS_DIR}]`);
  });
});

describe("ingest says why", () => {
  it("a missing snapshots folder is named, exit 1, and no store is created", async () => {
    const missing = join(root, "no-such-folder");
    const res = await runTariff(["ingest", "--snapshots", missing], cwd, freshEnv(home));
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(`tariff: no snapshots folder at ${missing}\n`);
    expect(filesUnder(home)).toEqual([]);
    expect(filesUnder(cwd)).toEqual([]);
  });

  it("an empty snapshots folder says what it expected, exit 1, and no store is created", async () => {
    const empty = join(root, "empty-snapshots");
    mkdirSync(empty);
    const res = await runTariff(["ingest", "--snapshots", empty], cwd, freshEnv(home));
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(
      `tariff: no snapshots in ${empty}: expected folders laid out as <source>/<YYYY-MM-DD>/<files> (or a live-run archive)\n`,
    );
    expect(filesUnder(home)).toEqual([]);
  });

  it("ingesting again into an up-to-date store says that it is up to date", async () => {
    const snapshots = join(root, "one-date");
    cpSync(join(BUNDLED_SNAPSHOTS_DIR, "models-dev", "2025-07-01"), join(snapshots, "models-dev", "2025-07-01"), {
      recursive: true,
    });
    const dataDir = join(root, "up-to-date");
    const env = freshEnv(home, { DATA_DIR: dataDir });
    const first = await runTariff(["ingest", "--snapshots", snapshots], cwd, env);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`1 dataset version(s) published to ${join(dataDir, "tariff.db")}\n`);
    const again = await runTariff(["ingest", "--snapshots", snapshots], cwd, env);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe(
      `0 dataset version(s) published to ${join(dataDir, "tariff.db")}: the store is up to date; its latest dataset ` +
        `version 2025-07-01T00:00:00.000Z is not older than any of the 1 snapshot folder(s) in ${snapshots}\n`,
    );
  });

  it("identity on a machine without a store says so and creates none", async () => {
    const res = await runTariff(["identity", "--unmatched"], cwd, freshEnv(home));
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(
      `tariff: no store at ${join(home, ".local", "share", "tariff", "tariff.db")} yet: ` +
        "run `tariff serve` or `tariff ingest --snapshots <dir>` first\n",
    );
    expect(filesUnder(home)).toEqual([]);
  });
});

describe("start log and signals", () => {
  it("serve: a plain start log saying where the store is and how to stop; SIGINT says what it does, exit 0", async () => {
    const dataDir = await copiedStore("serve-store");
    const run = startTariff(["serve"], cwd, freshEnv(home, { DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "info" }));
    const started = await run.waitForStderr(/stops the server\n/);
    const lines = started.trimEnd().split("\n");
    // One form: every line of the start log is a plain `tariff:` line, no JSON log line among them.
    for (const line of lines) expect(line).toMatch(/^tariff: /);
    expect(lines[0]).toBe(`tariff: store: ${join(dataDir, "tariff.db")} (DATA_DIR)`);
    const base = /serving dataset 2026-06-01T00:00:00\.000Z at (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(started)?.[1];
    expect(base).toBeDefined();
    expect(started).toContain(`API reference at ${base}/docs, MCP at ${base}/mcp`);
    // Live by default (T220); the test's upstreams are a loopback port nothing answers (T228).
    expect(started).toContain(
      "tariff: live ingestion: first run now, then every 1h " +
        "(the default; INGEST_EVERY or --ingest-every change it, off turns it off)\n",
    );
    expect(started).toContain("tariff: Ctrl-C (SIGINT) or SIGTERM stops the server\n");
    expect((await fetch(`${base}/api/v1/meta`)).status).toBe(200);
    run.child.kill("SIGINT");
    const end = await run.done;
    expect(end.code).toBe(0);
    expect(end.stderr).toContain(
      "tariff: SIGINT: stopping: no new connections, finishing the requests in flight, " +
        "ending the live ingester (a run in progress is not published)\n",
    );
    expect(end.stderr.endsWith("tariff: stopped\n")).toBe(true);
    expect(end.stdout).toBe("");
  });

  it("serve: a second SIGINT during the stop (a Ctrl-C forwarded again) changes nothing: said once, exit 0 (T356)", async () => {
    const dataDir = await copiedStore("serve-twice-store");
    const run = startTariff(["serve"], cwd, freshEnv(home, { DATA_DIR: dataDir, PORT: "0", INGEST_EVERY: "off" }));
    const started = await run.waitForStderr(/stops the server\n/);
    const port = Number(/at http:\/\/127\.0\.0\.1:(\d+)\/api\/v1/.exec(started)?.[1]);
    // A request in flight keeps the stop going: a POST whose body is still coming.
    const client = connect(port, "127.0.0.1");
    client.write(
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
    );
    await new Promise((r) => setTimeout(r, 300));
    run.child.kill("SIGINT");
    await run.waitForStderr(/SIGINT: stopping/);
    run.child.kill("SIGINT");
    await new Promise((r) => setTimeout(r, 500));
    expect(run.child.exitCode).toBeNull(); // still finishing the requests in flight
    client.destroy();
    const end = await run.done;
    expect(end.code).toBe(0);
    expect(end.stderr.match(/^tariff: SIGINT: stopping/gm)).toHaveLength(1);
    expect(end.stderr).not.toContain("again");
    expect(end.stderr.endsWith("tariff: stopped\n")).toBe(true);
  });

  it("serve --workers 2 through tsx: Ctrl-C to the process group, forwarded again by tsx, stops once, exit 0 (T356)", {
    timeout: 120_000,
  }, async () => {
    const dataDir = await copiedStore("workers-ctrl-c-store");
    // As `npm run cli -- serve --workers 2` runs it: tsx's process, the CLI in its child, two workers;
    // a terminal's Ctrl-C reaches every process of the group, and tsx relays it to the CLI once more.
    const child = spawn(
      process.execPath,
      [TSX_CLI, join(CHECKOUT, "src", "cli", "main.ts"), "serve", "--workers", "2"],
      {
        cwd: CHECKOUT,
        env: freshEnv(home, { DATA_DIR: dataDir, PORT: "0", INGEST_EVERY: "off" }),
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    const exited = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
    await new Promise<void>((ready) =>
      child.stderr.on("data", (c: Buffer) => {
        stderr += c.toString("utf8");
        if (stderr.includes("stops them\n")) ready();
      }),
    );
    process.kill(-child.pid!, "SIGINT");
    expect(await exited).toBe(0);
    expect(stderr.match(/^tariff: SIGINT: stopping the 2 workers/gm)).toHaveLength(1);
    expect(stderr).not.toContain("again");
    expect(stderr.endsWith("tariff: stopped\n")).toBe(true);
  });

  it("mcp: says where the store is, and SIGTERM says it stops, exit 0", async () => {
    const dataDir = await copiedStore("mcp-store");
    const run = startTariff(["mcp"], cwd, freshEnv(home, { DATA_DIR: dataDir }));
    const started = await run.waitForStderr(/serving dataset .* over stdio\n/);
    expect(started.startsWith(`tariff mcp: store: ${join(dataDir, "tariff.db")} (DATA_DIR)\n`)).toBe(true);
    run.child.kill("SIGTERM");
    const end = await run.done;
    expect(end.code).toBe(0);
    expect(end.stderr).toContain("tariff mcp: SIGTERM: stopping (closing stdio; the store is left as it is)\n");
  });

  it("ingest: SIGINT stops after the run in progress, says so, and keeps every run it reported", async () => {
    const dataDir = join(root, "interrupted");
    const run = startTariff(
      ["ingest", "--snapshots", BUNDLED_SNAPSHOTS_DIR],
      cwd,
      freshEnv(home, { DATA_DIR: dataDir }),
    );
    await run.waitForStderr(/\] 1\/12 /);
    run.child.kill("SIGINT");
    const end = await run.done;
    expect(end.code).toBe(130);
    expect(end.stderr).toContain(
      "tariff: SIGINT: stopping after the run in progress; the runs published so far stay\n",
    );
    expect(end.stderr.endsWith("tariff: ingestion stopped by SIGINT\n")).toBe(true);
    const printed = end.stderr.split("\n").filter((l) => /^\[#+\.*\] \d+\/12 /.test(l)).length;
    expect(end.stderr).toContain(`${printed} dataset version(s) published to ${join(dataDir, "tariff.db")}\n`);
    const store = await openSqliteStore(join(dataDir, "tariff.db"));
    try {
      const runs = await store.listRuns();
      expect(runs.length).toBe(printed);
      expect(runs.length).toBeLessThan(12);
      const view = await loadView(store, SOURCES);
      expect(view?.version).toBe(runs.at(-1)?.datasetVersion);
    } finally {
      await store.close();
    }
  });

  it("serve: SIGINT during the first replay stops it, says so, and leaves no store behind", async () => {
    const freshHome = join(root, "fresh-home");
    mkdirSync(freshHome);
    const run = startTariff(["serve"], cwd, freshEnv(freshHome, { PORT: "0" }));
    await run.waitForStderr(/\] 1\/12 /);
    run.child.kill("SIGINT");
    const end = await run.done;
    expect(end.code).toBe(130);
    expect(end.stderr).toContain(
      `tariff: store: ${join(freshHome, ".local", "share", "tariff", "tariff.db")} (the per-user default; set DATA_DIR to keep it elsewhere)\n`,
    );
    expect(end.stderr).toContain(`replaying 12 snapshot folder(s) from ${BUNDLED_SNAPSHOTS_DIR} (first start only)\n`);
    expect(end.stderr).toContain("tariff: SIGINT: stopping the first replay after the run in progress\n");
    expect(
      end.stderr.endsWith("tariff: the first replay was interrupted; nothing was kept, the next start replays\n"),
    ).toBe(true);
    expect(filesUnder(freshHome)).toEqual([]);
    expect(readdirSync(freshHome)).toEqual([]);
    expect(filesUnder(cwd)).toEqual([]);
  });
});
