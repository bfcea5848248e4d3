import { describe, expect } from "vitest";
import type { CatalogueView } from "../src/catalogue/view.js";
import { SERVED_ROUTES } from "../src/http/create-app.js";
import { bindShared } from "./fixtures.js";
import { samplePath, startServer, type TestServer } from "./harness.js";

// D21 (ETag, 304, HEAD), D22 (Cache-Control) and D23 (CORS) over real HTTP against the replay, for
// every served route (ROUTES + /openapi.json): a route added later is covered by the loops below.
let server: TestServer;
let view: CatalogueView;

// The worker's shared replay and API server on a loopback port (test/fixtures.ts, T274), bound before the file's first test.
const it = bindShared("apiServer", (boundView, boundServer) => {
  view = boundView;
  server = boundServer;
});

/** D22 max-age per endpoint: api-v1.md's table plus D22's rest. A new route must be added here. */
const D22_MAX_AGE: Readonly<Record<string, number>> = {
  "/meta": 60,
  "/providers": 900,
  "/models": 300,
  "/models/search": 300,
  "/models/:provider/:model": 3600,
  "/models/:provider/:model/history": 3600,
  "/compare": 300,
  "/changes": 300,
  "/changes.xml": 300,
  "/sources": 900,
  "/rates": 3600,
  "/openapi.json": 3600,
  // Issue 17: like /compare (a function of free input); 3600 with an `at` in the past (T148).
  "/cost": 300,
  // Issue 29: the price files change only with a new dataset version.
  "/exports/litellm/model_prices_and_context_window.json": 3600,
  "/exports/models-dev/api.json": 3600,
  "/exports/genai-prices/data.json": 3600,
};

const EXPOSED =
  "ETag, x-dataset-version, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, x-tariff-kept-one-source, x-tariff-kept-aggregators-only, mcp-session-id, mcp-protocol-version";
const WEAK_ETAG = /^W\/"[A-Za-z0-9_-]+"$/;

function expectCors(headers: Headers) {
  expect(headers.get("access-control-allow-origin")).toBe("*");
  expect(headers.get("access-control-expose-headers")).toBe(EXPOSED);
}

