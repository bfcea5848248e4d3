import { createServer, type IncomingMessage, METHODS, type ServerOptions, type ServerResponse } from "node:http";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from "fastify";
import type { Redis } from "ioredis";
import type { RateLimiterAbstract, RateLimiterRes } from "rate-limiter-flexible";
import { parseRawQuery } from "../catalogue/endpoint.js";
import { CatalogueError } from "../catalogue/errors.js";
import { FAULT_DETAIL, PROBLEM_CONTENT_TYPE, problem, problemOfError, STATUS_OF_ERROR } from "../catalogue/problems.js";
import type { CatalogueView } from "../catalogue/view.js";
import type { ViewHolder } from "../catalogue/view-holder.js";
import type { UpstreamFilesOf } from "../exports/types.js";
import { registerWeb, type WebOptions } from "../web/register-web.js";
import { errorCacheControl, successCacheControl } from "./cache-control.js";
import { CachedResponse, countedHeaders } from "./cached-response.js";
import { clientErrorHandler, connectHandler, timeoutOptions } from "./connection.js";
import { ALLOWED_METHODS, CORS_HEADERS, registerCors } from "./cors.js";
import { registerDocsPage } from "./docs-page.js";
import { hasDotSegment } from "./dot-segments.js";
import { negotiateEncoding } from "./encoding.js";
import { ifNoneMatchMatches, weakEtag } from "./etag.js";
import { DEFAULT_TIMEOUTS, MAX_URL_LENGTH, type ServerTimeouts } from "./limits.js";
import { openApiRoute } from "./openapi.js";
import { sendProblem } from "./problem.js";
import { clientIpOf, RateLimit } from "./rate-limit.js";
import { precomputedRequests, ResponseTable } from "./response-table.js";
import { registerRootRedirect } from "./root-redirect.js";
import { API_PREFIX, ROUTES, type RouteSpec } from "./routes.js";

export { ALLOWED_METHODS, EXPOSED_HEADERS } from "./cors.js";
export { MAX_URL_LENGTH } from "./limits.js";

/** What the HTTP app needs; it reads no environment itself. */
export interface AppOptions {
  readonly views: ViewHolder;
  /** D24; 0 = off. */
  readonly rateLimitPerMinute: number;
  /** D24 window in ms (60 000 unless a test shortens it). */
  readonly rateLimitWindowMs?: number;
  /**
   * D24: a rate-limiter-flexible limiter to count with instead of the in-process memory store
   * (another store, a cluster limiter); its `points` and `duration` should match the two above.
   */
  readonly rateLimiter?: RateLimiterAbstract;
  /** Shares the D24 counters through Redis (REDIS_URL, an ioredis client); fails open when Redis is down (T30). */
  readonly rateLimitRedis?: Redis | undefined;
  /** D19: absolute base URL for links; else the request's protocol and host. */
  readonly publicBaseUrl?: string | undefined;
  readonly trustProxy?: number | string[] | undefined;
  readonly logLevel?: string;
  /** A logger to use instead of a new pino at `logLevel` (tests capture the fault log with it). */
  readonly logger?: FastifyBaseLogger;
  /** Timeouts against slow clients; defaults {@link DEFAULT_TIMEOUTS}. */
  readonly timeouts?: ServerTimeouts;
  /** Bound of the per-version cache of responses to free query input (entries; default 5 000). */
  readonly responseCacheEntries?: number;
  /** Bound of the same cache in bytes (default 64 MiB). */
  readonly responseCacheBytes?: number;
  /**
   * Serve gzip and brotli variants per `Accept-Encoding` with `Vary: Accept-Encoding` (issue 6 §2,
   * T51). On unless set to false (issue 16).
   */
  readonly compression?: boolean;
  /** Build the parameter-free responses when a version becomes current (default true; tests compare both). */
  readonly precompute?: boolean;
  /** Answer built responses before Fastify (T50, T130; default true; tests compare both paths). */
  readonly fastPath?: boolean;
  /** Mount the web catalogue at `/` (issue 18, T121); absent = API, MCP and docs only. */
  readonly web?: WebOptions | undefined;
  /** The recorded upstream files the price-file exports keep the consumers' keys from (issue 29, T210). */
  readonly upstream?: UpstreamFilesOf | undefined;
}

