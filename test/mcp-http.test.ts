import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CatalogueView } from "../src/catalogue/view.js";
import { MCP_MAX_BATCH } from "../src/http/mcp-route.js";
import { MCP_MAX_RESULT_BYTES } from "../src/mcp/result-budget.js";
import { loadReplay } from "./harness.js";
import { defineMirrorChecks, defineToolListChecks, type McpTestServer, startMcpServer } from "./mcp-support.js";

// Issue 8 over Streamable HTTP at /mcp (T21), with the SDK's own client, against the API server of the
// same process: one view, so every body is byte-for-byte the HTTP one (generatedAt included, D31).
let view: CatalogueView;
let http: McpTestServer;
let client: Client;

beforeAll(async () => {
  const replay = await loadReplay();
  await replay.store.close();
  view = replay.view;
  http = await startMcpServer(view);
  client = new Client({ name: "tariff-test", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${http.base}/mcp`)));
});
afterAll(async () => {
  await client.close();
  await http.close();
});

describe("tools/list over Streamable HTTP", () => {
  defineToolListChecks(() => ({ client }));

  it("announces the server and its instructions", () => {
    expect(client.getServerVersion()?.name).toBe("tariff");
    expect(client.getInstructions()).toContain("search_models");
  });
});

describe("tools/call over Streamable HTTP mirrors API v1", () => {
  defineMirrorChecks("mcp-http", () => ({ client, http }));
});

describe("the /mcp endpoint", () => {
  const initialize = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
  };
  const post = (server: McpTestServer, body: unknown) =>
    fetch(`${server.base}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(body),
    });

  it("is stateless: plain JSON answers, no session id, CORS open like the API (D23)", async () => {
    const res = await post(http, initialize);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("mcp-session-id")).toBeNull();
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const body = (await res.json()) as { id: number; result: { serverInfo: { name: string } } };
    expect(body).toMatchObject({ id: 1, result: { serverInfo: { name: "tariff" } } });
  });

  it("answers GET and DELETE with 405 Allow: POST (no event stream, no session to end)", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(`${http.base}/mcp`, { method, headers: { accept: "text/event-stream" } });
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow"), method).toBe("POST");
      // A problem like every other error (issue 15), not a JSON-RPC body.
      expect(res.headers.get("content-type"), method).toBe("application/problem+json");
      expect(((await res.json()) as { status: number }).status).toBe(405);
    }
  });

  it("counts against the per-IP rate limit (D24)", async () => {
    const limited = await startMcpServer(view, 2);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1) statuses.push((await post(limited, initialize)).status);
      expect(statuses).toEqual([200, 200, 429]);
      const last = await post(limited, initialize);
      expect(last.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(last.headers.get("retry-after")).not.toBeNull();
    } finally {
      await limited.close();
    }
  });

  // Issue 26 §3 (T195): a greedy POST is bounded. 100 × list_models {limit: 500} used to answer 75 MB.
  const listModels = (id: number, limit: number) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "list_models", arguments: { limit } },
  });
  type Answer = { id: number; result: { isError?: boolean; content: { text: string }[]; structuredContent?: unknown } };

  it("one list_models page of 500 fits the 1 MB of results a POST may carry", async () => {
    const res = await post(http, listModels(1, 500));
    expect(res.status).toBe(200);
    const body = (await res.json()) as Answer;
    expect(body.result.isError).toBeUndefined();
    expect(JSON.stringify(body.result.structuredContent).length).toBeGreaterThan(300_000);
  });

  it("a batch asking for more than 1 MB: the call that goes over is a tool error telling to page, the rest not run", async () => {
    const res = await post(http, [listModels(1, 500), listModels(2, 500), listModels(3, 1)]);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.length).toBeLessThan(MCP_MAX_RESULT_BYTES * 1.1);
    const answers = (JSON.parse(text) as Answer[]).sort((a, b) => a.id - b.id);
    expect(answers.map((a) => a.result.isError ?? false)).toEqual([false, true, true]);
    const over = JSON.parse(answers[1]?.result.content[0]?.text ?? "{}") as { status: number; detail: string };
    expect(over.status).toBe(400);
    expect(over.detail).toContain(`over the ${MCP_MAX_RESULT_BYTES} bytes of results one /mcp request may carry`);
    expect(over.detail).toContain("smaller limit");
    expect(answers[2]?.result.content[0]?.text).toContain("list_models was not run");
  });

  it("refuses the 100-call batch outright with a JSON-RPC error, in a few hundred bytes", async () => {
    const res = await post(
      http,
      Array.from({ length: 100 }, (_, i) => listModels(i + 1, 500)),
    );
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text.length).toBeLessThan(1000);
    expect(JSON.parse(text)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    expect(text).toContain(`at most ${MCP_MAX_BATCH} messages`);
  });
});
