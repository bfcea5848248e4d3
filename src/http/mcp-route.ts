import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { EndpointServices } from "../catalogue/call.js";
import type { ViewHolder } from "../catalogue/view-holder.js";
import { MCP_MAX_RESULT_BYTES, ResultBudget } from "../mcp/result-budget.js";
import type { RequestCounting } from "./count-request.js";
import { requestCountingOf } from "./create-app.js";
import { McpGate } from "./mcp-gate.js";
import { sendProblem } from "./problem.js";
import { listeningBase } from "./request-url.js";

/**
 * The MCP SDK and the tools, loaded on the first `/mcp` request (issue 16, T134): an API server
 * that no assistant talks to never loads them.
 */
let sdk: Promise<
  [typeof import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"), typeof import("../mcp/server.js")]
> | null = null;
const loadSdk = () => {
  sdk ??= Promise.all([
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
    import("../mcp/server.js"),
  ]);
  return sdk;
};

/** Path of the Streamable HTTP endpoint on the API server (T21). */
export const MCP_PATH = "/mcp";

/** The most JSON-RPC messages one `/mcp` POST may batch (issue 26 §3, T195). */
export const MCP_MAX_BATCH = 4;

/** How `/mcp` is bounded and whom it answers; every field has a default. */
export interface McpRouteOptions {
  /** D19: the public base URL; its host is one `/mcp` answers to (T195). */
  readonly publicBaseUrl?: string | undefined;
  /** Messages per batch (default {@link MCP_MAX_BATCH}). */
  readonly maxBatch?: number;
  /** Bytes of tool results per POST (default {@link MCP_MAX_RESULT_BYTES}). */
  readonly maxResultBytes?: number;
  /** POSTs that run their tools at once (default {@link MCP_RUNNING}, T241). */
  readonly running?: number;
  /** POSTs that may wait for their turn; one more is a 503 (default {@link MCP_WAITING}, T241). */
  readonly waiting?: number;
  /** What the tools' parameters load through (the process's, built in `src/cli/`, T275). */
  readonly services?: EndpointServices;
}

/** `/mcp` POSTs running their tools at once (T241): the work is synchronous, one is enough. */
export const MCP_RUNNING = 1;

/** `/mcp` POSTs that may wait for their turn (T241). */
export const MCP_WAITING = 64;

/**
 * Bytes of one `/mcp` POST body (T241; Fastify's default is 1 MiB): a few tool calls' arguments
 * take a few KB, and the POSTs waiting their turn hold at most this each. Over it: a 413 problem.
 */
export const MCP_MAX_BODY_BYTES = 64 * 1024;

/**
 * Mounts the assistant connector on the API server: MCP Streamable HTTP at `/mcp` (T21). Stateless:
 * every POST gets a fresh server and transport over the current view, answered as plain JSON (no
 * session id, no SSE). GET (a server-to-client event stream) and DELETE (ending a session) have
 * nothing to do without sessions and answer 405, as the transport specification allows. The routes
 * pass through the app's hooks, so CORS and the per-IP rate limit (D24) apply as to the API.
 *
 * Within the API's budget (issue 26 §3, T195): a POST batches at most `maxBatch` messages (more is
 * a 400 JSON-RPC error, nothing run), each message counts once against D24 (a batch of N costs N),
 * and the tool results of one POST carry at most `maxResultBytes` ({@link ResultBudget}); one POST
 * runs its tools at a time, others waiting their turn ({@link McpGate}, T241). Against
 * DNS rebinding the `Host` must name this server (see {@link mcpHostAllowed}): CORS stays open to
 * every Origin (T93), so the browser's Origin is not what is checked.
 */
export function registerMcpRoutes(app: FastifyInstance, views: ViewHolder, options: McpRouteOptions = {}): void {
  const counting = requestCountingOf(app);
  const gate = new McpGate(options.running ?? MCP_RUNNING, options.waiting ?? MCP_WAITING);
  const publicHosts = publicHostsOf(options.publicBaseUrl);
  app.post(MCP_PATH, { bodyLimit: MCP_MAX_BODY_BYTES }, (request, reply) =>
    handlePost(app, views, options, publicHosts, counting, gate, request, reply),
  );
  app.route({
    method: ["GET", "DELETE"],
    url: MCP_PATH,
    // A problem like every other error (issue 15), not a JSON-RPC body: no JSON-RPC request was made.
    handler: (_request, reply) =>
      sendProblem(reply.header("allow", "POST"), 405, "this stateless MCP endpoint answers POST only"),
  });
}

async function handlePost(
  app: FastifyInstance,
  views: ViewHolder,
  options: McpRouteOptions,
  publicHosts: ReadonlySet<string>,
  counting: RequestCounting | null,
  gate: McpGate,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const host = request.headers.host;
  if (host !== undefined && !mcpHostAllowed(host, request, publicHosts))
    return sendProblem(
      reply,
      403,
      `this MCP endpoint does not answer for the host ${JSON.stringify(host.slice(0, 100))} (DNS-rebinding ` +
        "protection); use this server's own address, or set PUBLIC_BASE_URL to the address it is reached at",
    );
  const messages = Array.isArray(request.body) ? request.body.length : 1;
  const maxBatch = options.maxBatch ?? MCP_MAX_BATCH;
  if (messages > maxBatch)
    return reply
      .code(400)
      .type("application/json")
      .send({
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32600,
          message:
            `a JSON-RPC batch on this endpoint holds at most ${maxBatch} messages, this one ${messages}; ` +
            "nothing was run: send the calls in smaller batches or one per request",
        },
      });
  // The first message was counted with the request (D24); the others count now (T195).
  if (counting && messages > 1 && (await counting.countMore(request, reply, messages - 1))) return reply;
  // T241: one POST runs its tools at a time; the others wait their turn, a bounded queue.
  const entered = gate.enter();
  if (!(entered === true || (await entered)))
    return sendProblem(
      reply.header("retry-after", "1"),
      503,
      "the MCP endpoint is busy with other clients' calls; retry after 1 s",
    );
  try {
    // A client that left while waiting costs nothing more.
    if (request.raw.socket?.destroyed) return reply;
    return await run(app, views, options, request, reply);
  } finally {
    gate.leave();
  }
}