/** Every method node knows but GET, HEAD, OPTIONS (and CONNECT, which node handles itself): a 405 (D14). */
const OTHER_METHODS = METHODS.filter((m) => !["GET", "HEAD", "OPTIONS", "CONNECT"].includes(m));

/** Precomputed responses are built in slices of this many ms, yielding to requests in between. */
const PRECOMPUTE_SLICE_MS = 5;

const precomputing = new WeakMap<FastifyInstance, () => Promise<void>>();

/** Resolves when the responses of the app's current version are built (for tests and the bench). */
export function precomputed(app: FastifyInstance): Promise<void> {
  return precomputing.get(app)?.() ?? Promise.resolve();
}

const OPENAPI_ROUTE = openApiRoute(ROUTES.map((r) => r.endpoint));
/** Every GET route the app serves: the ROUTES of api-v1.md plus `/openapi.json` (D26). */
export const SERVED_ROUTES: readonly RouteSpec[] = [...ROUTES, OPENAPI_ROUTE];
/** The OpenAPI document of {@link SERVED_ROUTES}, built once. */
export const OPENAPI_DOCUMENT = () => OPENAPI_ROUTE.document();

/** A query string with an `at` parameter (issue 17 point-in-time questions). */
const AT_PARAM = /[?&]at=/;

/**
 * Builds the Fastify app serving API v1 from the current view (D13–D26).
 * Every body is a function of (dataset version, path, raw query), so responses are cached per
 * version and served with a weak ETag (D21). Errors are problem details with CORS on every
 * response, also the ones Fastify's router and node's parser produce before any route runs.
 */
