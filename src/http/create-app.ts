import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from "fastify";
import { registerWeb } from "../web/register-web.js";
import { OPENAPI_DOCUMENT, registerApiRoutes } from "./api-routes.js";
import type { AppOptions } from "./app-options.js";
import { clientIpOf, fastifyTrustProxy } from "./client-ip.js";
import { clientErrorHandler, timeoutOptions } from "./connection.js";
import { registerCors } from "./cors.js";
import { RequestCounting } from "./count-request.js";
import { registerDocsPage } from "./docs-page.js";
import { Fallbacks } from "./fallbacks.js";
import { FastPath } from "./fast-path.js";
import { DEFAULT_TIMEOUTS, MAX_URL_LENGTH } from "./limits.js";
import { RateLimit } from "./rate-limit.js";
import { registerRootRedirect } from "./root-redirect.js";
import { serverFactory } from "./server.js";
import { VersionedResponses } from "./versioned-responses.js";

export { OPENAPI_DOCUMENT, SERVED_ROUTES } from "./api-routes.js";
export type { AppOptions } from "./app-options.js";
export { ALLOWED_METHODS, EXPOSED_HEADERS } from "./cors.js";
export { MAX_URL_LENGTH } from "./limits.js";

const built = new WeakMap<FastifyInstance, VersionedResponses>();
const countings = new WeakMap<FastifyInstance, RequestCounting>();

/**
 * The D24 count of an app made by {@link createApp}, for routes mounted after it (`/mcp` counts
 * each message of a batch, T195); null for any other app.
 */
export function requestCountingOf(app: FastifyInstance): RequestCounting | null {
  return countings.get(app) ?? null;
}

/** Resolves when the responses of the app's current version are built (for tests and the bench). */
export function precomputed(app: FastifyInstance): Promise<void> {
  return built.get(app)?.built() ?? Promise.resolve();
}

/** The response tables of an app (tests and the bench count its renders, issue 26 §5). */
export function responsesOf(app: FastifyInstance): VersionedResponses | undefined {
  return built.get(app);
}

/**
 * Builds the Fastify app serving API v1 from the current view (D13–D26), wiring the transport's
 * rooms (issue 30 §1, T230): the versioned response tables (`versioned-responses.ts`), one
 * response and the rule of its answers (`render.ts`, `cached-response.ts`), counting a request
 * (`count-request.ts`, `rate-limit.ts`), the fast path (`fast-path.ts`, `server.ts`), the Fastify
 * route (`api-routes.ts`) and the fallbacks (`fallbacks.ts`). Every body is a function of (dataset
 * version, path, raw query), cached per version and served with a weak ETag (D21); errors are
 * problem details with CORS on every response, also those Fastify's router and node's parser make.
 */
export async function createApp(options: AppOptions): Promise<FastifyInstance> {
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  const limit =
    options.rateLimitPerMinute > 0
      ? new RateLimit({
          max: options.rateLimitPerMinute,
          ...(options.rateLimitWindowMs !== undefined ? { windowMs: options.rateLimitWindowMs } : {}),
          ...(options.rateLimiter ? { limiter: options.rateLimiter } : {}),
          ...(options.rateLimitRedis ? { redis: options.rateLimitRedis } : {}),
          ...(options.rateLimitClock ? { now: options.rateLimitClock } : {}),
        })
      : null;
  const counting = new RequestCounting(limit, clientIpOf(options.trustProxy));
  const responses = new VersionedResponses(options.views, {
    shape: { compression: options.compression ?? true, counted: limit !== null },
    bounds: {
      ...(options.responseCacheEntries !== undefined ? { entries: options.responseCacheEntries } : {}),
      ...(options.responseCacheBytes !== undefined ? { bytes: options.responseCacheBytes } : {}),
    },
    ...(options.precompute !== undefined ? { precompute: options.precompute } : {}),
    services: options.services,
    pastDays: options.pastDays,
  });
  const fallbacks = new Fallbacks(options.views, counting);
  // T50, T130: a built response is answered before Fastify, counted by the same limit.
  const log = (): FastifyBaseLogger => app.log;
  const fastPath = (options.fastPath ?? true) ? new FastPath({ views: options.views, responses, counting, log }) : null;

  const app = Fastify({
    serverFactory: serverFactory(fastPath, timeouts),
    ...(options.logger ? { loggerInstance: options.logger } : { logger: { level: options.logLevel ?? "info" } }),
    // Per-request logs would dominate the hot path; faults are logged by the error handler.
    logController: new LogController({ disableRequestLogging: true }),
    // D24: the client IP is the socket address unless TRUST_PROXY names trusted proxies.
    trustProxy: fastifyTrustProxy(options.trustProxy),
    // Path parameters are bounded by the URL bound (T25), not by a shorter router limit.
    routerOptions: { maxParamLength: MAX_URL_LENGTH },
    return503OnClosing: true,
    ...timeoutOptions(timeouts),
    clientErrorHandler,
    // A path the router cannot decode (malformed percent-encoding) or too long: a problem, never a 500.
    frameworkErrors: fallbacks.frameworkErrors,
  });
  built.set(app, responses);
  countings.set(app, counting);
  app.addHook("preClose", async () => {
    fastPath?.close();
    limit?.close();
  });

  // T196: a protocol fault is refused before anything else runs, a preflight included.
  fallbacks.registerProtocolGate(app);
  await registerCors(app);
  // D24: registered after CORS, so a 429 carries the CORS headers.
  counting.register(app);
  fallbacks.register(app);
  registerApiRoutes(app, { views: options.views, responses, publicBaseUrl: options.publicBaseUrl, counting });
  await registerDocsPage(app, OPENAPI_DOCUMENT());
  // `/` is the web catalogue's when it is mounted (issue 18); else it points at the docs (issue 15).
  if (options.web) await registerWeb(app, options.web);
  else registerRootRedirect(app);
  return app;
}
