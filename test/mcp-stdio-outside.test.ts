import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUNDLED_SNAPSHOTS_DIR } from "../src/cli/config.js";
import { freshEnv } from "./cli-support.js";
import { TOOL_NAMES } from "./mcp-support.js";

/**
 * Issue 15 "Must show": an MCP client starts `node <installation>/bin/tariff.js mcp` from a folder
 * outside the installation on a fresh machine (a new home, no Tariff variable set). It answers
 * `tools/list` over stdio, the bundled snapshots having been found beside the code and the store
 * put in the per-user data folder; a start that fails leaves no file behind.
 *
 * The installation is this checkout's code (bin/, the compiled build/, package.json, its
 * node_modules) with one month of the recorded snapshots bundled (2026-06-01), so the first start
 * replays one folder, not twelve (T237: the twelve-month replay is what the test replay cache
 * builds; `test/cli.test.ts` starts the checkout's own first replay of all twelve and interrupts it).
 */
/** The one month the installation bundles: every source's payloads of that date. */
const LAST_MONTH = "2026-06-01";
let root: string;
let install: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "tariff-mcp-outside-"));
  install = join(root, "install");
  // What an install holds beside the bundled data: the code, and the schemas the exports read (T212).
  for (const part of ["bin", "build", "package.json", "data/schemas"])
    cpSync(part, join(install, part), { recursive: true });
  symlinkSync(resolve("node_modules"), join(install, "node_modules"));
  for (const source of readdirSync(BUNDLED_SNAPSHOTS_DIR))
    if (existsSync(join(BUNDLED_SNAPSHOTS_DIR, source, LAST_MONTH)))
      cpSync(join(BUNDLED_SNAPSHOTS_DIR, source, LAST_MONTH), join(install, "data", "upstream", source, LAST_MONTH), {
        recursive: true,
      });
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

/** A new home and a new working folder, both empty. */
function freshMachine(name: string): { home: string; cwd: string } {
  const home = join(root, name, "home");
  const cwd = join(root, name, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  return { home, cwd };
}

/** Every file and folder under `dir`, relative. */
function entriesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true }).map(String).sort();
}

/** Connects an SDK client to `tariff mcp` started as a client configuration would. */
async function connect(home: string, cwd: string, extra: Record<string, string> = {}) {
  let stderr = "";
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(install, "bin", "tariff.js"), "mcp"],
    cwd,
    env: freshEnv(home, extra) as Record<string, string>,
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const client = new Client({ name: "tariff-outside-test", version: "0.0.0" });
  // The first start replays the bundled snapshots before it answers `initialize`.
  const connected = await client.connect(transport, { timeout: 120_000 }).then(
    () => null,
    (error: unknown) => error,
  );
  return { client, connected, stderr: () => stderr };
}

describe("tariff mcp from outside the checkout", () => {
  it("answers tools/list on a fresh machine, the store in the per-user data folder", async () => {
    const { home, cwd } = freshMachine("fresh");
    const { client, connected, stderr } = await connect(home, cwd);
    try {
      expect(connected).toBeNull();
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
      const store = join(home, ".local", "share", "tariff", "tariff.db");
      expect(stderr()).toContain(
        `tariff mcp: store: ${store} (the per-user default; set DATA_DIR to keep it elsewhere)\n`,
      );
      expect(stderr()).toContain(`replaying 1 snapshot folder(s) from ${join(install, "data", "upstream")}`);
      expect(stderr()).toContain("serving dataset 2026-06-01T00:00:00.000Z over stdio");
      expect(entriesUnder(home)).toContain(join(".local", "share", "tariff", "tariff.db"));
      expect(entriesUnder(cwd)).toEqual([]);
    } finally {
      await client.close();
    }
  }, 150_000);

  it("a start without snapshots says where it looked, and leaves no file behind", async () => {
    const { home, cwd } = freshMachine("no-snapshots");
    const missing = join(root, "no-snapshots", "nowhere");
    const { client, connected, stderr } = await connect(home, cwd, { SNAPSHOTS_DIR: missing });
    await client.close();
    expect(connected).toBeInstanceOf(Error);
    expect(stderr()).toContain(`tariff: no snapshots folder at ${missing}\n`);
    expect(entriesUnder(home)).toEqual([]);
    expect(entriesUnder(cwd)).toEqual([]);
  }, 60_000);

  it("a replay that fails part-way removes the store and the folders it created", async () => {
    const { home, cwd } = freshMachine("bad-replay");
    // Invented fixture (real data has no broken manifest): a real snapshot folder beside a live-run
    // manifest cut short, which the replay reads after the store file exists.
    const snapshots = join(root, "bad-replay", "snapshots");
    cpSync(join(BUNDLED_SNAPSHOTS_DIR, "models-dev", "2025-07-01"), join(snapshots, "models-dev", "2025-07-01"), {
      recursive: true,
    });
    mkdirSync(join(snapshots, "runs"));
    writeFileSync(join(snapshots, "runs", "2025-07-01.json"), '{"finishedAt": "2025-07-01T00:0');
    const { client, connected, stderr } = await connect(home, cwd, { SNAPSHOTS_DIR: snapshots });
    await client.close();
    expect(connected).toBeInstanceOf(Error);
    expect(stderr()).toContain("replaying 1 snapshot folder(s)");
    expect(stderr()).toMatch(/\ntariff: .*JSON/);
    expect(entriesUnder(home)).toEqual([]);
    expect(entriesUnder(cwd)).toEqual([]);
  }, 60_000);
});
