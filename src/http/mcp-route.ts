import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ViewHolder } from "../catalogue/view-holder.js";
import { sendProblem } from "./problem.js";

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

/**
 * Mounts the assistant connector on the API server: MCP Streamable HTTP at `/mcp` (T21). Stateless:
 * every POST gets a fresh server and transport over the current view, answered as plain JSON (no
 * session id, no SSE). GET (a server-to-client event stream) and DELETE (ending a session) have
 * nothing to do without sessions and answer 405, as the transport specification allows. The routes
 * pass through the app's hooks, so CORS and the per-IP rate limit (D24) apply as to the API.
 */
export function registerMcpRoutes(app: FastifyInstance, views: ViewHolder): void {
  app.post(MCP_PATH, (request, reply) => handlePost(app, views, request, reply));
  app.route({
    method: ["GET", "DELETE"],
    url: MCP_PATH,
    // A problem like every other error (issue 15), not a JSON-RPC body: no JSON-RPC request was made.
    handler: (_request, reply) =>
      sendProblem(reply.header("allow", "POST"), 405, "this stateless MCP endpoint answers POST only"),
  });
}

async function handlePost(app: FastifyInstance, views: ViewHolder, request: FastifyRequest, reply: FastifyReply) {
  const [{ WebStandardStreamableHTTPServerTransport }, { createMcpServer }] = await loadSdk();
  const server = createMcpServer(views, (err, tool) => app.log.error({ err, tool }, "unexpected fault in MCP tool"));
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

/** The request as the SDK's web-standard transport reads it; the body is passed already parsed. */
function toWebRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return new Request(new URL(request.url, "http://localhost"), { method: request.method, headers });
}
