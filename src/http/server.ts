import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from "node:http";
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
 * gets what Fastify gives the server it creates itself (lib/server.js: keep-alive, request and
 * connection timeouts, the last being the idle timeout of T197), and CONNECT its 405 (issue 15).
 */
export function serverFactory(fastPath: FastPath | null, timeouts: ServerTimeouts): FastifyServerFactory {
  return (handler, serverOptions) => {
    const toFastify = handler as (req: IncomingMessage, res: ServerResponse) => void;
    fastPath?.handOverTo(toFastify);
    const options: ServerOptions = { ...(serverOptions.http as ServerOptions | undefined), requireHostHeader: false };
    const server: Server = createServer(options, (req, res) => {
      const admitted = admitRequest(req);
      // T314: `/api/v1/at/<date>/…` is `/api/v1/…?at=<date>` from here on (fast path, routes, ETag).
      if (admitted && req.url?.startsWith("/api/v1/at/")) req.url = atPathToQuery(req.url);
      if (!(admitted && fastPath?.answer(req, res))) toFastify(req, res);
    });
    const number = (value: unknown, fallback: number) => (typeof value === "number" ? value : fallback);
    server.keepAliveTimeout = number(serverOptions.keepAliveTimeout, timeouts.keepAliveMs);
    server.requestTimeout = number(serverOptions.requestTimeout, timeouts.requestMs);
    server.setTimeout(number(serverOptions.connectionTimeout, 0));
    // CONNECT never reaches a route: node hands it to this event (issue 15: a 405 problem, not silence).
    server.on("connect", connectHandler);
    return server;
  };
}
