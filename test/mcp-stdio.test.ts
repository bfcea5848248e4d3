import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadView } from "../src/catalogue/load-view.js";
import { SOURCES } from "../src/sources/registry.js";
import { openSqliteStore } from "../src/store/open-store.js";
import { copyReplayStore } from "./harness.js";
import { defineMirrorChecks, defineToolListChecks, type McpTestServer, startMcpServer } from "./mcp-support.js";

// Issue 8 over stdio: `node bin/tariff.js mcp` reading a copy of the replayed store, driven by the SDK's
// own client. The child builds its view at its own start, so the HTTP side is built from the same
// store with the same loadView at the child's generatedAt (D31): then every body must be identical.
const root = resolve(import.meta.dirname, "..");
let dir: string;
let client: Client;
let http: McpTestServer;
let stderr = "";
const transportErrors: Error[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tariff-mcp-"));
  await copyReplayStore(dir);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["bin/tariff.js", "mcp"],
    cwd: root,
    // No snapshots to fall back on: the child must read the copied store.
    env: { ...getDefaultEnvironment(), DATA_DIR: dir, SNAPSHOTS_DIR: join(dir, "no-snapshots") },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  client = new Client({ name: "tariff-test", version: "0.0.0" });
  // A line on stdout that is not a JSON-RPC message surfaces here.
  client.onerror = (error) => transportErrors.push(error);
  await client.connect(transport);

  const meta = (await client.callTool({ name: "get_meta", arguments: {} })) as CallToolResult;
  const generatedAt = (meta.structuredContent as { meta: { generatedAt: string } }).meta.generatedAt;
  const store = await openSqliteStore(join(dir, "tariff.db"));
  vi.useFakeTimers({ toFake: ["Date"], now: new Date(generatedAt) });
  try {
    const view = await loadView(store, SOURCES);
    if (!view) throw new Error("the copied store holds no dataset");
    http = await startMcpServer(view);
  } finally {
    vi.useRealTimers();
    await store.close();
  }
});
afterAll(async () => {
  await client?.close();
  await http?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("tariff mcp (stdio)", () => {
  it("serves the copied store without replaying, logging to stderr only", () => {
    expect(stderr).toContain("serving dataset 2026-06-01T00:00:00.000Z over stdio");
    expect(stderr).not.toContain("replaying");
    expect(client.getServerVersion()?.name).toBe("tariff");
  });

  defineToolListChecks(() => ({ client }));
  defineMirrorChecks("mcp-stdio", () => ({ client, http }));

  it("kept stdout to MCP messages: the client saw no unreadable line", () => {
    expect(transportErrors).toEqual([]);
  });
});