describe.each(SERVED_ROUTES.map((r) => [r.path, r] as const))("GET %s", (routePath) => {
  const path = () => samplePath(routePath);

  it("200 with a weak ETag, x-dataset-version, the D22 Cache-Control and CORS", async () => {
    const res = await server.get(path());
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toMatch(WEAK_ETAG);
    expect(res.headers.get("x-dataset-version")).toBe(view.version);
    expect(D22_MAX_AGE[routePath], `no D22 max-age for ${routePath}`).toBeDefined();
    expect(res.headers.get("cache-control")).toBe(
      `public, max-age=${D22_MAX_AGE[routePath]}, s-maxage=3600, stale-while-revalidate=86400`,
    );
    expectCors(res.headers);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it("If-None-Match with the ETag (weakly compared, in a list, or *) is a 304 with the headers and no body", async () => {
    const etag = (await server.get(path())).headers.get("etag")!;
    const strong = etag.slice(2);
    for (const inm of [etag, strong, `"nope", ${etag}`, `W/"other",${strong}`, "*"]) {
      const res = await server.get(path(), { "if-none-match": inm });
      expect(res.status, inm).toBe(304);
      expect(res.headers.get("etag")).toBe(etag);
      expect(res.headers.get("cache-control")).toBe(
        `public, max-age=${D22_MAX_AGE[routePath]}, s-maxage=3600, stale-while-revalidate=86400`,
      );
      expect(res.headers.get("x-dataset-version")).toBe(view.version);
      expectCors(res.headers);
      expect(await res.text()).toBe("");
    }
    expect((await server.get(path(), { "if-none-match": 'W/"nope", "other"' })).status).toBe(200);
  });

  it("HEAD is GET without a body", async () => {
    const get = await server.get(path());
    const getBody = await get.arrayBuffer();
    const head = await fetch(`${server.base}${path()}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    for (const h of ["etag", "cache-control", "x-dataset-version", "content-type", "access-control-allow-origin"])
      expect(head.headers.get(h), h).toBe(get.headers.get(h));
    expect(Number(head.headers.get("content-length"))).toBe(getBody.byteLength);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });
});

describe("ETag scope (D21)", () => {
  it("covers the raw query string as sent: ?limit=5 and ?limit=05 differ, the same URL repeats", async () => {
    const a = (await server.get("/api/v1/models?limit=5")).headers.get("etag");
    const b = (await server.get("/api/v1/models?limit=05")).headers.get("etag");
    const again = (await server.get("/api/v1/models?limit=5")).headers.get("etag");
    expect(a).not.toBe(b);
    expect(again).toBe(a);
  });

  it("covers the dataset version: a new version changes every ETag and a stale one no longer matches", async () => {
    // Invented fixture: the same view under a later version (the replay has one latest version).
    const local = await startServer(view);
    try {
      const before = await local.get("/api/v1/meta");
      const etag = before.headers.get("etag")!;
      local.views.swap({ ...view, version: "2026-07-01T00:00:00.000Z" });
      const after = await local.get("/api/v1/meta", { "if-none-match": etag });
      expect(after.status).toBe(200);
      expect(after.headers.get("etag")).not.toBe(etag);
      expect(after.headers.get("x-dataset-version")).toBe("2026-07-01T00:00:00.000Z");
    } finally {
      await local.close();
    }
  });

  it("is on 400 and 404 (a matching If-None-Match answers the same error, D21 amended), not on 405 or OPTIONS", async () => {
    for (const [path, status] of [
      ["/api/v1/models?limit=0", 400],
      ["/api/v1/models/anthropic/claude-opus-99", 404],
      ["/api/v1/nothing-here", 404],
    ] as const) {
      const res = await server.get(path);
      expect(res.status).toBe(status);
      const etag = res.headers.get("etag")!;
      expect(etag, path).toMatch(WEAK_ETAG);
      expect(res.headers.get("x-dataset-version")).toBe(view.version);
      const again = await server.get(path, { "if-none-match": etag });
      expect(again.status, path).toBe(status);
      expect(((await again.json()) as { status: number }).status).toBe(status);
      expect(again.headers.get("cache-control")).toBe("public, max-age=60");
      expectCors(again.headers);
    }
    const post = await fetch(`${server.base}/api/v1/meta`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("etag")).toBeNull();
    const options = await fetch(`${server.base}/api/v1/meta`, { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("etag")).toBeNull();
  });
});

describe("Cache-Control of errors (D22)", () => {
  it("400, 404 and 405 are public, max-age=60", async () => {
    expect((await server.get("/api/v1/models?limit=0")).headers.get("cache-control")).toBe("public, max-age=60");
    expect((await server.get("/api/v1/models/x/y")).headers.get("cache-control")).toBe("public, max-age=60");
    expect((await server.get("/api/v1/nope")).headers.get("cache-control")).toBe("public, max-age=60");
    const put = await fetch(`${server.base}/api/v1/rates`, { method: "PUT" });
    expect(put.headers.get("cache-control")).toBe("public, max-age=60");
  });
  // 429 and 5xx (no-store) are measured in http-rate-limit.test.ts and http-errors.test.ts.
});

describe("CORS (D23)", () => {
  it("OPTIONS, preflight or not, on a route or not, is 204 with methods, If-None-Match allowed and max-age 86400", async () => {
    for (const [path, headers] of [
      ["/api/v1/models", { origin: "https://example.org", "access-control-request-method": "GET" }],
      ["/api/v1/models/anthropic/claude-opus-4-0", { origin: "https://x.test" }],
      ["/api/v1/meta", {}],
      ["/api/v1/not-a-route", { "access-control-request-headers": "if-none-match" }],
    ] as const) {
      const res = await fetch(`${server.base}${path}`, { method: "OPTIONS", headers });
      expect(res.status, path).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
      expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("if-none-match");
      expect(res.headers.get("access-control-max-age")).toBe("86400");
      expect(await res.text()).toBe("");
    }
  });

  it("every kind of response carries Allow-Origin * and the exposed headers", async () => {
    const responses = [
      await server.get("/api/v1/meta"),
      await server.get("/api/v1/models?limit=abc"),
      await server.get("/api/v1/models/anthropic/none"),
      await server.get("/api/v1/none"),
      await server.get("/api/v1/models/%E0%A4%A/x"),
      await server.get(`/api/v1/models?q=${"a".repeat(5000)}`),
      await fetch(`${server.base}/api/v1/meta`, { method: "DELETE" }),
      await fetch(`${server.base}/docs`, { redirect: "manual" }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 400, 404, 404, 400, 414, 405, expect.any(Number)]);
    for (const res of responses) expectCors(res.headers);
  });
});
