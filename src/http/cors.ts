import cors from "@fastify/cors";
import type { FastifyInstance } from "fastify";
import { ENDPOINTS } from "../catalogue/endpoints/index.js";

/**
 * The headers endpoints describe about their own bodies (`Endpoint.headers`: the LiteLLM export's
 * kept-key counts, T526, T542), in the endpoints' order: exposed to browsers like the others.
 */
export const ENDPOINT_HEADERS: readonly string[] = ENDPOINTS.flatMap((e) => Object.keys(e.headers ?? {}));

/** D23: headers a browser script may read. */
export const EXPOSED_HEADERS: readonly string[] = [
  "ETag",
  "x-dataset-version",
  "Retry-After",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  ...ENDPOINT_HEADERS,
  // for browser MCP clients on /mcp (issue 15)
  "mcp-session-id",
  "mcp-protocol-version",
];

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
