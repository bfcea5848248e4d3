import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyBaseLogger } from "fastify";
import type { ViewHolder } from "../catalogue/view-holder.js";
import { type CachedResponse, countedHeaders } from "./cached-response.js";
import type { RequestCounting } from "./count-request.js";
import { MAX_URL_LENGTH } from "./limits.js";
import type { Counted, RateLimit } from "./rate-limit.js";
import type { VersionedResponses } from "./versioned-responses.js";

/** What the fast path needs from the app. */
export interface FastPathParts {
  readonly views: ViewHolder;
  readonly responses: VersionedResponses;
  readonly counting: RequestCounting;
  readonly log: () => FastifyBaseLogger;
}

/**
 * The fast path (T50, T130, T231): a GET whose response is already built for the current view is
 * answered from its bytes before Fastify sees it, with the answer {@link CachedResponse.answer}
 * picks (the same headers, in the same order, as the Fastify route) and the D24 count written
 * into its header list. In process the count is synchronous, so the request is answered within
 * the parser's callback, with no promise. A client over its limit goes to Fastify with its count,
 * for the 429. Anything else (a miss, HEAD, a request body, a closing server) goes to Fastify.
 */
export class FastPath {
  readonly #parts: FastPathParts;
  // The parts the hot path reads, held directly (T501): one field read each, not a chain per request.
  readonly #views: ViewHolder;
  readonly #responses: VersionedResponses;
  readonly #counting: RequestCounting;
  readonly #limit: RateLimit | null;
  #closing = false;
  /** Fastify's request handler, for requests handed over after counting (set by the server factory). */
  #fastify: (req: IncomingMessage, res: ServerResponse) => void = () => {};

  constructor(parts: FastPathParts) {
    this.#parts = parts;
    this.#views = parts.views;
    this.#responses = parts.responses;
    this.#counting = parts.counting;
    this.#limit = parts.counting.limit;
  }

  /** Where requests this path does not answer go (Fastify's handler). */
  handOverTo(handler: (req: IncomingMessage, res: ServerResponse) => void): void {
    this.#fastify = handler;
  }

  /** The server is closing: every request goes to Fastify, which answers 503 (return503OnClosing). */
  close(): void {
    this.#closing = true;
  }

  /** Answers `req` when its response is built; false leaves it to Fastify, untouched. */
  answer(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.#closing || req.method !== "GET") return false;
    const url = req.url;
    if (url === undefined || url.length > MAX_URL_LENGTH) return false;
    if (req.headers["transfer-encoding"] !== undefined) return false;
    const length = req.headers["content-length"];
    if (length !== undefined && length !== "0") return false;
    const view = this.#views.current();
    if (!view) return false;
    const entry = this.#responses.tableFor(view).get(url);
    if (!entry) return false;
    const limit = this.#limit;
    if (limit === null) {
      this.#send(req, res, entry, null);
      return true;
    }
    const count = this.#counting.countFast(req, limit);
    if (count instanceof Promise) count.then((c) => this.#counted(req, res, entry, c));
    else this.#counted(req, res, entry, count);
    return true;
  }

  #counted(req: IncomingMessage, res: ServerResponse, entry: CachedResponse, count: Counted): void {
    const limit = this.#limit;
    if (count !== null && limit?.isOver(count)) {
      this.#counting.handOver(req, count);
      this.#fastify(req, res);
      return;
    }
    this.#send(req, res, entry, count);
  }

  /** Writes the answer with its prebuilt header list, the D24 count filled in (null: uncounted). */
  #send(req: IncomingMessage, res: ServerResponse, entry: CachedResponse, count: Counted): void {
    try {
      const answer = entry.answer("GET", req.headers["if-none-match"], req.headers["accept-encoding"]);
      res.writeHead(answer.status, countedHeaders(answer.headers, entry.counted, this.#limit, count));
      if (answer.body === null) res.end();
      else res.end(answer.body);
    } catch (error) {
      // Nothing expected throws here; a fault is logged and the connection closed, never a crash.
      this.#parts.log().error({ err: error }, "unexpected fault");
      res.destroy();
    }
  }
}
