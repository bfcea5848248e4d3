import { type Endpoint, inputFromQuery, type RawQuery, type RunContext } from "../catalogue/endpoint.js";
import { ENDPOINTS } from "../catalogue/endpoints/index.js";
import { isSettledAt, PAST_MAX_AGE } from "../catalogue/point-in-time.js";
import type { CatalogueView } from "../catalogue/view.js";

/** Base path of API v1. */
export const API_PREFIX = "/api/v1";

/** Request facts a verb may need beyond the query: the absolute origin for links (D19, T90). */
export type RouteContext = RunContext;

/**
 * One GET route, built from an endpoint descriptor (T162): its path (Fastify syntax), max-age (D22)
 * and a handler that turns the query string into the endpoint's typed input at the edge (D13: a
 * parameter given twice is a 400, integers are decimal digits) and runs it.
 */
export interface RouteSpec {
  readonly path: string;
  readonly maxAge: number;
  readonly contentType?: string;
  /** True when the body embeds the request's origin (so responses are cached per host). */
  readonly usesBaseUrl?: boolean;
  /** The descriptor the route serves. */
  readonly endpoint: Endpoint;
  /** D22 max-age of a 200 for this query: {@link PAST_MAX_AGE} for an `at` before the current version's day (T148). */
  readonly maxAgeOf: (view: CatalogueView, query: RawQuery) => number;
  readonly handle: (
    view: CatalogueView,
    query: RawQuery,
    params: Readonly<Record<string, string>>,
    context: RouteContext,
  ) => unknown;
}

/** The route of one endpoint descriptor. */
export function routeOf(endpoint: Endpoint): RouteSpec {
  return {
    path: endpoint.path,
    maxAge: endpoint.maxAge,
    ...(endpoint.contentType ? { contentType: endpoint.contentType } : {}),
    ...(endpoint.usesBaseUrl ? { usesBaseUrl: true } : {}),
    endpoint,
    maxAgeOf: (view, query) => {
      const at = "at" in endpoint.input.shape ? query.get("at") : undefined;
      return at?.length === 1 && isSettledAt(view, at[0]!) ? Math.max(PAST_MAX_AGE, endpoint.maxAge) : endpoint.maxAge;
    },
    handle: (view, query, params, context) =>
      endpoint.run(
        view,
        inputFromQuery(endpoint.input, query),
        { provider: params.provider ?? "", model: params.model ?? "" },
        context,
      ),
  };
}

/** Every endpoint of api-v1.md; HTTP and MCP run the same descriptors. */
export const ROUTES: readonly RouteSpec[] = ENDPOINTS.map(routeOf);