export async function createApp(options: AppOptions): Promise<FastifyInstance> {
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  const compression = options.compression ?? true;
  // T50, T130: a built response is answered before Fastify, counted by the same limit as the Fastify path.
  const fastPath = options.fastPath ?? true;
  const limit =
    options.rateLimitPerMinute > 0
      ? new RateLimit({
          max: options.rateLimitPerMinute,
          ...(options.rateLimitWindowMs !== undefined ? { windowMs: options.rateLimitWindowMs } : {}),
          ...(options.rateLimiter ? { limiter: options.rateLimiter } : {}),
          ...(options.rateLimitRedis ? { redis: options.rateLimitRedis } : {}),
        })
      : null;
  const clientIp = clientIpOf(options.trustProxy);
  /** Requests the fast path counted and handed to Fastify (over the limit): Fastify answers the 429 without counting again. */
  const countedFast = new WeakMap<IncomingMessage, RateLimiterRes>();
  let closing = false;
  /** Fastify's request handler (set by the server factory below), for requests the fast path hands over. */
  let toFastify: (req: IncomingMessage, res: ServerResponse) => void = () => {};
  const app = Fastify({
    serverFactory: (handler, serverOptions) => {
      toFastify = handler;
      const server = createServer((serverOptions.http ?? {}) as ServerOptions, (req, res) => {
        if (!answerFast(req, res)) handler(req, res);
      });
      // What Fastify does to the server it creates itself (lib/server.js).
      const number = (value: unknown, fallback: number) => (typeof value === "number" ? value : fallback);
      server.keepAliveTimeout = number(serverOptions.keepAliveTimeout, timeouts.keepAliveMs);
      server.requestTimeout = number(serverOptions.requestTimeout, timeouts.requestMs);
      server.setTimeout(number(serverOptions.connectionTimeout, 0));
      // CONNECT never reaches a route: node hands it to this event (issue 15: a 405 problem, not silence).
      server.on("connect", connectHandler);
      return server;
    },
    ...(options.logger ? { loggerInstance: options.logger } : { logger: { level: options.logLevel ?? "info" } }),
    // Per-request logs would dominate the hot path; faults are logged by the error handler.
    logController: new LogController({ disableRequestLogging: true }),
    // D24: the client IP is the socket address unless TRUST_PROXY names trusted proxies.
    trustProxy: trustProxySetting(options.trustProxy),
    // Path parameters are bounded by the URL bound (T25), not by a shorter router limit.
    routerOptions: { maxParamLength: MAX_URL_LENGTH },
    return503OnClosing: true,
    ...timeoutOptions(timeouts),
    clientErrorHandler,
    // A path the router cannot decode (malformed percent-encoding) or too long: a problem, never a 500.
    frameworkErrors: (error, request, reply) => {
      void answerFrameworkError(error, request, reply);
    },
  });

  // The responses of the current view and of the one before it (requests that took the old view
  // before a swap finish on it, D21); a table is found by the view's identity.
  let tables: ResponseTable[] = [];
  const bounds = {
    ...(options.responseCacheEntries !== undefined ? { entries: options.responseCacheEntries } : {}),
    ...(options.responseCacheBytes !== undefined ? { bytes: options.responseCacheBytes } : {}),
  };
  const tableFor = (view: CatalogueView): ResponseTable => {
    for (const table of tables) if (table.view === view) return table;
    const table = new ResponseTable(view, bounds);
    tables = [table, ...tables].slice(0, 2);
    if (options.precompute ?? true) precompute(table);
    return table;
  };
  /** Builds the parameter-free responses of a table in slices, so requests are served in between. */
  let building: Promise<void> = Promise.resolve();
  const precompute = (table: ResponseTable) => {
    const requests = precomputedRequests(table.view);
    let next = 0;
    let done = () => {};
    building = new Promise((resolve) => {
      done = resolve;
    });
    const slice = () => {
      if (!tables.includes(table)) return done(); // a newer version took over
      const until = performance.now() + PRECOMPUTE_SLICE_MS;
      for (; next < requests.length && performance.now() < until; next++) {
        const r = requests[next];
        if (!r) continue;
        try {
          table.fix(r.url, render(r.route, table.view, r.url, r.params, ""));
        } catch {
          // An unexpected fault is left to the request, which logs it and answers 500 (D25).
        }
      }
      if (next < requests.length) setImmediate(slice);
      else done();
    };
    slice();
  };
  precomputing.set(app, () => building);
  const initial = options.views.current();
  if (initial) tableFor(initial);
  options.views.onSwap((view) => {
    if (view) tableFor(view);
  });
  app.addHook("preClose", async () => {
    closing = true;
  });

  /**
   * The fast path (T50, T130): a GET whose response is already built is answered from its bytes
   * before Fastify sees it, with the headers Fastify would send (CORS, D24 counts, validators,
   * Cache-Control) and a 304 on a matching If-None-Match first. The request is counted by the
   * same limit as on the Fastify path; one over the limit goes to Fastify with its count, for the
   * 429. Anything else (a miss, HEAD, a request body, closing) goes to Fastify.
   */
  function answerFast(req: IncomingMessage, res: ServerResponse): boolean {
    if (!fastPath || closing || req.method !== "GET") return false;
    const url = req.url;
    if (url === undefined || url.length > MAX_URL_LENGTH) return false;
    if (req.headers["transfer-encoding"] !== undefined) return false;
    const length = req.headers["content-length"];
    if (length !== undefined && length !== "0") return false;
    const view = options.views.current();
    if (!view) return false;
    const entry = tableFor(view).get(url);
    if (!entry) return false;
    if (limit === null) answerBuilt(req, res, entry, null);
    else
      limit.consume(clientIp(req)).then(
        (count) => answerBuilt(req, res, entry, count),
        (reason: unknown) => {
          const over = RateLimit.overLimit(reason);
          // The store failed (Redis down): served uncounted (T30).
          if (over === null) return answerBuilt(req, res, entry, null);
          countedFast.set(req, over);
          toFastify(req, res);
        },
      );
    return true;
  }

  /** Writes a built response (or its 304) with its prebuilt header list, the D24 count filled in. */
  function answerBuilt(req: IncomingMessage, res: ServerResponse, entry: CachedResponse, count: RateLimiterRes | null) {
    try {
      const tags = req.headers["if-none-match"];
      // RFC 9110 §13.2.1 (D21 amended): If-None-Match applies only where the answer would be 2xx.
      if (entry.status === 200 && tags !== undefined && (tags === entry.etag || ifNoneMatchMatches(tags, entry.etag))) {
        res.writeHead(304, countedHeaders(entry.notModifiedHeaders, entry.counted, limit, count));
        res.end();
        return;
      }
      const variant = entry.variant(compression ? negotiateEncoding(req.headers["accept-encoding"]) : "identity");
      res.writeHead(entry.status, countedHeaders(variant.headers, entry.counted, limit, count));
      res.end(variant.body);
    } catch (error) {
      // Nothing expected throws here; a fault is logged and the connection closed, never a crash.
      app.log.error({ err: error }, "unexpected fault");
      res.destroy();
    }
  }

  /**
   * Counts a request on the Fastify path (or takes the fast path's count), sets the D24 headers and
   * answers the 429 problem with `Retry-After` when the client is over its limit.
   * @returns true when the 429 was sent
   */
  async function countOnFastify(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    if (limit === null || request.method === "OPTIONS") return false;
    const raw = request.raw;
    let count = countedFast.get(raw);
    let over = count !== undefined;
    if (count === undefined)
      try {
        count = await limit.consume(clientIp(raw));
      } catch (reason) {
        const refused = RateLimit.overLimit(reason);
        if (refused === null) return false; // the store is down: served uncounted (T30)
        count = refused;
        over = true;
      }
    reply.header("ratelimit-limit", limit.limitHeader);
    reply.header("ratelimit-remaining", RateLimit.remaining(count));
    reply.header("ratelimit-reset", RateLimit.reset(count));
    if (!over) return false;
    reply.header("retry-after", RateLimit.retryAfter(count));
    sendProblem(reply, 429, limit.detail(count));
    return true;
  }

  await registerCors(app);
  // D24: every request but a preflight counts, on every route (the 404 handler, /mcp, /docs and the
  // web catalogue's files too); registered after CORS, so a 429 carries the CORS headers.
  if (limit)
    app.addHook("onRequest", async (request, reply) => {
      if (await countOnFastify(request, reply)) return reply;
    });

  app.setErrorHandler((error: unknown, request, reply) => {
    const status = (error as { statusCode?: unknown }).statusCode;
    if (typeof status === "number" && status >= 400 && status < 500)
      return sendProblem(reply, status, "the request could not be read");
    request.log.error({ err: error }, "unexpected fault");
    // D25: nothing of the fault reaches the client; the validators set before it threw are dropped.
    reply.removeHeader("etag");
    return sendProblem(reply, 500, FAULT_DETAIL.unexpected);
  });

  app.setNotFoundHandler((request, reply) => {
    if (request.url.length > MAX_URL_LENGTH) return urlTooLong(reply);
    const [path] = splitUrl(request.url);
    return answerVersioned(request, reply, 404, `no endpoint at ${truncate(path)}; see ${API_PREFIX}/openapi.json`);
  });

  for (const method of OTHER_METHODS) if (!app.supportedMethods.includes(method)) app.addHttpMethod(method);
  for (const route of SERVED_ROUTES) {
    const url = `${API_PREFIX}${route.path}`;
    app.get(url, (request, reply) => serve(route, request, reply));
    app.route({
      method: OTHER_METHODS,
      url,
      // Answered before the body is parsed, after the rate limit counted it (D14, D24).
      preParsing: async (_request, reply) => {
        reply.header("allow", ALLOWED_METHODS);
        return sendProblem(reply, 405, `this endpoint answers only ${ALLOWED_METHODS}`);
      },
      handler: (_request, reply) => reply,
    });
  }

  // Dot segments outside the API (issue 15): clients resolve them before sending (RFC 3986 §5.2.4),
  // so a raw `..` names nothing here; say so instead of the static server's 403.
  app.addHook("onRequest", async (request, reply) => {
    const [path] = splitUrl(request.url);
    if (path.startsWith(`${API_PREFIX}/`) || !hasDotSegment(path)) return;
    return answerVersioned(
      request,
      reply,
      404,
      `no file at ${truncate(path)}: dot segments (. and ..) are not resolved by this server`,
    );
  });

  await registerDocsPage(app, OPENAPI_DOCUMENT());
  // `/` is the web catalogue's when it is mounted (issue 18); else it points at the docs (issue 15).
  if (options.web) await registerWeb(app, options.web);
  else registerRootRedirect(app);

  function serve(route: RouteSpec, request: FastifyRequest, reply: FastifyReply) {
    const view = options.views.current();
    if (!view) return sendProblem(reply, 503, FAULT_DETAIL.loading);
    if (request.url.length > MAX_URL_LENGTH) return urlTooLong(reply);
    // A point-in-time question reads every version's spans, loaded on the first one (T165).
    if (AT_PARAM.test(request.url)) return view.loadTimeline().then(() => serveView(view, route, request, reply));
    return serveView(view, route, request, reply);
  }

  function serveView(view: CatalogueView, route: RouteSpec, request: FastifyRequest, reply: FastifyReply) {
    const responses = tableFor(view);
    // A body that embeds the request's origin (D19 links) is cached per host.
    // D19 (amended): links come from PUBLIC_BASE_URL, else the server's own listening address,
    // never from request headers (Host, X-Forwarded-Host) — one request cannot poison a shared cache.
    const ownBase = options.publicBaseUrl ?? listeningBase(request);
    const cacheKey = route.usesBaseUrl && !options.publicBaseUrl ? `${ownBase} ${request.url}` : request.url;
    let entry = responses.get(cacheKey);
    if (!entry) {
      const params = (request.params ?? {}) as Record<string, string>;
      const baseUrl = ownBase;
      entry = render(route, view, request.url, params, baseUrl);
      responses.remember(cacheKey, entry);
    }
    reply.header("etag", entry.etag);
    reply.header("cache-control", entry.cacheControl);
    reply.header("x-dataset-version", entry.version);
    if (entry.vary) reply.header("vary", "accept-encoding");
    if (entry.location) reply.header("location", entry.location);
    if (entry.status === 200 && ifNoneMatchMatches(request.headers["if-none-match"], entry.etag))
      return reply.code(304).send();
    // HEAD reports the identity body's length (a HEAD is not compressed).
    const coding =
      compression && request.method === "GET" ? negotiateEncoding(request.headers["accept-encoding"]) : "identity";
    const variant = entry.variant(coding);
    if (variant.coding !== "identity") reply.header("content-encoding", variant.coding);
    return reply.code(entry.status).type(entry.contentType).send(variant.body);
  }

  /** The response of a route for one URL of one version; a CatalogueError becomes its 400/404 problem. */
  function render(
    route: RouteSpec,
    view: CatalogueView,
    url: string,
    params: Readonly<Record<string, string>>,
    baseUrl: string,
  ): CachedResponse {
    const [path, query] = splitUrl(url);
    const etag = weakEtag(view.version, path, query);
    try {
      const raw = parseRawQuery(query);
      const body = route.handle(view, raw, params, {
        baseUrl,
        ...(options.upstream ? { upstream: options.upstream } : {}),
      });
      return new CachedResponse(
        {
          status: 200,
          body: Buffer.from(typeof body === "string" ? body : JSON.stringify(body)),
          contentType: route.contentType ?? "application/json; charset=utf-8",
          cacheControl: successCacheControl(route.maxAgeOf(view, raw)),
          etag,
          // x-dataset-version equals meta.datasetVersion: the version in force on `at` when given (T147).
          version: answeredVersion(body) ?? view.version,
        },
        compression,
        limit !== null,
      );
    } catch (error) {
      if (!(error instanceof CatalogueError)) throw error;
      if (error.code === "moved" && error.target) {
        // T67: an alias or former id answers 308 to the canonical path, the rest of the URL kept.
        const location = `${path.replace(/\/models\/[^/]+\/[^/]+/, `/models/${error.target}`)}${query ? `?${query}` : ""}`;
        return new CachedResponse(
          {
            status: 308,
            body: Buffer.from(JSON.stringify(problemOfError(error))),
            contentType: PROBLEM_CONTENT_TYPE,
            cacheControl: successCacheControl(route.maxAge),
            etag,
            version: view.version,
            location,
          },
          compression,
          limit !== null,
        );
      }
      const status = STATUS_OF_ERROR[error.code];
      return new CachedResponse(
        {
          status,
          body: Buffer.from(JSON.stringify(problemOfError(error))),
          contentType: PROBLEM_CONTENT_TYPE,
          cacheControl: errorCacheControl(status),
          etag,
          version: view.version,
        },
        compression,
        limit !== null,
      );
    }
  }

  /** A 400/404 outside the routes: ETag and x-dataset-version as on every 400/404 (D21); never a 304 (D21 amended). */
  function answerVersioned(request: FastifyRequest, reply: FastifyReply, status: 400 | 404, detail: string) {
    const view = options.views.current();
    if (view) {
      const [path, query] = splitUrl(request.url);
      const etag = weakEtag(view.version, path, query);
      reply.header("etag", etag);
      reply.header("x-dataset-version", view.version);
    }
    return sendProblem(reply, status, detail);
  }

  /** Errors of Fastify's router; its hooks did not run, so CORS and the rate limit are applied here. */
  async function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
    try {
      reply.headers(CORS_HEADERS);
      if (await countOnFastify(request, reply)) return;
      if (error.code === "FST_ERR_MAX_PARAM_LENGTH" || request.url.length > MAX_URL_LENGTH) return urlTooLong(reply);
      return answerVersioned(request, reply, 400, "the request path is not valid percent-encoded UTF-8");
    } catch (fault) {
      request.log.error({ err: fault }, "unexpected fault");
      if (!reply.sent) sendProblem(reply, 500, FAULT_DETAIL.unexpected);
    }
  }

  return app;
}

