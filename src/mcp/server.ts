import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import packageJson from "../../package.json" with { type: "json" };
import type { EndpointServices } from "../catalogue/call.js";
import type { Endpoint } from "../catalogue/endpoint.js";
import { CatalogueError, StoreUnavailableError } from "../catalogue/errors.js";
import {
  FAULT_DETAIL,
  type Problem,
  problem,
  problemOfError,
  STORE_UNAVAILABLE_DETAIL,
} from "../catalogue/problems.js";
import type { CatalogueView } from "../catalogue/view.js";
import type { ViewHolder } from "../catalogue/view-holder.js";
import type { ResultBudget } from "./result-budget.js";
import { toolInputSchema } from "./tool-args.js";
import { TOOLS, type ToolSpec } from "./tools.js";

/** Server name announced to MCP clients. */
export const MCP_SERVER_NAME = "tariff";

/** What the server tells a client's model once, at initialisation. */
export const MCP_INSTRUCTIONS =
  "Tariff is a read-only catalogue of AI-model prices reconciled from several public price databases. " +
  "Each tool mirrors one endpoint of Tariff's HTTP API v1 and returns its {data, meta}; meta.datasetVersion " +
  "identifies the ingestion run, so answers with the same version can be compared. Find a model id with " +
  "search_models, then use get_model (prices, optionally of a reseller channel), get_model_history (how " +
  "they changed), compare_models (side by side) or list_rates (flat cost table). Amounts are display " +
  "units (e.g. USD per 1M tokens); quote the confidence level when it is below high.";

/** An object with any further members, declared so (`additionalProperties: true`, T485). */
const openObject = <S extends z.ZodRawShape>(shape: S) => z.looseObject(shape).meta({ additionalProperties: true });

/**
 * The shape every successful result of a tool declares: the API envelope, its `data` an object or a
 * list of objects as the endpoint's body has it. Every schema constrains something (an empty `{}`
 * is a warning of the MCP inspector's `--strict`, issue 49 §4, T485).
 */
function envelopeSchema(endpoint: Endpoint) {
  const output = endpoint.output;
  const data = output instanceof z.ZodObject ? (output.shape as Record<string, z.ZodType>).data : undefined;
  const describe = "The endpoint's payload, as in the HTTP JSON body.";
  return z.object({
    data: data instanceof z.ZodArray ? z.array(openObject({})).describe(describe) : openObject({}).describe(describe),
    meta: openObject({
      datasetVersion: z.string().describe("ISO 8601 timestamp of the ingestion run behind the data."),
      generatedAt: z.string().describe("When the body was built (once per dataset version)."),
    }).describe("As in the HTTP body: datasetVersion, generatedAt and endpoint-specific fields (count, nextCursor…)."),
  });
}

/** Receives unexpected faults (the tool answers a 500 problem without internals, D25). */
export type FaultLogger = (error: unknown, tool: string) => void;

/**
 * A new MCP server exposing the ten catalogue tools over the views' current version. Read-only
 * annotations on every tool. A CatalogueError becomes a tool error (`isError`) whose text is the
 * problem-details JSON the HTTP route answers (400/404, D25); no view yet is a 503 problem.
 * @param budget the bytes the results may carry (one `/mcp` POST's, T195); absent, no bound
 *   (stdio: one local client, whose answers reach no one else)
 * @param services what the tools' parameters load through (the process's, built in `src/cli/`, T275)
 */
export function createMcpServer(
  views: ViewHolder,
  logFault: FaultLogger,
  budget?: ResultBudget,
  services?: EndpointServices,
): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, title: "Tariff AI-model prices", version: packageJson.version },
    { instructions: MCP_INSTRUCTIONS },
  );
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: INPUT_SCHEMAS.get(tool.name),
        outputSchema: envelopeSchema(tool.endpoint),
        annotations: {
          title: tool.title,
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
        },
      },
      async (args: Record<string, unknown>) => {
        if (budget) {
          // One call per turn of the event loop (T241): a batch's calls never run back to back in
          // one microtask drain, so other clients' requests are read between them.
          await new Promise((resolve) => setImmediate(resolve));
          const refused = budget.refusalBefore(tool.name);
          if (refused) return refused;
        }
        const result = await callTool(tool, views, args, logFault, services);
        return budget ? budget.take(tool.name, result) : result;
      },
    );
  }
  return server;
}

/** Input schemas are derived once, at module load, so a parameter without a description fails early. */
const INPUT_SCHEMAS = new Map(TOOLS.map((t) => [t.name, toolInputSchema(t.endpoint)]));

/**
 * Runs one tool on the views' current version: the verb's envelope as structured content, or a
 * problem-details tool error. A point-in-time question reads the spans of the version in force that
 * day, loaded by `callEndpoint` (T165, T199, T275); a store that cannot be read is the 503 problem
 * HTTP answers, as a tool error. The call runs on the view it started on, even if a new version is
 * swapped in meanwhile.
 */
export async function callTool(
  tool: ToolSpec,
  views: ViewHolder,
  args: Readonly<Record<string, unknown>>,
  logFault: FaultLogger,
  services?: EndpointServices,
): Promise<CallToolResult> {
  const view = views.current();
  if (!view) return problemResult(503, FAULT_DETAIL.loading);
  return callOn(tool, view, args, logFault, services);
}

async function callOn(
  tool: ToolSpec,
  view: CatalogueView,
  args: Readonly<Record<string, unknown>>,
  logFault: FaultLogger,
  services: EndpointServices | undefined,
): Promise<CallToolResult> {
  try {
    const { body, text } = await tool.run(view, args, services);
    return { content: [{ type: "text", text }], structuredContent: { data: body.data, meta: body.meta } };
  } catch (error) {
    // An alias or former id answers as its model (D1, T67), as HTTP's 308 would lead there.
    if (error instanceof CatalogueError && error.code === "moved" && error.target && args.provider !== undefined) {
      const [provider, ...rest] = error.target.split("/");
      return callOn(tool, view, { ...args, provider, model: rest.join("/") }, logFault, services);
    }
    if (error instanceof CatalogueError) return problemResultOf(problemOfError(error));
    if (error instanceof StoreUnavailableError)
      return problemResultOf({ ...problem(503, STORE_UNAVAILABLE_DETAIL), retryAfterSeconds: error.retryAfterSeconds });
    logFault(error, tool.name);
    return problemResult(500, FAULT_DETAIL.unexpected);
  }
}

/** A tool error carrying RFC 9457 problem details as its text (no structuredContent: it is not an envelope). */
export function problemResult(status: number, detail: string): CallToolResult {
  return problemResultOf(problem(status, detail));
}

/** A problem tool error; a 503 carries `retryAfterSeconds`, HTTP's `Retry-After` (T199). */
function problemResultOf(body: Problem & { retryAfterSeconds?: number }): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }] };
}
