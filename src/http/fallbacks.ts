import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { FAULT_DETAIL } from "../catalogue/problems.js";
import type { ViewHolder } from "../catalogue/view-holder.js";
import { CORS_HEADERS } from "./cors.js";
import type { RequestCounting } from "./count-request.js";
import { hasDotSegment } from "./dot-segments.js";
import { weakEtag } from "./etag.js";
import { MAX_URL_LENGTH } from "./limits.js";
import { sendProblem } from "./problem.js";
import { protocolFaultOf } from "./request-target.js";
import { splitUrl } from "./request-url.js";
import { API_PREFIX } from "./routes.js";

/**
 * The answers no route gives (D14, D21, D25, T25, T26, issue 15): the problem for an unexpected
 * fault (500, nothing of it reaches the client) or an unreadable request (4xx), the 404 of an
 * unknown path, the 404 of a raw dot segment outside the API, and the router's own errors (a
 * path that is not valid percent-encoded UTF-8 → 400, too long → 414), which Fastify raises
 * before its hooks run: CORS and the D24 count are applied to them here. And the protocol faults
 * of issue 26 §3 (T196).
 */
export class Fallbacks {
  readonly #views: ViewHolder;
  readonly #counting: RequestCounting;

  constructor(views: ViewHolder, counting: RequestCounting) {
    this.#views = views;
    this.#counting = counting;
  }

  /** Fastify's `frameworkErrors` option: errors of its router. */
  readonly frameworkErrors = (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    void this.#routerError(error, request, reply);
  };

  /** Sets the error and not-found handlers and the dot-segment hook on the app. */
  register(app: FastifyInstance): void {
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
      return this.versioned(request, reply, 404, `no endpoint at ${truncate(path)}; see ${API_PREFIX}/openapi.json`);
    });

    // Dot segments outside the API (issue 15): clients resolve them before sending (RFC 3986 §5.2.4),
    // so a raw `..` names nothing here; say so instead of the static server's 403.
    app.addHook("onRequest", async (request, reply) => {
      const [path] = splitUrl(request.url);
      if (path.startsWith(`${API_PREFIX}/`) || !hasDotSegment(path)) return;
      return this.versioned(
        request,
        reply,
        404,
        `no file at ${truncate(path)}: dot segments (. and ..) are not resolved by this server`,
      );
    });
  }

  /**
   * The 400 problem of a request {@link admitRequest} found a protocol fault in (no or two `Host`,
   * `GET *`, an unreadable target; T196), with CORS and counted like any answer. Registered before
   * CORS, so a preflight without `Host` is refused too.
   */
  registerProtocolGate(app: FastifyInstance): void {
    app.addHook("onRequest", async (request, reply) => {
      const fault = protocolFaultOf(request.raw);
      if (fault === undefined) return;
      reply.headers(CORS_HEADERS);
      if (await this.#counting.onFastify(request, reply)) return reply;
      return this.versioned(request, reply, 400, fault);
    });
  }

  /** A 400/404 outside the routes: ETag and x-dataset-version as on every 400/404 (D21); never a 304 (D21 amended). */
  versioned(request: FastifyRequest, reply: FastifyReply, status: 400 | 404, detail: string): FastifyReply {
    const view = this.#views.current();
    if (view) {
      const [path, query] = splitUrl(request.url);
      reply.header("etag", weakEtag(view.version, path, query));
      reply.header("x-dataset-version", view.version);
    }
    return sendProblem(reply, status, detail);
  }

  /** Errors of Fastify's router; its hooks did not run, so CORS and the rate limit are applied here. */
  async #routerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    try {
      reply.headers(CORS_HEADERS);
      if (await this.#counting.onFastify(request, reply)) return;
      if (error.code === "FST_ERR_MAX_PARAM_LENGTH" || request.url.length > MAX_URL_LENGTH) {
        urlTooLong(reply);
        return;
      }
      this.versioned(request, reply, 400, "the request path is not valid percent-encoded UTF-8");
    } catch (fault) {
      request.log.error({ err: fault }, "unexpected fault");
      if (!reply.sent) sendProblem(reply, 500, FAULT_DETAIL.unexpected);
    }
  }
}

/** T25: the URL bound, a 414 problem. */
export function urlTooLong(reply: FastifyReply): FastifyReply {
  return sendProblem(reply, 414, `the request URL exceeds ${MAX_URL_LENGTH} characters`);
}

/** A path as quoted in a problem's detail: at most 200 characters. */
function truncate(s: string): string {
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}
