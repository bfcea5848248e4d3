import cors from "@fastify/cors";
import rateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from "fastify";
import { LRUCache } from "lru-cache";
import { CatalogueError } from "../catalogue/errors.js";
import { parseRawQuery } from "../catalogue/params.js";
import type { CatalogueView } from "../catalogue/view.js";
import { errorCacheControl, successCacheControl } from "./cache-control.js";
import { ifNoneMatchMatches, weakEtag } from "./etag.js";
import { PROBLEM_CONTENT_TYPE, problem } from "./problem.js";
import { API_PREFIX, ROUTES, type RouteSpec } from "./routes.js";
import type { ViewHolder } from "./view-holder.js";

/** What the HTTP app needs; it reads no environment itself. */
export interface AppOptions {
  readonly views: ViewHolder;
  /** D24; 0 = off. */
  readonly rateLimitPerMinute: number;
  /** D19: absolute base URL for links; else the request's protocol and host. */
  readonly publicBaseUrl?: string | undefined;
  readonly trustProxy?: number | string[] | undefined;
  readonly logLevel?: string;
  /** Bound of the per-version response cache (entries). */
  readonly responseCacheEntries?: number;
}

/** D23: headers a browser script may read. */
export const EXPOSED_HEADERS = [
  "ETag",
  "x-dataset-version",
  "Retry-After",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
];
/** D14 */
export const ALLOWED_METHODS = "GET, HEAD, OPTIONS";
const OTHER_METHODS = ["POST", "PUT", "DELETE", "PATCH"] as const;
/** Bound on the request URL, against abuse of memory and caches. */
export const MAX_URL_LENGTH = 4096;

interface CachedResponse {
  readonly status: number;
  readonly body: Buffer;
  readonly contentType: string;
  readonly cacheControl: string;
  readonly etag: string;
}

/**
 * Builds the Fastify app serving API v1 from the current view (issue 2 §8, D13–D25).
 * Every body is a function of (dataset version, path, raw query), so responses are cached per
 * version and served with a weak ETag (D21).
 */