/** T25: the URL bound. */
function urlTooLong(reply: FastifyReply) {
  return sendProblem(reply, 414, `the request URL exceeds ${MAX_URL_LENGTH} characters`);
}

function trustProxySetting(
  value: number | string[] | undefined,
): boolean | string | ((address: string, hop: number) => boolean) {
  if (value === undefined) return false;
  // A hop count trusts that many proxies nearest to us (proxy-addr's hop index).
  if (typeof value === "number") return (_address, hop) => hop < value;
  return value.join(",");
}

/** `http://<address>:<port>` of the socket the request came in on: the server's own, never a header (D19). */
function listeningBase(request: FastifyRequest): string {
  const address = request.socket.localAddress ?? "127.0.0.1";
  const host = address.includes(":") ? `[${address.replace(/^::ffff:/, "")}]` : address;
  const plain = address.startsWith("::ffff:") ? address.slice(7) : null;
  return `http://${plain ?? host}:${request.socket.localPort}`;
}

/** `meta.datasetVersion` of a JSON body, when it has one. */
function answeredVersion(body: unknown): string | undefined {
  const meta =
    typeof body === "object" && body !== null ? (body as { meta?: { datasetVersion?: unknown } }).meta : undefined;
  return typeof meta?.datasetVersion === "string" ? meta.datasetVersion : undefined;
}

function splitUrl(url: string): [string, string] {
  const i = url.indexOf("?");
  return i < 0 ? [url, ""] : [url.slice(0, i), url.slice(i + 1)];
}

function truncate(s: string): string {
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}
