import type { AddressInfo } from "node:net";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { FastifyInstance } from "fastify";
import { afterAll, expect, it } from "vitest";
import type { CatalogueView } from "../src/catalogue/view.js";
import { ViewHolder } from "../src/catalogue/view-holder.js";
import { USAGE_FIELDS } from "../src/domain/cost.js";
import { createApp } from "../src/http/create-app.js";
import { registerMcpRoutes } from "../src/http/mcp-route.js";

/**
 * Shared by the MCP suites (issue 8): an API server with the connector mounted, and the mirror
 * checks run over each transport. Every case is a tool call and the HTTP request it mirrors; the
 * arguments are real ids and filters of the bundled replay.
 */

/** The eleven tools, in the order of api-v1.md's endpoints, then /cost (issue 17). */
export const TOOL_NAMES = [
  "get_meta",
  "list_providers",
  "list_models",
  "search_models",
  "get_model",
  "get_model_history",
  "compare_models",
  "list_changes",
  "list_sources",
  "list_rates",
  "estimate_cost",
] as const;

/** A tool call and the API v1 request (path and query, under /api/v1) that must answer the same. */
export interface MirrorCase {
  readonly tool: (typeof TOOL_NAMES)[number];
  readonly args: Readonly<Record<string, string | number>>;
  readonly http: string;
}

export const SUCCESS_CASES: readonly MirrorCase[] = [
  { tool: "get_meta", args: {}, http: "/meta" },
  { tool: "list_providers", args: {}, http: "/providers" },
  { tool: "list_models", args: {}, http: "/models" },
  // A JSON number for limit is its decimal string (T20).
  {
    tool: "list_models",
    args: { provider: "anthropic,openai", confidence: "high", limit: 7 },
    http: "/models?provider=anthropic%2Copenai&confidence=high&limit=7",
  },
  { tool: "list_models", args: { q: "claude", limit: "05" }, http: "/models?q=claude&limit=05" },
  { tool: "search_models", args: {}, http: "/models/search" },
  { tool: "search_models", args: { q: "claude opus", limit: 5 }, http: "/models/search?q=claude%20opus&limit=5" },
  {
    tool: "get_model",
    args: { provider: "anthropic", model: "claude-opus-4-0" },
    http: "/models/anthropic/claude-opus-4-0",
  },
  {
    tool: "get_model",
    args: { provider: "anthropic", model: "claude-opus-4-0", channel: "reseller_2" },
    http: "/models/anthropic/claude-opus-4-0?channel=reseller_2",
  },
  {
    tool: "get_model",
    args: { provider: "openai", model: "gpt-4o", channel: "other" },
    http: "/models/openai/gpt-4o?channel=other",
  },
  { tool: "get_model_history", args: { provider: "openai", model: "gpt-4o" }, http: "/models/openai/gpt-4o/history" },
  {
    tool: "get_model_history",
    args: { provider: "anthropic", model: "claude-opus-4-0", from: "2025-09-01", to: "2026-03-31" },
    http: "/models/anthropic/claude-opus-4-0/history?from=2025-09-01&to=2026-03-31",
  },
  {
    tool: "compare_models",
    args: { models: "anthropic/claude-opus-4-0, openai/gpt-4o,nobody/nothing" },
    http: "/compare?models=anthropic%2Fclaude-opus-4-0%2C%20openai%2Fgpt-4o%2Cnobody%2Fnothing",
  },
  { tool: "list_changes", args: {}, http: "/changes" },
  {
    tool: "list_changes",
    args: { days: 365, kind: "price_increase,price_decrease", limit: 25 },
    http: "/changes?days=365&kind=price_increase%2Cprice_decrease&limit=25",
  },
  { tool: "list_changes", args: { provider: "openai", days: "3650" }, http: "/changes?provider=openai&days=3650" },
  { tool: "list_sources", args: {}, http: "/sources" },
  { tool: "list_rates", args: {}, http: "/rates" },
  { tool: "list_rates", args: { provider: "anthropic,openai" }, http: "/rates?provider=anthropic%2Copenai" },
  // Point in time (issue 17, T147) on the mirrored tools.
  {
    tool: "get_model",
    args: { provider: "deepseek", model: "deepseek-chat", at: "2025-09-15" },
    http: "/models/deepseek/deepseek-chat?at=2025-09-15",
  },
  {
    tool: "compare_models",
    args: { models: "openai/gpt-4o,anthropic/claude-opus-4-0", at: "2025-10-01" },
    http: "/compare?models=openai%2Fgpt-4o%2Canthropic%2Fclaude-opus-4-0&at=2025-10-01",
  },
  {
    tool: "list_rates",
    args: { provider: "deepseek", at: "2025-08-20" },
    http: "/rates?provider=deepseek&at=2025-08-20",
  },
  // /cost one for one (issue 17 §3): token counts as JSON numbers or decimal strings.
  {
    tool: "estimate_cost",
    args: { model: "anthropic/claude-sonnet-4-5", inputTokens: 150000, cachedInputTokens: "50000", outputTokens: 2000 },
    http: "/cost?model=anthropic%2Fclaude-sonnet-4-5&inputTokens=150000&cachedInputTokens=50000&outputTokens=2000",
  },
  {
    tool: "estimate_cost",
    args: {
      models: "openai/gpt-4o,anthropic/claude-sonnet-4-5,google/gemini-2.5-pro",
      inputTokens: 1000,
      outputTokens: 500,
      tier: "batch",
      at: "2026-03-15",
    },
    http: "/cost?models=openai%2Fgpt-4o%2Canthropic%2Fclaude-sonnet-4-5%2Cgoogle%2Fgemini-2.5-pro&inputTokens=1000&outputTokens=500&tier=batch&at=2026-03-15",
  },
  // A dated snapshot billed at its undated name's priority prices (T347, T361): `pricedAs` alike.
  {
    tool: "estimate_cost",
    args: { model: "openai/gpt-4o-2024-08-06", tier: "priority", inputTokens: 12000, outputTokens: 1000 },
    http: "/cost?model=openai%2Fgpt-4o-2024-08-06&tier=priority&inputTokens=12000&outputTokens=1000",
  },
];

