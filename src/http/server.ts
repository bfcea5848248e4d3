import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { FastifyServerFactory } from "fastify";
import { atPathToQuery } from "./at-path.js";
import { connectHandler } from "./connection.js";
import type { FastPath } from "./fast-path.js";
import type { ServerTimeouts } from "./limits.js";
import { admitRequest } from "./request-target.js";

/**
 * Fastify's `serverFactory` (T50): the app's own `node:http` server, whose requests meet the fast
 * path first and go to Fastify's handler when it does not answer them; `fastPath` null sends every
 * request to Fastify. Before either, {@link admitRequest} makes an absolute-form target origin-form
 * and sets aside a request with a protocol fault (no or two `Host`, `GET *`) for Fastify's 400
 * problem (T196); node's own bare 400 for a missing `Host` is off (`requireHostHeader`). The server
 * gets what Fastify gives the server it creates itself (lib/server.js: keep-alive and request
 * timeouts), the idle timeout of T197 armed only where it can matter (T500: {@link sentWhole}), and
 * CONNECT its 405 (issue 15).
 */
export function serverFactory(fastPath: FastPath | null, timeouts: ServerTimeouts): FastifyServerFactory {
  return (handler, serverOptions) => {
    const toFastify = handler as (req: IncomingMessage, res: ServerResponse) => void;
    fastPath?.handOverTo(toFastify);
    const options: ServerOptions = { ...(serverOptions.http as ServerOptions | undefined), requireHostHeader: false };
    const number = (value: unknown, fallback: number) => (typeof value === "number" ? value : fallback);
    const idleMs = number(serverOptions.connectionTimeout, 0);
    const server: Server = createServer(options, (req, res) => {
      const admitted = admitRequest(req);
      // T314: `/api/v1/at/<date>/…` is `/api/v1/…?at=<date>` from here on (fast path, routes, ETag).
      if (admitted && req.url?.startsWith("/api/v1/at/")) req.url = atPathToQuery(req.url);
      if (admitted && fastPath?.answer(req, res)) {
        if (idleMs > 0 && !sentWhole(res)) req.socket.setTimeout(idleMs);
        return;
      }
      if (idleMs > 0) req.socket.setTimeout(idleMs);
      toFastify(req, res);
    });
    server.keepAliveTimeout = number(serverOptions.keepAliveTimeout, timeouts.keepAliveMs);
    server.requestTimeout = number(serverOptions.requestTimeout, timeouts.requestMs);
    if (idleMs > 0) server.on("connection", (socket: Socket) => socket.setTimeout(idleMs));
    // CONNECT never reaches a route: node hands it to this event (issue 15: a 405 problem, not silence).
    server.on("connect", connectHandler);
    return server;
  };
}

/**
 * True when a fast-path answer left nothing behind: ended, and every byte handed to the kernel
 * (none buffered for a client that is not reading, none queued behind a pipelined answer). Only
 * then is T197's idle timeout skipped (T500): node's `server.setTimeout` armed a new timer on every
 * request and refreshed it on every read and write, a measurable part of a small answer's CPU
 * (issue 51). The idle timeout is armed instead where a connection can stall: from its start until
 * its first request is read, for every request Fastify answers (its body read, the answer rendered
 * and sent), and for a fast-path answer this returns false for. When an answer finishes, node
 * swaps in the keep-alive timeout (T27) as before.
 */
function sentWhole(res: ServerResponse): boolean {
  const socket = res.socket;
  return res.writableEnded && socket !== null && socket.writableLength === 0;
}
