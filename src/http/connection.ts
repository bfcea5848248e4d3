import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { ConnectionError } from "fastify";
import { errorCacheControl } from "./cache-control.js";
import { CORS_HEADERS } from "./cors.js";
import type { ServerTimeouts } from "./limits.js";
import { PROBLEM_CONTENT_TYPE, problem } from "./problem.js";

/** Fastify server options applying {@link ServerTimeouts} (headersTimeout lives on node's server). */
export function timeoutOptions(t: ServerTimeouts) {
  return {
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
  const body = JSON.stringify(problem(status, detail));
  const headers: Record<string, string> = {
    ...CORS_HEADERS,
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
