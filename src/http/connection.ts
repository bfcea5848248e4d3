import { type IncomingMessage, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { ConnectionError } from "fastify";
import { PROBLEM_CONTENT_TYPE, problem } from "../catalogue/problems.js";
import { errorCacheControl } from "./cache-control.js";
import { ALLOWED_METHODS, CORS_HEADERS } from "./cors.js";
import { DEFAULT_TIMEOUTS, type ServerTimeouts } from "./limits.js";

/**
 * Fastify server options applying {@link ServerTimeouts} (headersTimeout lives on node's server).
 * `connectionTimeout` is node's socket idle timeout (T197): it runs while a request is read and
 * answered (node swaps in `keepAliveTimeout` between requests), so a client that stops reading
 * its answer is destroyed once nothing moved for `idleMs`.
 */
export function timeoutOptions(t: ServerTimeouts) {
  return {
    connectionTimeout: t.idleMs ?? DEFAULT_TIMEOUTS.idleMs,
    requestTimeout: t.requestMs,
    keepAliveTimeout: t.keepAliveMs,
    http: {
      headersTimeout: Math.min(t.headersMs, t.requestMs),
      requestTimeout: t.requestMs,
      keepAliveTimeout: t.keepAliveMs,
      connectionsCheckingInterval: t.checkIntervalMs ?? Math.min(1000, t.headersMs),
    },
  };
}

/**
 * Answers errors node raises before a request exists (headers or request timeout → 408, headers
 * too large → 431, unparsable HTTP → 400) with a problem body (D25) and the CORS headers (D23),
 * then closes the connection. These never reach a route, so no ETag and no rate-limit count.
 */
export function clientErrorHandler(error: ConnectionError, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const status = error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : error.code === "HPE_HEADER_OVERFLOW" ? 431 : 400;
  const detail =
    status === 408
      ? "the request was not received in time"
      : status === 431
        ? "the request headers are too large"
        : "the request is not valid HTTP";
  writeRawProblem(socket, status, detail);
}

/**
 * `CONNECT` (issue 15): node hands it to the server's `connect` event instead of a route, and
 * without a listener drops the connection with no answer. This server is no proxy: a 405 problem
 * with `Allow` (D14), then the connection is closed. It never reaches Fastify, so no rate-limit count.
 */
export function connectHandler(_request: IncomingMessage, socket: Duplex): void {
  writeRawProblem(socket, 405, `this server is not a proxy; it answers only ${ALLOWED_METHODS}`, {
    allow: ALLOWED_METHODS,
  });
}

/** Writes a whole problem response (D25, D23 headers) on a socket no framework owns, then closes it. */
function writeRawProblem(
  socket: Duplex,
  status: number,
  detail: string,
  extra: Readonly<Record<string, string>> = {},
): void {
  const body = JSON.stringify(problem(status, detail));
  const headers: Record<string, string> = {
    ...CORS_HEADERS,
    ...extra,
    "content-type": PROBLEM_CONTENT_TYPE,
    "content-length": String(Buffer.byteLength(body)),
    "cache-control": errorCacheControl(status),
    connection: "close",
  };
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
  // end() flushes the answer before closing; a client that does not read it is dropped a second later.
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join("")}\r\n${body}`);
  setTimeout(() => socket.destroy(), 1000).unref();
}
