import cors from "@fastify/cors";
import type { FastifyInstance } from "fastify";

/** D23: headers a browser script may read. */
export const EXPOSED_HEADERS = [
  "ETag",
  "x-dataset-version",
  "Retry-After",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  // the LiteLLM export's count of keys kept at LiteLLM's value (T526)
  "x-tariff-kept-one-source",
  // … and of keys kept where only aggregators agree (T542)
  "x-tariff-kept-aggregators-only",
  // for browser MCP clients on /mcp (issue 15)
  "mcp-session-id",
  "mcp-protocol-version",
] as const;

/** Headers the MCP SDK's browser transport sends (issue 15). */
export const MCP_REQUEST_HEADERS = ["mcp-protocol-version", "mcp-session-id", "last-event-id", "Accept"] as const;

/** D14, D23: the only methods the API answers. */
export const ALLOWED_METHODS = "GET, HEAD, OPTIONS";

/** D23: how long a browser may cache a preflight, seconds. */
export const PREFLIGHT_MAX_AGE = 86400;

/**
 * D23 headers of a response that bypasses Fastify's hooks (a URL the router cannot decode, a
 * connection-level error): the same as @fastify/cors puts on every other response.
 */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": EXPOSED_HEADERS.join(", "),
};

/**
 * D23 with @fastify/cors: `Access-Control-Allow-Origin: *` and the exposed headers on every
 * response (its onRequest hook runs before routing, so errors, 304 and 429 carry them too);
 * every OPTIONS is answered 204 with the allowed methods, `If-None-Match` allowed and max-age 86400.
 */
export async function registerCors(app: FastifyInstance): Promise<void> {
  await app.register(cors, {
    origin: "*",
    methods: ALLOWED_METHODS.split(", "),
    // Browser MCP clients send these on /mcp (issue 15); the API ignores them.
    allowedHeaders: ["If-None-Match", "Content-Type", ...MCP_REQUEST_HEADERS],
    exposedHeaders: [...EXPOSED_HEADERS],
    maxAge: PREFLIGHT_MAX_AGE,
    strictPreflight: false,
    optionsSuccessStatus: 204,
  });
}