/** Runs a POST's messages through a fresh MCP server and transport (T21), within its result budget. */
async function run(
  app: FastifyInstance,
  views: ViewHolder,
  options: McpRouteOptions,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const [{ WebStandardStreamableHTTPServerTransport }, { createMcpServer }] = await loadSdk();
  const server = createMcpServer(
    views,
    (err, tool) => app.log.error({ err, tool }, "unexpected fault in MCP tool"),
    new ResultBudget(options.maxResultBytes ?? MCP_MAX_RESULT_BYTES),
    options.services,
  );
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    const response = await transport.handleRequest(toWebRequest(request), { parsedBody: request.body });
    reply.code(response.status);
    response.headers.forEach((value, name) => {
      reply.header(name, value);
    });
    const body = await response.text();
    return reply.send(body.length > 0 ? body : undefined);
  } finally {
    await server.close();
  }
}

/** Hostnames `/mcp` answers to on any port: the loopback names (the MCP specification's local servers). */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The `Host` values PUBLIC_BASE_URL answers to (T195), lower-case: its host as written and with its
 * port spelled out (`example.com`, `example.com:443`); none without it. Parsed once, at mount.
 */
export function publicHostsOf(publicBaseUrl: string | undefined): ReadonlySet<string> {
  if (publicBaseUrl === undefined) return new Set();
  const base = new URL(publicBaseUrl);
  const port = base.port === "" ? (base.protocol === "https:" ? "443" : "80") : base.port;
  return new Set([base.host.toLowerCase(), `${base.hostname.toLowerCase()}:${port}`]);
}

/**
 * True when `/mcp` answers a request with this `Host` (DNS-rebinding protection, T195): a loopback
 * name on any port, the address and port the request came in on (an IP literal a client used
 * directly), or PUBLIC_BASE_URL's host ({@link publicHostsOf}). A rebinding page's requests name
 * the attacker's domain, which resolves to this server only by the attack, and are refused.
 * Case-insensitive.
 */
export function mcpHostAllowed(host: string, request: FastifyRequest, publicHosts: ReadonlySet<string>): boolean {
  const wanted = host.toLowerCase();
  const name = wanted.startsWith("[") ? wanted.slice(0, wanted.indexOf("]") + 1) : wanted.replace(/:\d*$/, "");
  if (LOOPBACK_HOSTS.has(name)) return true;
  const own = listeningBase(request).slice("http://".length);
  if (wanted === own || (own.endsWith(":80") && wanted === own.slice(0, -3))) return true;
  return publicHosts.has(wanted);
}

/** The request as the SDK's web-standard transport reads it; the body is passed already parsed. */
function toWebRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return new Request(new URL(request.url, "http://localhost"), { method: request.method, headers });
}
