import { METHODS } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { StoreUnavailableError } from "../catalogue/errors.js";
import { FAULT_DETAIL, STORE_RETRY_SECONDS, STORE_UNAVAILABLE_DETAIL } from "../catalogue/problems.js";
import type { CatalogueView } from "../catalogue/view.js";
import type { ViewHolder } from "../catalogue/view-holder.js";
import { ALLOWED_METHODS } from "./cors.js";
import { urlTooLong } from "./fallbacks.js";
import { MAX_URL_LENGTH } from "./limits.js";
import { openApiRoute } from "./openapi.js";
import { sendProblem } from "./problem.js";
import { listeningBase, splitUrl } from "./request-url.js";
import { responseKey } from "./response-table.js";
import { API_PREFIX, ROUTES, type RouteSpec } from "./routes.js";
import type { VersionedResponses } from "./versioned-responses.js";

/** Every method node knows but GET, HEAD, OPTIONS (and CONNECT, which node handles itself): a 405 (D14). */
const OTHER_METHODS = METHODS.filter((m) => !["GET", "HEAD", "OPTIONS", "CONNECT"].includes(m));

const OPENAPI_ROUTE = openApiRoute(ROUTES.map((r) => r.endpoint));
/** Every GET route the app serves: the ROUTES of api-v1.md (one per endpoint descriptor) plus `/openapi.json` (D26). */
export const SERVED_ROUTES: readonly RouteSpec[] = [...ROUTES, OPENAPI_ROUTE];
/** The OpenAPI document of {@link SERVED_ROUTES}, built once. */
export const OPENAPI_DOCUMENT = () => OPENAPI_ROUTE.document();

/**
 * The day an `at=` question asks about, when the route takes `at` and the URL gives one
 * well-formed day once; anything else needs no point-in-time index (it is answered without `at`,
 * or is a 400 the route's own validation gives).
 */
function askedDay(route: RouteSpec, url: string): string | undefined {
  if (!("at" in route.endpoint.input.shape)) return undefined;
  const query = splitUrl(url)[1];
  // Most queries name no `at`; one spelled with percent-encoding (`%61t=`) is `at` to the route too.
  if (!query.includes("at=") && !query.includes("%")) return undefined;
  const given = new URLSearchParams(query).getAll("at");
  return given.length === 1 && /^\d{4}-\d{2}-\d{2}$/.test(given[0]!) ? given[0] : undefined;
}

/** What the Fastify route needs from the app. */
export interface ApiRouteParts {
  readonly views: ViewHolder;
  readonly responses: VersionedResponses;
  /** D19: absolute base URL for links; else the server's own listening address. */
  readonly publicBaseUrl: string | undefined;
}

/**
 * The Fastify route of every endpoint (D13–D26): GET (and HEAD) under `/api/v1` answer the
 * version's response for the URL from {@link VersionedResponses} (rendered and remembered on a
 * miss) through {@link CachedResponse.answer}, the rule the fast path uses, so both send the same
 * status, headers in the same order and bytes (T233). CORS and the D24 headers come from their
 * hooks, ahead of the response's own. Every other method is a 405 with `Allow`, answered before
 * any body is read, after the rate limit counted it (D14, D24, T28).
 */
export function registerApiRoutes(app: FastifyInstance, parts: ApiRouteParts): void {
  for (const method of OTHER_METHODS) if (!app.supportedMethods.includes(method)) app.addHttpMethod(method);
  for (const route of SERVED_ROUTES) {
    const url = `${API_PREFIX}${route.path}`;
    app.get(url, (request, reply) => serve(parts, route, request, reply));
    app.route({
      method: OTHER_METHODS,
      url,
      preParsing: async (_request, reply) => {
        reply.header("allow", ALLOWED_METHODS);
        return sendProblem(reply, 405, `this endpoint answers only ${ALLOWED_METHODS}`);
      },
      handler: (_request, reply) => reply,
    });
  }
}

function serve(parts: ApiRouteParts, route: RouteSpec, request: FastifyRequest, reply: FastifyReply) {
  const view = parts.views.current();
  if (!view) return sendProblem(reply, 503, FAULT_DETAIL.loading);
  if (request.url.length > MAX_URL_LENGTH) return urlTooLong(reply);
  // A point-in-time question reads the spans of the version in force that day, loaded between
  // requests on the first question about it (T165, T199); a store that cannot be read is a 503
  // with Retry-After, never a 500, and is not tried again before its backoff ends.
  const day = askedDay(route, request.url);
  const key = keyOf(parts, route, request);
  // An answer already built needs no index (the fast path answers most of those before this).
  if (day !== undefined && !parts.responses.tableFor(view).get(key))
    return view.loadTimeline(day).then(
      () => serveView(parts, view, route, key, request, reply),
      (error: unknown) => {
        const retry = error instanceof StoreUnavailableError ? error.retryAfterSeconds : STORE_RETRY_SECONDS;
        if (!(error instanceof StoreUnavailableError)) request.log.error({ err: error }, "point-in-time index");
        reply.header("retry-after", String(retry));
        return sendProblem(reply, 503, STORE_UNAVAILABLE_DETAIL);
      },
    );
  return serveView(parts, view, route, key, request, reply);
}

/** The key of the request's response in its version's table ({@link responseKey}). */
function keyOf(parts: ApiRouteParts, route: RouteSpec, request: FastifyRequest): string {
  const origin = route.usesBaseUrl && !parts.publicBaseUrl ? listeningBase(request) : null;
  return responseKey(request.url, origin);
}

function serveView(
  parts: ApiRouteParts,
  view: CatalogueView,
  route: RouteSpec,
  key: string,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  // D19 (amended): links come from PUBLIC_BASE_URL, else the server's own listening address, never
  // from request headers (Host, X-Forwarded-Host): one request cannot poison a shared cache.
  const ownBase = parts.publicBaseUrl ?? listeningBase(request);
  const params = (request.params ?? {}) as Record<string, string>;
  const entry = parts.responses.responseFor(view, key, route, request.url, params, ownBase);
  const answer = entry.answer(request.method, request.headers["if-none-match"], request.headers["accept-encoding"]);
  // The response's own headers, after the CORS pairs and RateLimit slots its hooks have set.
  const headers = answer.headers;
  for (let i = entry.ownHeadersFrom; i < headers.length; i += 2) reply.header(headers[i]!, headers[i + 1]);
  reply.code(answer.status);
  return answer.body === null ? reply.send() : reply.send(answer.body);
}
