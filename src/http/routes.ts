import { callEndpoint, type EndpointAnswer, type EndpointServices } from "../catalogue/call.js";
import { type Endpoint, inputFromQuery, type RawQuery, type RunContext } from "../catalogue/endpoint.js";
import { ENDPOINTS } from "../catalogue/endpoints/index.js";
import type { CatalogueView } from "../catalogue/view.js";

/** Base path of API v1. */
export const API_PREFIX = "/api/v1";

/** Request facts a verb may need beyond the query: the absolute origin for links (D19, T90). */
export type RouteContext = Pick<RunContext, "baseUrl">;

/**
 * One GET route, built from an endpoint descriptor (T162): its path (Fastify syntax), max-age (D22)
 * and a handler that turns the query string into the endpoint's typed input at the edge (D13: a
 * parameter given twice is a 400, integers are decimal digits) and answers it through
 * {@link callEndpoint}, whose answer carries the version and max-age (T275).
 */
export interface RouteSpec {
  readonly path: string;
  /** D22 max-age of the endpoint (a settled `at` answer's is `callEndpoint`'s, T148). */
  readonly maxAge: number;
  readonly contentType?: string;
  /** True when the body embeds the request's origin (so responses are cached per host). */
  readonly usesBaseUrl?: boolean;
  /** The descriptor the route serves. */
  readonly endpoint: Endpoint;
  /**
   * Answers a query of the route.
   * @throws CatalogueError for a bad query (D13) and whatever {@link callEndpoint} throws
   */
  readonly handle: (
    view: CatalogueView,
    query: RawQuery,
    params: Readonly<Record<string, string>>,
    context: RouteContext,
    services: EndpointServices,
  ) => Promise<EndpointAnswer>;
}

/** The route of one endpoint descriptor. */
export function routeOf(endpoint: Endpoint): RouteSpec {
  return {
    path: endpoint.path,
    maxAge: endpoint.maxAge,
    ...(endpoint.contentType ? { contentType: endpoint.contentType } : {}),
    ...(endpoint.usesBaseUrl ? { usesBaseUrl: true } : {}),
    endpoint,
    handle: async (view, query, params, context, services) =>
      callEndpoint(
        endpoint,
        view,
        {
          input: inputFromQuery(endpoint.input, query),
          path: { provider: params.provider ?? "", model: params.model ?? "" },
          baseUrl: context.baseUrl,
        },
        services,
      ),
  };
}

/** Every endpoint of api-v1.md; HTTP and MCP run the same descriptors. */
export const ROUTES: readonly RouteSpec[] = ENDPOINTS.map(routeOf);