export async function createApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: options.logLevel ?? "info" },
    // Per-request logs would dominate the hot path; faults are logged by the error handler.
    logController: new LogController({ disableRequestLogging: true }),
    // D24: the client IP is the socket address unless TRUST_PROXY names trusted proxies.
    trustProxy: trustProxySetting(options.trustProxy),
    routerOptions: { maxParamLength: 500 },
    return503OnClosing: true,
  });

  let cacheVersion = "";
  let cache = new LRUCache<string, CachedResponse>({ max: options.responseCacheEntries ?? 5000 });
  const cacheFor = (view: CatalogueView) => {
    if (view.version !== cacheVersion) {
      cache = new LRUCache<string, CachedResponse>({ max: options.responseCacheEntries ?? 5000 });
      cacheVersion = view.version;
    }
    return cache;
  };

  await app.register(cors, {
    origin: "*",
    methods: ["GET", "HEAD", "OPTIONS"],
    allowedHeaders: ["If-None-Match", "Content-Type"],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 86400,
    strictPreflight: false,
  });

  if (options.rateLimitPerMinute > 0) {
    await app.register(rateLimit, {
      global: true,
      max: options.rateLimitPerMinute,
      timeWindow: 60_000,
      enableDraftSpec: true,
      allowList: (req) => req.method === "OPTIONS",
      keyGenerator: (req) => req.ip,
      errorResponseBuilder: (_req, ctx) => ({
        statusCode: 429,
        rateLimited: true,
        detail: `rate limit of ${ctx.max} requests per minute exceeded; retry after ${Math.max(1, Math.ceil(ctx.ttl / 1000))} s`,
      }),
    });
  }

  app.setErrorHandler((error: unknown, request, reply) => {
    const e = error as { statusCode?: number; rateLimited?: boolean; detail?: string; message?: string };
    if (e.rateLimited) return sendProblem(reply, 429, e.detail ?? "rate limit exceeded");
    const status = typeof e.statusCode === "number" ? e.statusCode : 500;
    if (status >= 400 && status < 500) return sendProblem(reply, status, "the request could not be read");
    request.log.error({ err: error }, "unexpected fault");
    return sendProblem(reply, 500, "an unexpected fault occurred; it has been logged");
  });

  app.setNotFoundHandler(
    { preHandler: options.rateLimitPerMinute > 0 ? app.rateLimit() : undefined },
    (request, reply) => {
      const view = options.views.current();
      const [path, query] = splitUrl(request.url);
      if (view) {
        reply.header("etag", weakEtag(view.version, path, query));
        reply.header("x-dataset-version", view.version);
      }
      return sendProblem(reply, 404, `no endpoint at ${truncate(path)}; see ${API_PREFIX}/openapi.json`);
    },
  );

  for (const route of ROUTES) {
    const url = `${API_PREFIX}${route.path}`;
    app.get(url, (request, reply) => serve(route, request, reply));
    app.route({
      method: [...OTHER_METHODS],
      url,
      handler: (_request, reply) => {
        reply.header("allow", ALLOWED_METHODS);
        return sendProblem(reply, 405, `this endpoint answers only ${ALLOWED_METHODS}`);
      },
    });
  }

  function serve(route: RouteSpec, request: FastifyRequest, reply: FastifyReply) {
    const view = options.views.current();
    if (!view) return sendProblem(reply, 503, "the catalogue is loading; retry shortly");
    if (request.url.length > MAX_URL_LENGTH)
      return sendProblem(reply, 414, `the request URL exceeds ${MAX_URL_LENGTH} characters`);
    const responses = cacheFor(view);
    // A body that embeds the request's origin (D19 links) is cached per host.
    const cacheKey = route.usesBaseUrl && !options.publicBaseUrl ? `${request.host} ${request.url}` : request.url;
    let entry = responses.get(cacheKey);
    if (!entry) {
      entry = render(route, view, request);
      responses.set(cacheKey, entry);
    }
    reply.header("etag", entry.etag);
    reply.header("cache-control", entry.cacheControl);
    reply.header("x-dataset-version", view.version);
    if (
      (entry.status === 200 || entry.status === 400 || entry.status === 404) &&
      ifNoneMatchMatches(request.headers["if-none-match"], entry.etag)
    ) {
      return reply.code(304).send();
    }
    return reply.code(entry.status).type(entry.contentType).send(entry.body);
  }

  function render(route: RouteSpec, view: CatalogueView, request: FastifyRequest): CachedResponse {
    const [path, query] = splitUrl(request.url);
    const etag = weakEtag(view.version, path, query);
    try {
      const params = (request.params ?? {}) as Record<string, string>;
      const baseUrl = options.publicBaseUrl ?? `${request.protocol}://${request.host}`;
      const body = route.handle(view, parseRawQuery(query), params, { baseUrl });
      return {
        status: 200,
        body: Buffer.from(typeof body === "string" ? body : JSON.stringify(body)),
        contentType: route.contentType ?? "application/json; charset=utf-8",
        cacheControl: successCacheControl(route.maxAge),
        etag,
      };
    } catch (error) {
      if (!(error instanceof CatalogueError)) throw error;
      const status = error.code === "not_found" ? 404 : 400;
      return {
        status,
        body: Buffer.from(JSON.stringify(problem(status, error.detail))),
        contentType: PROBLEM_CONTENT_TYPE,
        cacheControl: errorCacheControl(status),
        etag,
      };
    }
  }

  return app;
}

function sendProblem(reply: FastifyReply, status: number, detail: string) {
  reply.header("cache-control", errorCacheControl(status));
  return reply
    .code(status)
    .type(PROBLEM_CONTENT_TYPE)
    .send(JSON.stringify(problem(status, detail)));
}

function trustProxySetting(
  value: number | string[] | undefined,
): boolean | string | ((address: string, hop: number) => boolean) {
  if (value === undefined) return false;
  // A hop count trusts that many proxies nearest to us (proxy-addr's hop index).
  if (typeof value === "number") return (_address, hop) => hop < value;
  return value.join(",");
}

function splitUrl(url: string): [string, string] {
  const i = url.indexOf("?");
  return i < 0 ? [url, ""] : [url.slice(0, i), url.slice(i + 1)];
}

function truncate(s: string): string {
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}