/** Calls that the HTTP route answers with a 400 or 404 problem. */
export const ERROR_CASES: readonly (MirrorCase & { readonly status: 400 | 404 })[] = [
  { tool: "list_models", args: { limit: 0 }, http: "/models?limit=0", status: 400 },
  { tool: "list_models", args: { limit: "abc" }, http: "/models?limit=abc", status: 400 },
  { tool: "list_models", args: { limit: 1.5 }, http: "/models?limit=1.5", status: 400 },
  { tool: "list_models", args: { limit: 501 }, http: "/models?limit=501", status: 400 },
  { tool: "list_models", args: { confidence: "great" }, http: "/models?confidence=great", status: 400 },
  { tool: "list_models", args: { cursor: "not-a-cursor" }, http: "/models?cursor=not-a-cursor", status: 400 },
  { tool: "search_models", args: { limit: 51 }, http: "/models/search?limit=51", status: 400 },
  {
    tool: "get_model",
    args: { provider: "anthropic", model: "no-such-model" },
    http: "/models/anthropic/no-such-model",
    status: 404,
  },
  {
    tool: "get_model",
    args: { provider: "anthropic", model: "claude-opus-4-0", channel: "reseller_9" },
    http: "/models/anthropic/claude-opus-4-0?channel=reseller_9",
    status: 400,
  },
  {
    tool: "get_model_history",
    args: { provider: "anthropic", model: "no-such-model" },
    http: "/models/anthropic/no-such-model/history",
    status: 404,
  },
  {
    tool: "get_model_history",
    args: { provider: "openai", model: "gpt-4o", from: "2025-02-30" },
    http: "/models/openai/gpt-4o/history?from=2025-02-30",
    status: 400,
  },
  { tool: "compare_models", args: { models: "openai/gpt-4o" }, http: "/compare?models=openai%2Fgpt-4o", status: 400 },
  { tool: "list_changes", args: { kind: "price_drop" }, http: "/changes?kind=price_drop", status: 400 },
  {
    tool: "get_model",
    args: { provider: "deepseek", model: "deepseek-chat", at: "2025-06-30" },
    http: "/models/deepseek/deepseek-chat?at=2025-06-30",
    status: 404,
  },
  {
    tool: "estimate_cost",
    args: { model: "openai/gpt-4o", inputTokens: -5 },
    http: "/cost?model=openai%2Fgpt-4o&inputTokens=-5",
    status: 400,
  },
  {
    tool: "estimate_cost",
    args: { model: "openai/gpt-4o", inputTokens: 10, tier: "economy" },
    http: "/cost?model=openai%2Fgpt-4o&inputTokens=10&tier=economy",
    status: 400,
  },
  {
    tool: "estimate_cost",
    args: { model: "nobody/nothing", inputTokens: 10 },
    http: "/cost?model=nobody%2Fnothing&inputTokens=10",
    status: 404,
  },
  { tool: "list_changes", args: { days: 0 }, http: "/changes?days=0", status: 400 },
  {
    tool: "list_rates",
    args: { provider: Array.from({ length: 51 }, (_, i) => `p${i}`).join(",") },
    http: `/rates?provider=${Array.from({ length: 51 }, (_, i) => `p${i}`).join("%2C")}`,
    status: 400,
  },
];

