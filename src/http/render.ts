import type { EndpointServices } from "../catalogue/call.js";
import { parseRawQuery } from "../catalogue/endpoint.js";
import { CatalogueError } from "../catalogue/errors.js";
import { PROBLEM_CONTENT_TYPE, problemOfError, STATUS_OF_ERROR } from "../catalogue/problems.js";
import type { CatalogueView } from "../catalogue/view.js";
import { locationPath } from "../domain/location-path.js";
import { errorCacheControl, successCacheControl } from "./cache-control.js";
import { CachedResponse, type ResponseFields } from "./cached-response.js";
import { etagVersion, weakEtag } from "./etag.js";
import { splitUrl } from "./request-url.js";
import type { RouteContext, RouteSpec } from "./routes.js";

/** How every response of an app is built: the header lists' `Vary` and `RateLimit-*` slots. */
export interface ResponseShape {
  /** Compression is on (T51, T132). */
  readonly compression: boolean;
  /** The D24 limit is on (T131). */
  readonly counted: boolean;
}

/**
 * The response of a route for one URL of one version (D21: a function of version, path and raw
 * query): a 200 with the route's body; a 308 to the canonical path for an alias (T67); the 400 or
 * 404 problem of a CatalogueError (D25), with ETag and `x-dataset-version` like any 400/404.
 * The 200's max-age and `x-dataset-version` are the answer's ({@link RouteSpec.handle}, T275).
 * @param params the route's path parameters, decoded
 * @param context the origin links are made from (D19; "" where the route embeds none)
 * @param services what the endpoint's parameters load through (the process's, built in `src/cli/`, T275)
 * @throws StoreUnavailableError when an `at` answer's point-in-time index cannot be read (a 503, T199)
 * @throws whatever else the route throws: an unexpected fault, answered 500 by the Fastify path (D25)
 */
export async function renderResponse(
  route: RouteSpec,
  view: CatalogueView,
  url: string,
  params: Readonly<Record<string, string>>,
  context: RouteContext,
  shape: ResponseShape,
  services: EndpointServices,
): Promise<CachedResponse> {
  const [path, query] = splitUrl(url);
  const etag = weakEtag(etagVersion(view, route.endpoint), path, query);
  const built = (fields: Omit<ResponseFields, "etag">) =>
    new CachedResponse({ ...fields, etag }, shape.compression, shape.counted);
  try {
    const { body, version, maxAge, headers } = await route.handle(
      view,
      parseRawQuery(query),
      params,
      context,
      services,
    );
    return built({
      status: 200,
      body: Buffer.from(typeof body === "string" ? body : JSON.stringify(body)),
      contentType: route.contentType ?? "application/json; charset=utf-8",
      cacheControl: successCacheControl(maxAge),
      // x-dataset-version equals meta.datasetVersion: the version in force on `at` when given (T147).
      version,
      ...(headers === undefined ? {} : { headers }),
    });
  } catch (error) {
    if (!(error instanceof CatalogueError)) throw error;
    const body = Buffer.from(JSON.stringify(problemOfError(error)));
    if (error.code === "moved" && error.target) {
      // T67: an alias or former id answers 308 to the canonical path, the rest of the URL kept.
      // A replacement function: `$'`, `$&`… in an id are text, never patterns (T251); the id is encoded for the header (T256).
      const target = `/models/${locationPath(error.target)}`;
      const location = `${path.replace(/\/models\/[^/]+\/[^/]+/, () => target)}${query ? `?${query}` : ""}`;
      return built({
        status: 308,
        body,
        contentType: PROBLEM_CONTENT_TYPE,
        cacheControl: successCacheControl(route.maxAge),
        version: view.version,
        location,
      });
    }
    const status = STATUS_OF_ERROR[error.code];
    return built({
      status,
      body,
      contentType: PROBLEM_CONTENT_TYPE,
      cacheControl: errorCacheControl(status),
      version: view.version,
    });
  }
}
