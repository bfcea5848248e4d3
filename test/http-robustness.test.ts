import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadReplay, startServer, type TestServer } from "./harness.js";

// Issue 4 §6: server timeouts against slow clients and connection-level errors, over raw sockets.
// Timeouts are shortened (200–300 ms) so that the server cuts the client off quickly; the tests
// assert what the server sent and that it closed the connection, never how long it took.
let server: TestServer;

beforeAll(async () => {
  const { view, store } = await loadReplay();
  await store.close();
  server = await startServer(view, {
    timeouts: { headersMs: 200, requestMs: 300, keepAliveMs: 200, checkIntervalMs: 50 },
  });
});
afterAll(async () => {
  await server.close();
});

/** Opens a socket, writes `chunks`, and collects everything the server sends until it closes. */
function converse(chunks: string[]): Promise<{ received: string; socket: Socket }> {
  const { port } = new URL(server.base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1");
    let received = "";
    socket.on("data", (d) => {
      received += d.toString("latin1");
    });
    socket.on("error", reject);
    socket.on("close", () => resolve({ received, socket }));
    socket.on("connect", () => {
      for (const c of chunks) socket.write(c);
    });
  });
}

describe("timeouts (issue 4 §6)", () => {
  it("the configured timeouts are set on node's server", () => {
    expect(server.app.server.headersTimeout).toBe(200);
    expect(server.app.server.requestTimeout).toBe(300);
    expect(server.app.server.keepAliveTimeout).toBe(200);
  });

  it("a client that never finishes its headers (slowloris) gets a 408 problem and is disconnected", async () => {
    const { received } = await converse(["GET /api/v1/meta HTTP/1.1\r\nHost: x\r\nX-Slow: "]);
    const [head, body] = received.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
    expect(head).toMatch(/access-control-allow-origin: \*/i);
    expect(head).toMatch(/content-type: application\/problem\+json/i);
    expect(head).toMatch(/connection: close/i);
    expect(JSON.parse(body ?? "")).toEqual({
      type: "about:blank",
      title: "Request Timeout",
      status: 408,
      detail: "the request was not received in time",
    });
  });

  it("an idle keep-alive connection is closed by the server after its response", async () => {
    const { received } = await converse(["GET /api/v1/meta HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n"]);
    expect(received).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(received).toMatch(/keep-alive: timeout=0/i); // 200 ms rounds down to 0 whole seconds
    expect(received).toContain('"datasetVersion"');
  });
});

describe("connection-level errors are problems too (D25)", () => {
  it("headers beyond node's 16 KiB limit: 431 problem with CORS", async () => {
    const { received } = await converse([
      `GET /api/v1/meta HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
    ]);
    expect(received).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large/);
    expect(received).toMatch(/access-control-allow-origin: \*/i);
    expect(JSON.parse(received.split("\r\n\r\n")[1] ?? "")).toMatchObject({ status: 431, type: "about:blank" });
  });

  it("bytes that are not HTTP: 400 problem", async () => {
    const { received } = await converse(["\x16\x03\x01 hello tls\r\n\r\n"]);
    expect(received).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    expect(JSON.parse(received.split("\r\n\r\n")[1] ?? "")).toEqual({
      type: "about:blank",
      title: "Bad Request",
      status: 400,
      detail: "the request is not valid HTTP",
    });
  });
});
