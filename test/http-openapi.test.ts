import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProblemSchema } from "../src/catalogue/schemas.js";
import { SERVED_ROUTES } from "../src/http/create-app.js";
import { loadReplay, samplePath, startServer, type TestServer } from "./harness.js";

// D26: the OpenAPI 3.1 document served at /api/v1/openapi.json, generated from the endpoint
// descriptors' inputs and output schemas (T162), checked by a standard validator; and
// the human docs page at /docs, served from local assets only.
let server: TestServer;

beforeAll(async () => {
  const { view, store } = await loadReplay();
  await store.close();
  server = await startServer(view);
});
afterAll(async () => {
  await server.close();
});

type Doc = {
  openapi: string;
  paths: Record<string, { get: { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> } }>;
  components: { schemas: Record<string, unknown> };
};

async function fetchDoc(): Promise<{ res: Response; doc: Doc }> {
  const res = await server.get("/api/v1/openapi.json");
  return { res, doc: (await res.json()) as Doc };
}

const toOpenApi = (p: string) => p.replace(/:([A-Za-z0-9_]+)/g, "{$1}");

describe("GET /api/v1/openapi.json (D26)", () => {
  it("is a valid OpenAPI 3.1 document per @seriousme/openapi-schema-validator", async () => {
    const { res, doc } = await fetchDoc();
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600, s-maxage=3600, stale-while-revalidate=86400");
    expect(doc.openapi).toBe("3.1.0");
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Parameters<Validator["validate"]>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("describes every served route, with exactly the query parameters its zod schema validates", async () => {
    const { doc } = await fetchDoc();
    expect(Object.keys(doc.paths).sort()).toEqual(SERVED_ROUTES.map((r) => toOpenApi(r.path)).sort());
    for (const route of SERVED_ROUTES) {
      const op = route.endpoint;
      const documented = doc.paths[toOpenApi(route.path)]!.get;
      const query = (documented.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
      expect(query.sort(), route.path).toEqual(Object.keys(op.input.shape).sort());
      const path = (documented.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name);
      expect(path.sort()).toEqual([...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]).sort());
      for (const status of ["200", "304", "404", "405", "429", "500"])
        expect(documented.responses[status], `${route.path} ${status}`).toBeDefined();
      // A 400 is documented exactly where there are query parameters to get wrong (D13).
      expect(documented.responses["400"] !== undefined, `${route.path} 400`).toBe(query.length > 0);
    }
  });

  it("names the api-v1.md resources as components, D13 integers with their ranges", async () => {
    const { doc } = await fetchDoc();
    for (const name of ["Model", "Price", "Provider", "Suggestion", "Source", "Rate", "DatasetSummary", "Channel"])
      expect(doc.components.schemas[name], name).toBeDefined();
    for (const name of ["HistorySeries", "Change", "Problem"]) expect(doc.components.schemas[name], name).toBeDefined();
    const limit = doc.paths["/models"]!.get.parameters!.find((p) => p.name === "limit");
    expect(limit).toMatchObject({ schema: { type: "integer", minimum: 1, maximum: 500, default: 50 } });
    const channel = doc.paths["/models/{provider}/{model}"]!.get.parameters!.find((p) => p.name === "channel");
    expect(channel).toMatchObject({ schema: { enum: expect.arrayContaining(["direct", "reseller_5", "other"]) } });
  });

  it("every success body of the sample paths matches its documented zod response schema", async () => {
    for (const route of SERVED_ROUTES) {
      const op = route.endpoint;
      if (op.contentType !== undefined) continue; // RSS: not JSON
      const res = await server.get(samplePath(route.path));
      const parsed = op.output.safeParse(await res.json());
      expect(parsed.success, `${route.path}: ${parsed.error?.message}`).toBe(true);
    }
    const problem = await server.get("/api/v1/models?limit=0");
    expect(ProblemSchema.safeParse(await problem.json()).success).toBe(true);
  });
});

describe("GET /docs", () => {
  it("renders the same document with scripts served locally (works offline)", async () => {
    const page = await fetch(`${server.base}/docs/`, { redirect: "follow" });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/swagger-ui/i);
    const scripts = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      expect(src, "no CDN").not.toMatch(/^(https?:)?\/\//);
      const asset = await fetch(new URL(src, `${server.base}/docs/`));
      expect(asset.status, src).toBe(200);
      await asset.arrayBuffer();
    }
    const spec = (await (await fetch(`${server.base}/docs/json`)).json()) as Doc;
    const { doc } = await fetchDoc();
    expect(spec).toEqual(doc);
  });
});
