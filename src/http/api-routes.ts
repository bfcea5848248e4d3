import { METHODS } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { StoreUnavailableError } from "../catalogue/errors.js";
import { FAULT_DETAIL, STORE_UNAVAILABLE_DETAIL } from "../catalogue/problems.js";
import type { CatalogueView } from "../catalogue/view.js";
import type { ViewHolder } from "../catalogue/view-holder.js";
import type { CachedResponse } from "./cached-response.js";
import { ALLOWED_METHODS } from "./cors.js";
import type { RequestCounting } from "./count-request.js";
import { urlTooLong } from "./fallbacks.js";
import { MAX_URL_LENGTH } from "./limits.js";
import { openApiRoute } from "./openapi.js";
import { sendProblem } from "./problem.js";
import { listeningBase } from "./request-url.js";
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

/** What the Fastify route needs from the app. */
export interface ApiRouteParts {
  readonly views: ViewHolder;
  readonly responses: VersionedResponses;
  /** D19: absolute base URL for links; else the server's own listening address. */
  readonly publicBaseUrl: string | undefined;
  /** The D24 count, which charges a past day not yet computed {@link COLD_PAST_DAY_POINTS} (T472). */
  readonly counting?: RequestCounting;
}

/**
 * What a past day's answer not yet computed costs against the D24 limit, in requests (issue 47 §2,
 * T472): a price-file export of a version not yet asked takes 0.3–2 s of a core (a worker's, T470)
 * where an answer from memory takes tens of µs, so a client asking many cold days is limited by
 * what they cost: 30 a minute at the default 300, against 300 answered from memory.
 */
export const COLD_PAST_DAY_POINTS = 10;

/** The 429's reason when a cold past day tipped the count over (T472). */
export const COLD_PAST_DAY_REASON =
  `a past day (\`at\`) whose answer is not in memory yet counts as ${COLD_PAST_DAY_POINTS} requests; ` +
  "a day already asked counts as one";

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
  const key = keyOf(parts, route, request);
  // An answer already built is sent now (the fast path answers most of those before this).
  const known = parts.responses.tableFor(view).get(key);
  if (known) return send(known, request, reply);
  // D19 (amended): links come from PUBLIC_BASE_URL, else the server's own listening address, never
  // from request headers (Host, X-Forwarded-Host): one request cannot poison a shared cache.
  const ownBase = parts.publicBaseUrl ?? listeningBase(request);
  const params = (request.params ?? {}) as Record<string, string>;
  // T472: a past day not computed yet costs more than one request (the hook counted the first).
  if (parts.counting?.limit && parts.responses.coldPastDay(view, key, route, request.url))
    return parts.counting
      .countMore(request, reply, COLD_PAST_DAY_POINTS - 1, COLD_PAST_DAY_REASON)
      .then((refused) => (refused ? reply : answer(parts, view, key, route, request, reply, ownBase, params)));
  return answer(parts, view, key, route, request, reply, ownBase, params);
}

/** Finds or renders the response of a request missing from the table and sends it. */
function answer(
  parts: ApiRouteParts,
  view: CatalogueView,
  key: string,
  route: RouteSpec,
  request: FastifyRequest,
  reply: FastifyReply,
  ownBase: string,
  params: Record<string, string>,
) {
  // A point-in-time question loads the spans of the version in force that day on its first ask
  // (callEndpoint, T165, T199, T275); a store that cannot be read is a 503 with Retry-After, never a
  // 500, and is not tried again before its backoff ends.
  return parts.responses.responseFor(view, key, route, request.url, params, ownBase).then(
    (entry) => send(entry, request, reply),
    (error: unknown) => {
      if (!(error instanceof StoreUnavailableError)) throw error;
      reply.header("retry-after", String(error.retryAfterSeconds));
      return sendProblem(reply, 503, STORE_UNAVAILABLE_DETAIL);
    },
  );
}

/** The key of the request's response in its version's table ({@link responseKey}). */
function keyOf(parts: ApiRouteParts, route: RouteSpec, request: FastifyRequest): string {
  const origin = route.usesBaseUrl && !parts.publicBaseUrl ? listeningBase(request) : null;
  return responseKey(request.url, origin);
}

/** Sends a response: its own headers, after the CORS pairs and RateLimit slots the hooks have set. */
function send(entry: CachedResponse, request: FastifyRequest, reply: FastifyReply) {
  const answer = entry.answer(request.method, request.headers["if-none-match"], request.headers["accept-encoding"]);
  const headers = answer.headers;
  for (let i = entry.ownHeadersFrom; i < headers.length; i += 2) reply.header(headers[i]!, headers[i + 1]);
  reply.code(answer.status);
  return answer.body === null ? reply.send() : reply.send(answer.body);
}
