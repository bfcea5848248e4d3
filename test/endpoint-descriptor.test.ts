import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineEndpoint, integerParam, parseRawQuery } from "../src/catalogue/endpoint.js";
import { ENDPOINTS } from "../src/catalogue/endpoints/index.js";
import { modelsEndpoint } from "../src/catalogue/endpoints/models.js";
import { CatalogueError } from "../src/catalogue/errors.js";
import type { CatalogueView } from "../src/catalogue/view.js";
import { buildOpenApiDocument } from "../src/http/openapi.js";
import { ROUTES, routeOf } from "../src/http/routes.js";
import { toolInputSchema } from "../src/mcp/tool-args.js";
import { TOOLS, toolOf } from "../src/mcp/tools.js";

// Issue 19 §1, T162: one descriptor per endpoint. A parameter added to a descriptor in a test build
// shows up, with its bounds and description, in the HTTP validation, the OpenAPI document and the
// MCP tool's schema and validation, and nowhere else had to be edited.
const PROBE_DESCRIPTION = "A parameter the test adds to GET /models, 1 to 9.";
const probe = defineEndpoint({
  ...modelsEndpoint,
  input: modelsEndpoint.input.extend({ probe: integerParam("probe", 1, 9, PROBE_DESCRIPTION).optional() }),
  output: z.object({ probe: z.number().nullable(), limit: z.number() }),
  // Invented body: echoes the typed input (no catalogue is needed to show where the input comes from).
  run: (_view, input) => ({ probe: input.probe ?? null, limit: input.limit }),
});
// The test build's view is never read: `run` above ignores it.
const view = {} as CatalogueView;
const BAD = new CatalogueError("bad_request", "probe must be an integer from 1 to 9");

describe("one descriptor per endpoint (issue 19, T162)", () => {
  it("HTTP: the route validates the new parameter with the descriptor's rule and types it", async () => {
    const route = routeOf(probe);
    const handle = async (query: string) =>
      (await route.handle(view, parseRawQuery(query), {}, { baseUrl: "http://x" }, {})).body;
    expect(await handle("probe=3")).toEqual({ probe: 3, limit: 50 });
    expect(await handle("probe=07&limit=2")).toEqual({ probe: 7, limit: 2 });
    for (const bad of ["probe=10", "probe=0", "probe=1.5", "probe=%2B3", "probe="])
      await expect(handle(bad), bad).rejects.toThrow(BAD);
    await expect(handle("probe=1&probe=2")).rejects.toThrow(/probe was given 2 times/);
  });

  it("OpenAPI: the document lists it as an integer with its range and description", () => {
    const doc = buildOpenApiDocument([probe]);
    const parameters = doc.paths?.["/models"]?.get?.parameters as { name: string; schema: unknown }[];
    const documented = parameters.find((p) => p.name === "probe") as { required?: boolean } | undefined;
    expect(documented?.required ?? false).toBe(false);
    expect(documented).toMatchObject({
      in: "query",
      description: PROBE_DESCRIPTION,
      schema: { type: "integer", minimum: 1, maximum: 9 },
    });
  });

  it("MCP: the tool's schema carries it and the tool validates it exactly as HTTP does", async () => {
    const json = z.toJSONSchema(toolInputSchema(probe)) as { properties: Record<string, { description: string }> };
    expect(json.properties.probe?.description).toContain(PROBE_DESCRIPTION);
    const tool = toolOf({ ...probe, name: "probe_models", tool: { description: "probe" } });
    expect((await tool.run(view, { probe: 4 })).body).toEqual({ probe: 4, limit: 50 });
    expect((await tool.run(view, { probe: "4" })).body).toEqual({ probe: 4, limit: 50 });
    await expect(tool.run(view, { probe: 10 })).rejects.toThrow(BAD);
  });

  it("the served routes and tools are exactly the descriptors (no parallel table)", () => {
    expect(ROUTES.map((r) => r.path)).toEqual(ENDPOINTS.map((e) => e.path));
    expect(ROUTES.map((r) => r.maxAge)).toEqual(ENDPOINTS.map((e) => e.maxAge));
    expect(TOOLS.map((t) => t.name)).toEqual(ENDPOINTS.filter((e) => e.tool !== null).map((e) => e.name));
    for (const tool of TOOLS) expect(tool.endpoint.input).toBe(ENDPOINTS.find((e) => e.name === tool.name)?.input);
  });
});