/** An API server (createApp + registerMcpRoutes) on a free loopback port. */
export interface McpTestServer {
  readonly base: string;
  readonly app: FastifyInstance;
  /** GET under /api/v1. */
  api(pathAndQuery: string): Promise<Response>;
  close(): Promise<void>;
}

export async function startMcpServer(view: CatalogueView, rateLimitPerMinute = 0): Promise<McpTestServer> {
  const views = new ViewHolder(view);
  const app = await createApp({ views, rateLimitPerMinute, logLevel: "silent" });
  registerMcpRoutes(app, views);
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return { base, app, api: (p) => fetch(`${base}/api/v1${p}`), close: () => app.close() };
}

/** The text of a result's first content block. */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  if (first?.type !== "text") throw new Error("the result has no text content");
  return first.text;
}

/** Tallies of what the mirror suite compared (reported by the suites). */
interface MirrorTally {
  successes: number;
  errors: number;
  bytesCompared: number;
}

/**
 * Registers the mirror checks: every success case equals the HTTP body exactly (data and meta,
 * datasetVersion and generatedAt included), every error case is a tool error whose problem details
 * equal the HTTP problem body, and a cursor walk gives the same pages; after them, the counts compared
 * are written to stderr under `transport`'s name.
 */
export function defineMirrorChecks(transport: string, connection: () => { client: Client; http: McpTestServer }): void {
  const tally: MirrorTally = { successes: 0, errors: 0, bytesCompared: 0 };
  afterAll(() => {
    process.stderr.write(
      `${transport}: ${tally.successes} results and ${tally.errors} problems equal to the HTTP bodies (${tally.bytesCompared} JSON bytes)\n`,
    );
  });
  it("covers every tool with at least one success case", () => {
    expect(new Set(SUCCESS_CASES.map((c) => c.tool))).toEqual(new Set(TOOL_NAMES));
    expect(new Set(ERROR_CASES.map((c) => c.tool)).size).toBeGreaterThanOrEqual(7);
  });

  it.each(SUCCESS_CASES)("$tool $args equals GET $http", async ({ tool, args, http }) => {
    const { client, http: server } = connection();
    const res = await server.api(http);
    expect(res.status, http).toBe(200);
    const body = (await res.json()) as { data: unknown; meta: { datasetVersion: string } };
    const result = (await client.callTool({ name: tool, arguments: { ...args } })) as CallToolResult;
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toStrictEqual(body);
    const text = textOf(result);
    expect(text).toContain(body.meta.datasetVersion);
    expect(text.split("\n").length).toBeLessThanOrEqual(45);
    tally.successes += 1;
    tally.bytesCompared += JSON.stringify(body).length;
  });

  it.each(ERROR_CASES)("$tool $args is the $status problem of GET $http", async ({ tool, args, http, status }) => {
    const { client, http: server } = connection();
    const res = await server.api(http);
    expect(res.status, http).toBe(status);
    const problem = (await res.json()) as { type: string; status: number; detail: string };
    const result = (await client.callTool({ name: tool, arguments: { ...args } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const carried = JSON.parse(textOf(result)) as unknown;
    expect(carried).toStrictEqual(problem);
    expect(carried).toMatchObject({ type: "about:blank", status });
    tally.errors += 1;
  });

  it("names the requested id as the detail of a 404 (D14)", async () => {
    const { client } = connection();
    const result = (await client.callTool({
      name: "get_model",
      arguments: { provider: "anthropic", model: "no-such-model" },
    })) as CallToolResult;
    expect(JSON.parse(textOf(result))).toStrictEqual({
      type: "about:blank",
      title: "Not Found",
      status: 404,
      detail: "anthropic/no-such-model",
    });
  });

  it("walks list_models pages with meta.nextCursor as GET /models does", async () => {
    const { client, http: server } = connection();
    let cursor: string | null = null;
    const ids: string[] = [];
    for (let page = 0; page < 3; page += 1) {
      const args: Record<string, string | number> = { q: "claude", limit: 4 };
      let query = "q=claude&limit=4";
      if (cursor !== null) {
        args.cursor = cursor;
        query += `&cursor=${encodeURIComponent(cursor)}`;
      }
      const body = (await (await server.api(`/models?${query}`)).json()) as {
        data: { id: string }[];
        meta: { nextCursor: string | null };
      };
      const result = (await client.callTool({ name: "list_models", arguments: args })) as CallToolResult;
      expect(result.structuredContent).toStrictEqual(body);
      ids.push(...body.data.map((m) => m.id));
      cursor = body.meta.nextCursor;
      expect(cursor).not.toBeNull();
    }
    expect(new Set(ids).size).toBe(12);
  });

  it("leaves JSON type errors to the SDK's argument check (a tool error, not a problem)", async () => {
    const { client } = connection();
    const result = (await client.callTool({ name: "list_models", arguments: { limit: true } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Input validation error.*limit/);
  });
}

/** Argument names per tool: api-v1.md's query parameters plus the path parameters. */
const EXPECTED_ARGS: Readonly<Record<(typeof TOOL_NAMES)[number], readonly string[]>> = {
  get_meta: [],
  list_providers: [],
  list_models: [
    "q",
    "provider",
    "confidence",
    "limit",
    "cursor",
    // Issue 28 (T202, T203).
    "sort",
    "listedConfidence",
    "channel",
    "modality",
    "openWeights",
    "minContext",
    "prices",
    "at",
  ],
  search_models: ["q", "limit", "fuzzy"],
  get_model: ["provider", "model", "channel", "at"],
  get_model_history: ["provider", "model", "from", "to"],
  compare_models: ["models", "at"],
  list_changes: ["days", "limit", "provider", "model", "q", "kind", "since", "channel", "cursor", "at"],
  list_sources: [],
  list_rates: ["provider", "at"],
  estimate_cost: [
    "model",
    "models",
    "channel",
    "inputTokens",
    "cachedInputTokens",
    "cacheWriteTokens",
    "cacheWrite1hTokens",
    "cacheTtl",
    "outputTokens",
    "reasoningTokens",
    "webSearchRequests",
    "region",
    "requests",
    "tier",
    "at",
    // issue 29, T211: a provider's usage object or a span's OTel attributes instead of the counts.
    "usage",
    "usageFormat",
  ],
};

/** Integer arguments (D13): a JSON number or its decimal string (T20). */
const INTEGER_ARGS = new Set<string>(["limit", "minContext", "days", ...USAGE_FIELDS, "requests"]);

const REQUIRED_ARGS: Readonly<Partial<Record<(typeof TOOL_NAMES)[number], readonly string[]>>> = {
  get_model: ["provider", "model"],
  get_model_history: ["provider", "model"],
  compare_models: ["models"],
};

interface JsonSchemaProperty {
  type?: string | string[];
  description?: string;
  anyOf?: Record<string, unknown>[];
}

/** JSON Schema keywords that constrain a value (the MCP inspector's `--strict` "untyped-schema" rule). */
const CONSTRAINING = new Set([
  "type",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "$ref",
  "properties",
  "items",
  "required",
  "additionalProperties",
  "pattern",
  "minimum",
  "maximum",
  "format",
  "minLength",
  "maxLength",
]);

/**
 * The findings `@modelcontextprotocol/inspector --cli --strict` (2.12.0) warns about in one tool
 * schema (issue 49 §4, T485): a `type` array, a remote `$ref`, and a schema with no validation
 * keyword (`{}`: accepts anything). Each finding is its JSON path.
 */
export function strictSchemaFindings(schema: unknown, path = ""): string[] {
  if (typeof schema === "boolean") return [`${path}: bare ${schema}`];
  if (typeof schema !== "object" || schema === null) return [];
  const node = schema as Record<string, unknown>;
  const found: string[] = [];
  if (Array.isArray(node.type)) found.push(`${path}: type ${JSON.stringify(node.type)}`);
  if (typeof node.$ref === "string" && !node.$ref.startsWith("#")) found.push(`${path}: remote $ref`);
  if (!Object.keys(node).some((k) => CONSTRAINING.has(k))) found.push(`${path}: constrains nothing`);
  for (const [key, value] of Object.entries(node)) {
    if (key === "properties" || key === "$defs")
      for (const [name, sub] of Object.entries(value as Record<string, unknown>))
        found.push(...strictSchemaFindings(sub, `${path}.${key}.${name}`));
    else if ((key === "anyOf" || key === "oneOf" || key === "allOf") && Array.isArray(value))
      value.forEach((sub, i) => {
        found.push(...strictSchemaFindings(sub, `${path}.${key}[${i}]`));
      });
    else if ((key === "items" || key === "additionalProperties") && typeof value === "object")
      found.push(...strictSchemaFindings(value, `${path}.${key}`));
  }
  return found;
}

/** Registers the tools/list checks: names, arguments, annotations, descriptions. */
export function defineToolListChecks(connection: () => { client: Client }): void {
  it("lists exactly the eleven tools, read-only and closed-world", async () => {
    const { tools } = await connection().client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...TOOL_NAMES]);
    for (const tool of tools) {
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, openWorldHint: false });
      expect(tool.outputSchema?.required, tool.name).toEqual(["data", "meta"]);
      expect(tool.description?.length ?? 0, tool.name).toBeGreaterThan(150);
    }
  });

  it("takes the endpoint's parameters as arguments, with integers as string or number", async () => {
    const { tools } = await connection().client.listTools();
    for (const tool of tools) {
      const name = tool.name as (typeof TOOL_NAMES)[number];
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchemaProperty>;
      expect(Object.keys(properties), name).toEqual(EXPECTED_ARGS[name]);
      expect(tool.inputSchema.required ?? [], name).toEqual(REQUIRED_ARGS[name] ?? []);
      for (const [arg, schema] of Object.entries(properties)) {
        expect(schema.description?.length ?? 0, `${name}.${arg}`).toBeGreaterThan(10);
        // T485: an integer is a number or a digit string, a JSON parameter an object or its text, each as
        // `anyOf` branches of one type (no `type` array: the inspector's --strict warns on those).
        const integer = INTEGER_ARGS.has(arg);
        const types = schema.anyOf?.map((b) => b.type) ?? schema.type;
        expect(types, `${name}.${arg}`).toEqual(
          integer ? ["string", "number"] : arg === "usage" ? ["object", "string"] : "string",
        );
      }
    }
  });

  // Issue 49 §4 "Must show": `@modelcontextprotocol/inspector --cli --strict` prints 0 warnings (35 before:
  // 13 `["string","number"]` types, 22 empty output schemas); these are the rules it applies.
  it("every tool schema passes the inspector's strict rules: no type arrays, no empty schemas", async () => {
    const { tools } = await connection().client.listTools();
    const findings = tools.flatMap((t) => [
      ...strictSchemaFindings(t.inputSchema, `${t.name}.inputSchema`),
      ...strictSchemaFindings(t.outputSchema, `${t.name}.outputSchema`),
    ]);
    expect(findings).toEqual([]);
    expect(strictSchemaFindings({ type: "object", properties: { a: { type: ["string", "number"] }, b: {} } })).toEqual([
      '.properties.a: type ["string","number"]',
      ".properties.b: constrains nothing",
    ]);
  });

  it("tells a model the units, confidence levels and channel values", async () => {
    const { tools } = await connection().client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    const getModel = byName.get("get_model")!;
    for (const channel of ["direct", "reseller_1", "reseller_5", "coding_plan", "token_plan", "other"])
      expect(getModel.description).toContain(channel);
    for (const reseller of ["OpenRouter", "Amazon Bedrock", "Microsoft Azure", "Google Vertex AI", "Together AI"])
      expect(getModel.description).toContain(reseller);
    const channelArg = (getModel.inputSchema.properties as Record<string, JsonSchemaProperty>).channel;
    expect(channelArg?.description).toContain("reseller_3");
    for (const name of ["list_models", "get_model", "compare_models"]) {
      const description = byName.get(name)?.description ?? "";
      expect(description, name).toContain("USD per 1M tokens");
      expect(description, name).toContain("credit");
      for (const level of ["verified", "high", "medium", "low", "unverified"])
        expect(description, name).toContain(level);
    }
    expect(byName.get("list_rates")?.description).toMatch(/per 1M text tokens/);
  });
}
