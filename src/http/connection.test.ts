import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { ViewHolder } from "../catalogue/view-holder.js";
import { createApp } from "./create-app.js";
import { DEFAULT_TIMEOUTS } from "./limits.js";

// Issue 26 §6 (T197): a client that never reads its answer is cut off once nothing moved for the
// idle timeout, and the answer it held is freed; before, five such clients held 1.1 GB for ever.
// The wait is bounded by the test's own timeout, not asserted.

describe("the idle timeout while answering (T197)", () => {
  it("destroys a connection whose client stops reading a large answer", async () => {
    const app = await createApp({
      views: new ViewHolder(null),
      rateLimitPerMinute: 0,
      logLevel: "silent",
      timeouts: { ...DEFAULT_TIMEOUTS, idleMs: 150 },
    });
    const size = 16 * 1024 * 1024;
    // 16 MB: far more than the loopback socket buffers hold (a few MB at most), so the server must wait on the client.
    app.get("/large", (_request, reply) => reply.type("application/octet-stream").send(Buffer.alloc(size, 120)));
    const serverSide = new Promise<void>((resolve) =>
      app.server.once("connection", (socket) => socket.on("close", () => resolve())),
    );
    await app.listen({ host: "127.0.0.1", port: 0 });
    try {
      const port = (app.server.address() as AddressInfo).port;
      const socket = connect(port, "127.0.0.1");
      socket.pause(); // never reads (a paused socket sees the server's close only once it reads on)
      socket.on("error", () => {});
      socket.write("GET /large HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      // The server gives up on the connection…
      await serverSide;
      // …and the client, reading on, gets what the socket buffers held, not the whole answer.
      let received = 0;
      socket.on("data", (chunk: Buffer) => {
        received += chunk.length;
      });
      await new Promise<void>((resolve) => {
        socket.on("close", () => resolve());
        socket.resume();
      });
      expect(received).toBeGreaterThan(0);
      expect(received).toBeLessThan(size);
      const open = await new Promise<number>((resolve, reject) =>
        app.server.getConnections((error, n) => (error ? reject(error) : resolve(n))),
      );
      expect(open).toBe(0);
    } finally {
      await app.close();
    }
  });

  it("is on by default, with IDLE_TIMEOUT_MS's default of 30 s", () => {
    expect(DEFAULT_TIMEOUTS.idleMs).toBe(30_000);
  });
});
