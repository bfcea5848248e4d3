import type { IncomingMessage } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { sendProblem } from "./problem.js";
import type { Count, Counted, RateLimit } from "./rate-limit.js";

/**
 * Counting a request against the D24 limit, on both paths (T130, T231). The fast path counts the
 * GETs it answers ({@link countFast}: synchronous in process) and hands a client over its limit
 * to Fastify with its count ({@link handOver}), so the 429 has one renderer and nothing is counted
 * twice; Fastify counts everything else in an `onRequest` hook registered after CORS (so the 404
 * handler, `/mcp`, `/docs` and the web catalogue's files count, and a 429 carries CORS), and the
 * framework-error handler counts router errors. Preflights never count. A store failure (Redis
 * down) serves the request uncounted, without `RateLimit-*` headers (T30).
 */
export class RequestCounting {
  /** The limit, or null when it is off (RATE_LIMIT_PER_MINUTE=0: nothing is counted, no headers). */
  readonly limit: RateLimit | null;
  readonly #clientIp: (req: IncomingMessage) => string;
  /** Requests the fast path counted over the limit and handed to Fastify, with their count. */
  readonly #handed = new WeakMap<IncomingMessage, Count>();

  constructor(limit: RateLimit | null, clientIp: (req: IncomingMessage) => string) {
    this.limit = limit;
    this.#clientIp = clientIp;
  }

  /**
   * Counts a request the fast path answers (the limit is on): the count at once in process, or a
   * promise of it (null: uncounted) with a shared store.
   */
  countFast(req: IncomingMessage, limit: RateLimit): Count | Promise<Counted> {
    return limit.count(this.#clientIp(req));
  }

  /** Hands a request counted over the limit to Fastify: it answers the 429 with this count, not counting again. */
  handOver(req: IncomingMessage, count: Count): void {
    // A copy: the in-process count is the counter's live object.
    this.#handed.set(req, { consumedPoints: count.consumedPoints, msBeforeNext: count.msBeforeNext });
  }

  /** Counts every request on the Fastify path but a preflight (see {@link onFastify}). */
  register(app: FastifyInstance): void {
    if (this.limit === null) return;
    app.addHook("onRequest", async (request, reply) => {
      if (await this.onFastify(request, reply)) return reply;
    });
  }

  /**
   * Counts a request on the Fastify path (or takes the fast path's count), sets the D24 headers and
   * answers the 429 problem with `Retry-After` and `no-store` when the client is over its limit.
   * @returns true when the 429 was sent
   */
  async onFastify(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const limit = this.limit;
    if (limit === null || request.method === "OPTIONS") return false;
    return this.#apply(limit, this.#handed.get(request.raw) ?? limit.count(this.#clientIp(request.raw)), reply);
  }

  /**
   * Counts `points` more requests of the client of a request already counted once: the messages
   * after the first of an MCP JSON-RPC batch (issue 26 §3, T195), so a batch of N costs N. Sets the
   * D24 headers to the new count and answers the 429 problem when it is over the limit. Also what a
   * past day not yet computed costs beyond its one request (issue 47 §2, T472).
   * @param why said in the 429's detail after the limit: what made this request cost more than one
   * @returns true when the 429 was sent
   */
  async countMore(request: FastifyRequest, reply: FastifyReply, points: number, why?: string): Promise<boolean> {
    const limit = this.limit;
    if (limit === null || points <= 0) return false;
    return this.#apply(limit, limit.count(this.#clientIp(request.raw), points), reply, why);
  }

  async #apply(
    limit: RateLimit,
    counting: Count | Promise<Counted>,
    reply: FastifyReply,
    why?: string,
  ): Promise<boolean> {
    const count = counting instanceof Promise ? await counting : counting;
    if (count === null) return false; // the store is down: served uncounted (T30)
    reply.header("ratelimit-limit", limit.limitHeader);
    reply.header("ratelimit-remaining", limit.remaining(count));
    reply.header("ratelimit-reset", limit.reset(count));
    if (!limit.isOver(count)) return false;
    reply.header("retry-after", limit.retryAfter(count));
    sendProblem(reply, 429, why === undefined ? limit.detail(count) : `${limit.detail(count)}: ${why}`);
    return true;
  }
}
