import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ViewHolder } from "../catalogue/view-holder.js";
import { createApp } from "./create-app.js";
import { MCP_MAX_BATCH, MCP_MAX_BODY_BYTES, registerMcpRoutes } from "./mcp-route.js";

// Issue 26 §3 (T195): /mcp within the API's budget. Batches are bounded and each message counts
// against D24; the Host must name this server (DNS rebinding), CORS staying open to any Origin (T93).
// No catalogue is needed: initialize and tools/list answer without a view.

const RATE_LIMIT = 20;
let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  const views = new ViewHolder(null);
  app = await createApp({ views, rateLimitPerMinute: RATE_LIMIT, logLevel: "silent", fastPath: false });
  registerMcpRoutes(app, views, { publicBaseUrl: "https://prices.example.org" });
  await app.listen({ host: "127.0.0.1", port: 0 });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await app.close();
});

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/**
 * POSTs `body` to /mcp with node's own client (which sends any `Host`). All calls come from one
 * socket address, one D24 client: a test reads `RateLimit-Remaining` against its own first answer.
 */
function post(body: unknown, host = `127.0.0.1:${port}`): Promise<Answer> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/mcp",
        headers: {
          host,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "content-length": Buffer.byteLength(text),
          origin: "https://any-site.example",
        },
      },
      (res) => {
        let data = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          data += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
      },
    );
    req.on("error", reject);
    req.end(text);
  });
}

const listTools = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list", params: {} });
const remaining = (a: Answer) => Number(a.headers["ratelimit-remaining"]);

describe("/mcp batches (T195)", () => {
  it("answers a batch of at most MCP_MAX_BATCH messages, each counted once against D24", async () => {
    const before = await post(listTools(0));
    expect(before.status).toBe(200);
    const batch = await post(Array.from({ length: MCP_MAX_BATCH }, (_, i) => listTools(i + 1)));
    expect(batch.status).toBe(200);
    const answers = JSON.parse(batch.body) as { id: number; result: { tools: unknown[] } }[];
    expect(answers.map((a) => a.id).sort()).toEqual(Array.from({ length: MCP_MAX_BATCH }, (_, i) => i + 1));
    for (const a of answers) expect(a.result.tools.length).toBeGreaterThan(5);
    // A batch of N costs N: the single request before it cost one.
    expect(remaining(before) - remaining(batch)).toBe(MCP_MAX_BATCH);
  });

  it("refuses a larger batch with a JSON-RPC error saying the bound, running none of it, counted once", async () => {
    const before = await post(listTools(0));
    const big = await post(Array.from({ length: 100 }, (_, i) => listTools(i + 1)));
    expect(big.status).toBe(400);
    expect(big.headers["access-control-allow-origin"]).toBe("*");
    const body = JSON.parse(big.body) as { jsonrpc: string; id: null; error: { code: number; message: string } };
    expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    expect(body.error.message).toContain(`at most ${MCP_MAX_BATCH} messages, this one 100`);
    expect(remaining(before) - remaining(big)).toBe(1);
  });

  it("answers 429 when a batch's messages take the client over its limit", async () => {
    // Spend the window down to fewer requests than one batch holds.
    let last = await post(listTools(0));
    while (remaining(last) >= MCP_MAX_BATCH - 1) last = await post(listTools(0));
    const batch = await post(Array.from({ length: MCP_MAX_BATCH }, (_, i) => listTools(i + 1)));
    expect(batch.status).toBe(429);
    expect(batch.headers["content-type"]).toBe("application/problem+json");
    expect(Number(batch.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(batch.headers["access-control-allow-origin"]).toBe("*");
  });
});

describe("/mcp Host validation against DNS rebinding (T195)", () => {
  // The window of this client may be spent by the tests above: a 429 is not a Host answer.
  const fresh = async () => {
    const views = new ViewHolder(null);
    const other = await createApp({ views, rateLimitPerMinute: 0, logLevel: "silent" });
    registerMcpRoutes(other, views, { publicBaseUrl: "https://prices.example.org" });
    await other.listen({ host: "127.0.0.1", port: 0 });
    return other;
  };

  it("answers its loopback names, its own address and port, and PUBLIC_BASE_URL's host, from any Origin", async () => {
    const other = await fresh();
    const savedPort = port;
    port = (other.server.address() as AddressInfo).port;
    try {
      for (const host of [
        `127.0.0.1:${port}`,
        "localhost",
        "LOCALHOST:3000",
        "[::1]:8787",
        "prices.example.org",
        "prices.example.org:443",
      ]) {
        const a = await post(listTools(1), host);
        expect(a.status, host).toBe(200);
        expect(a.headers["access-control-allow-origin"], host).toBe("*");
      }
    } finally {
      port = savedPort;
      await other.close();
    }
  });

  it("refuses any other host with a 403 problem naming it, with CORS", async () => {
    const other = await fresh();
    const savedPort = port;
    port = (other.server.address() as AddressInfo).port;
    try {
      for (const host of ["evil.example", `evil.example:${port}`, "127.0.0.2:1", "prices.example.org.evil.example"]) {
        const a = await post(listTools(1), host);
        expect(a.status, host).toBe(403);
        expect(a.headers["content-type"], host).toBe("application/problem+json");
        expect(a.headers["access-control-allow-origin"], host).toBe("*");
        expect(JSON.parse(a.body).detail, host).toContain(JSON.stringify(host));
      }
    } finally {
      port = savedPort;
      await other.close();
    }
  });
});

describe("/mcp turns (T241)", () => {
  it("a body over MCP_MAX_BODY_BYTES is a 413 problem with CORS, not parsed", async () => {
    const views = new ViewHolder(null);
    const other = await createApp({ views, rateLimitPerMinute: 0, logLevel: "silent" });
    registerMcpRoutes(other, views);
    await other.listen({ host: "127.0.0.1", port: 0 });
    const savedPort = port;
    port = (other.server.address() as AddressInfo).port;
    try {
      expect((await post({ ...listTools(1), params: { padding: "x".repeat(1000) } })).status).toBe(200);
      const a = await post({ ...listTools(1), params: { padding: "x".repeat(MCP_MAX_BODY_BYTES) } });
      expect(a.status).toBe(413);
      expect(a.headers["content-type"]).toBe("application/problem+json");
      expect(a.headers["access-control-allow-origin"]).toBe("*");
    } finally {
      port = savedPort;
      await other.close();
    }
  });

  it("a POST finding the queue full is a 503 problem with Retry-After, nothing run", async () => {
    const views = new ViewHolder(null);
    const full = await createApp({ views, rateLimitPerMinute: 0, logLevel: "silent" });
    // No turn and no room to wait: the state of a gate whose queue is full.
    registerMcpRoutes(full, views, { running: 0, waiting: 0 });
    await full.listen({ host: "127.0.0.1", port: 0 });
    const savedPort = port;
    port = (full.server.address() as AddressInfo).port;
    try {
      const a = await post(listTools(1));
      expect(a.status).toBe(503);
      expect(a.headers["retry-after"]).toBe("1");
      expect(a.headers["content-type"]).toBe("application/problem+json");
      expect(JSON.parse(a.body).detail).toContain("busy");
    } finally {
      port = savedPort;
      await full.close();
    }
  });
});
