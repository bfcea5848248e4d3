import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precomputed, responsesOf } from "../src/http/create-app.js";
import { DEFAULT_TIMEOUTS } from "../src/http/limits.js";
import { replayServer, SAMPLE_MODEL, type TestServer } from "./harness.js";

// T197 on the fast path after T500: the idle timeout is no longer node's per-request
// `server.setTimeout` but armed where a connection can stall. These check each place on the
// replay's real answers: a connection that never sends a request, and a client that stops reading
// answers the fast path sends from stored bytes (src/http/connection.test.ts checks the Fastify path).

const IDLE_MS = 300;
let server: TestServer;
let port: number;

beforeAll(async () => {
  ({ server } = await replayServer({
    rateLimitPerMinute: 1_000_000,
    precompute: true,
    timeouts: { ...DEFAULT_TIMEOUTS, idleMs: IDLE_MS, keepAliveMs: 60_000 },
  }));
  await precomputed(server.app);
  port = Number(new URL(server.base).port);
});

afterAll(() => server.close());

/** Resolves when the server closes `socket` (the client reads on, so it sees the close). */
function closedByServer(socket: Socket): Promise<number> {
  const started = Date.now();
  return new Promise((resolve) => {
    socket.on("close", () => resolve(Date.now() - started));
    socket.on("error", () => {});
  });
}

describe("the idle timeout on the fast path (T197, T500)", () => {
  it("closes a connection that never sends a request", async () => {
    const socket = connect(port, "127.0.0.1");
    socket.resume();
    const after = await closedByServer(socket);
    // The idle timeout, not the 60 s keep-alive or the 10 s headers timeout.
    expect(after).toBeGreaterThanOrEqual(IDLE_MS - 50);
    expect(after).toBeLessThan(5_000);
  });

  it("destroys a connection whose client stops reading answers the fast path sent", async () => {
    const rendersBefore = responsesOf(server.app)?.renders;
    const socket = connect(port, "127.0.0.1");
    socket.pause(); // never reads until the server gives up
    socket.on("error", () => {});
    const serverSide = new Promise<void>((resolve) =>
      server.app.server.once("connection", (s: Socket) => s.on("close", () => resolve())),
    );
    // /rates is precomputed (a few hundred KB): 40 of them pipelined are far more than the loopback buffers hold.
    const request = "GET /api/v1/rates HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    socket.write(request.repeat(40));
    await serverSide;
    let received = 0;
    socket.on("data", (chunk: Buffer) => {
      received += chunk.length;
    });
    const closed = closedByServer(socket);
    socket.resume();
    await closed;
    // The identity body's size (the pipelined requests asked for no coding).
    const one = (await server.get("/api/v1/rates", { "accept-encoding": "identity" })).headers.get("content-length");
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(40 * Number(one));
    // Every answer came from the version's stored bytes: nothing was rendered on demand.
    expect(responsesOf(server.app)?.renders).toBe(rendersBefore);
  });

  it("leaves a keep-alive connection whose answers were sent whole to the keep-alive timeout", async () => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      text += chunk;
    });
    const path = `/api/v1/models/${SAMPLE_MODEL.provider}/${SAMPLE_MODEL.model}`;
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`.repeat(2));
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS * 4));
    // Both answers arrived and the connection is still open well past the idle timeout.
    expect(text.match(/HTTP\/1\.1 200 OK\r\n/g)).toHaveLength(2);
    expect(socket.destroyed).toBe(false);
    expect(socket.readyState).toBe("open");
    socket.destroy();
  });
});
