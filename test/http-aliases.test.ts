import { describe, expect } from "vitest";
import type { CatalogueView } from "../src/catalogue/view.js";
import { ViewHolder } from "../src/catalogue/view-holder.js";
import { callTool } from "../src/mcp/server.js";
import { TOOLS } from "../src/mcp/tools.js";
import { bindShared } from "./fixtures.js";
import { httpRequest, type TestServer } from "./harness.js";

/**
 * Aliases and former ids answer everywhere (D1, issue 12 §5 and §8, T67): the model path answers
 * 308 to the canonical path with the usual CORS and cache headers, history too; /compare and the
 * MCP tools follow an alias to its model.
 */
let view: CatalogueView;
let server: TestServer;

// The worker's shared replay and API server on a loopback port (test/fixtures.ts, T274), bound before the file's first test.
const it = bindShared("apiServer", (boundView, boundServer) => {
  view = boundView;
  server = boundServer;
});

describe("GET /models/{maker}/{alias} (T67)", () => {
  it.each([
    ["anthropic/claude-opus-4-20250514", "anthropic/claude-opus-4-0"],
    ["mistral/mistral-large-latest", "mistral/mistral-large-2512"], // the newest Large the replay lists
    ["anthropic/claude-3.5-sonnet", "anthropic/claude-3-5-sonnet-20241022"], // the newest 3.5 Sonnet
    ["anthropic/anthropic.claude-opus-4-20250514-v1:0", "anthropic/claude-opus-4-0"],
  ])("%s answers 308 to its canonical model", async (alias, expected) => {
    const res = await httpRequest(server.base, {
      path: `/api/v1/models/${alias}`,
      headers: { origin: "https://x.example" },
    });
    expect(res.status).toBe(308);
    const location = String(res.headers.location);
    expect(location).toMatch(/^\/api\/v1\/models\/[a-z0-9-]+\/[a-z0-9.-]+$/);
    expect(location).toBe(`/api/v1/models/${expected}`);
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    expect(res.headers["cache-control"]).toMatch(/max-age=\d+/);
    expect(res.headers.etag).toBeDefined();
    // The target answers 200 with the model.
    const target = await server.get(location);
    expect(target.status).toBe(200);
  });

  it("keeps the rest of the URL: history and the query", async () => {
    const res = await httpRequest(server.base, {
      path: "/api/v1/models/anthropic/claude-opus-4-20250514/history?from=2025-01-01",
    });
    expect(res.status).toBe(308);
    expect(res.headers.location).toBe("/api/v1/models/anthropic/claude-opus-4-0/history?from=2025-01-01");
  });

  it("a redirect is never answered 304, even with a matching If-None-Match", async () => {
    const first = await httpRequest(server.base, { path: "/api/v1/models/anthropic/claude-opus-4-20250514" });
    const again = await httpRequest(server.base, {
      path: "/api/v1/models/anthropic/claude-opus-4-20250514",
      headers: { "if-none-match": String(first.headers.etag) },
    });
    expect(again.status).toBe(308);
  });

  it("an unknown id is still a 404 problem", async () => {
    const res = await httpRequest(server.base, { path: "/api/v1/models/anthropic/claude-nonexistent-9" });
    expect(res.status).toBe(404);
  });
});

describe("/compare and the MCP tools follow aliases", () => {
  it("/compare answers the canonical models for aliases", async () => {
    const res = await server.get("/api/v1/compare?models=anthropic/claude-opus-4-20250514,openai/gpt-4o");
    const body = (await res.json()) as { data: { id: string }[] };
    expect(body.data.map((m) => m.id)).toEqual(["anthropic/claude-opus-4-0", "openai/gpt-4o"]);
  });

  it("get_model with an alias answers the canonical model", async () => {
    const tool = TOOLS.find((t) => t.name === "get_model")!;
    const result = await callTool(
      tool,
      new ViewHolder(view),
      { provider: "anthropic", model: "claude-opus-4-20250514" },
      () => {},
    );
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { data: { id: string } }).data.id).toBe("anthropic/claude-opus-4-0");
  });
});
