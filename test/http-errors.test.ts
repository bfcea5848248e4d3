import { STATUS_CODES } from "node:http";
import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect } from "vitest";
import type { CatalogueView } from "../src/catalogue/view.js";
import { ALLOWED_METHODS, MAX_URL_LENGTH, SERVED_ROUTES } from "../src/http/create-app.js";
import { bindShared } from "./fixtures.js";
import { httpRequest, samplePath, startServer, type TestServer } from "./harness.js";

// api-v1.md Limits and Errors tables row by row, D13 (validation), D14 (404/405), D25 (nothing
// internal; a fault is a logged 500), the URL bound (T25) and malformed percent-encoding (T26),
// all over real HTTP against the replay.
let server: TestServer;
let view: CatalogueView;

// The worker's shared replay and API server on a loopback port (test/fixtures.ts, T274), bound before the file's first test.
const it = bindShared("apiServer", (boundView, boundServer) => {
  view = boundView;
  server = boundServer;
});

interface Body {
  data: unknown[];
  meta: Record<string, unknown>;
}

async function ok(path: string): Promise<Body> {
  const res = await server.get(path);
  expect(res.status, path).toBe(200);
  return (await res.json()) as Body;
}

/** Asserts a well-formed D25 problem and returns its detail. */
async function problemAt(path: string, status: number, init?: RequestInit): Promise<string> {
  const res = await fetch(`${server.base}${path}`, init);
  expect(res.status, path).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  const body = (await res.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["detail", "status", "title", "type"]);
  expect(body.type).toBe("about:blank");
  expect(body.title).toBe(STATUS_CODES[status]);
  expect(body.status).toBe(status);
  expect(typeof body.detail).toBe("string");
  return body.detail as string;
}

describe("api-v1.md Limits table", () => {
  it("GET /models limit: default 50, range 1 to 500", async () => {
    expect((await ok("/api/v1/models")).data).toHaveLength(50);
    expect((await ok("/api/v1/models?limit=1")).data).toHaveLength(1);
    expect((await ok("/api/v1/models?limit=500")).data).toHaveLength(500);
    for (const bad of ["0", "501"])
      expect(await problemAt(`/api/v1/models?limit=${bad}`, 400)).toBe("limit must be an integer from 1 to 500");
  });

  it("GET /models/search limit: default 10, range 1 to 50", async () => {
    expect((await ok("/api/v1/models/search")).data).toHaveLength(10);
    expect((await ok("/api/v1/models/search?limit=50")).data).toHaveLength(50);
    for (const bad of ["0", "51"])
      expect(await problemAt(`/api/v1/models/search?limit=${bad}`, 400)).toBe("limit must be an integer from 1 to 50");
  });

  it("GET /compare ids: 2 to 8", async () => {
    const all = ((await ok("/api/v1/models?limit=9")).data as { id: string }[]).map((m) => m.id);
    const ids = (n: number) => all.slice(0, n).join(",");
    expect((await ok(`/api/v1/compare?models=${ids(2)}`)).meta).toMatchObject({ found: 2, requested: 2 });
    expect((await ok(`/api/v1/compare?models=${ids(8)}`)).meta).toMatchObject({ found: 8, requested: 8 });
    for (const n of [1, 9]) expect(await problemAt(`/api/v1/compare?models=${ids(n)}`, 400)).toMatch(/models/);
    expect(await problemAt("/api/v1/compare", 400)).toMatch(/models is required/);
  });

  it("GET /changes days: default 30, 1 to 3650 (D13)", async () => {
    expect((await ok("/api/v1/changes")).meta.days).toBe(30);
    expect((await ok("/api/v1/changes?days=3650")).meta.days).toBe(3650);
    for (const bad of ["0", "3651", "-1", "7d"])
      expect(await problemAt(`/api/v1/changes?days=${bad}`, 400)).toBe("days must be an integer from 1 to 3650");
  });

  it("GET /changes limit: default 100, capped at 500 (above is not an error), below 1 is a 400", async () => {
    expect((await ok("/api/v1/changes")).meta.limit).toBe(100);
    const capped = await ok("/api/v1/changes?limit=100000&days=3650&kind=price_added");
    expect(capped.meta.limit).toBe(500);
    expect(capped.data.length).toBe(500); // the replay has far more than 500 price_added changes
    expect(await problemAt("/api/v1/changes?limit=0", 400)).toMatch(/^limit must be an integer ≥ 1/);
  });

  it("GET /rates provider filter: up to 50 providers", async () => {
    const slugs = (n: number) => Array.from({ length: n }, (_, i) => `p${i}`).join(",");
    expect((await ok(`/api/v1/rates?provider=${slugs(49)},anthropic`)).data.length).toBeGreaterThan(0);
    expect(await problemAt(`/api/v1/rates?provider=${slugs(51)}`, 400)).toMatch(/provider/);
  });

  // The rate-limit row (300 per minute by default) is measured in http-rate-limit.test.ts.
});

describe("api-v1.md Errors table", () => {
  it("400: unknown channel, naming the allowed values", async () => {
    const detail = await problemAt("/api/v1/models/anthropic/claude-opus-4-0?channel=bedrock", 400);
    expect(detail).toBe(
      // and `all`, every channel in one answer (T201)
      "channel must be one of: direct, reseller_1, reseller_2, reseller_3, reseller_4, reseller_5, coding_plan, token_plan, other, all",
    );
  });

  it("400: fewer than two ids in compare", async () => {
    expect(await problemAt("/api/v1/compare?models=openai/gpt-4o", 400)).toMatch(/2 to 8/);
  });

  it("400: unknown kind in changes (and in changes.xml, D19)", async () => {
    for (const path of ["/api/v1/changes?kind=price_increase,price_hike", "/api/v1/changes.xml?kind=price_hike"])
      expect(await problemAt(path, 400)).toMatch(/kind "price_hike" is not one of: price_increase/);
  });

  it("404: unknown model on /models/{provider}/{model} and on its history, detail the id (D14)", async () => {
    expect(await problemAt("/api/v1/models/anthropic/claude-opus-99", 404)).toBe("anthropic/claude-opus-99");
    expect(await problemAt("/api/v1/models/anthropic/claude-opus-99/history", 404)).toBe("anthropic/claude-opus-99");
  });

  // 304 is measured in http-headers.test.ts, 429 in http-rate-limit.test.ts.
});

describe("D13 validation", () => {
  it.each([["+5"], ["1e2"], ["0x10"], ["1.5"], [""], [" 5"], ["٥"]])(
    "limit=%j is not an integer: 400 naming limit and its range",
    async (value) => {
      expect(await problemAt(`/api/v1/models?limit=${encodeURIComponent(value)}`, 400)).toBe(
        "limit must be an integer from 1 to 500",
      );
    },
  );

  it("05 is 5; a percent-encoded digit is a digit", async () => {
    expect((await ok("/api/v1/models?limit=05")).data).toHaveLength(5);
    expect((await ok("/api/v1/models?limit=%35")).data).toHaveLength(5);
  });

  it("from/to must be real dates, from not after to", async () => {
    const history = "/api/v1/models/anthropic/claude-opus-4-0/history";
    for (const bad of ["2026-02-30", "2026-13-01", "26-01-01", "2026-1-1", "yesterday"]) {
      expect(await problemAt(`${history}?from=${bad}`, 400)).toBe("from must be a real date YYYY-MM-DD");
      expect(await problemAt(`${history}?to=${bad}`, 400)).toBe("to must be a real date YYYY-MM-DD");
    }
    expect(await problemAt(`${history}?from=2026-03-02&to=2026-03-01`, 400)).toBe("from must not be after to");
    expect((await ok(`${history}?from=2026-03-01&to=2026-03-01`)).meta.model).toBe("anthropic/claude-opus-4-0");
  });

  it("bad cursor and bad confidence are 400s naming the parameter", async () => {
    expect(await problemAt("/api/v1/models?cursor=%%%", 400)).toMatch(/cursor/);
    expect(await problemAt("/api/v1/models?confidence=VERIFIED", 400)).toBe(
      "confidence must be one of: verified, high, medium, low, unverified",
    );
  });

  it("the same parameter twice is a 400 on every endpoint that takes it", async () => {
    for (const path of [
      "/api/v1/models?q=a&q=b",
      "/api/v1/models/search?limit=1&limit=1",
      "/api/v1/models/anthropic/claude-opus-4-0?channel=direct&channel=direct",
      "/api/v1/compare?models=a/b,c/d&models=a/b,c/d",
      "/api/v1/changes?days=1&days=2",
      "/api/v1/rates?provider=a&provider=b",
    ])
      expect(await problemAt(path, 400)).toMatch(/was given 2 times; give it once/);
  });

  it("unknown parameters are ignored, limit[] included; filters matching nothing give 200 and []", async () => {
    expect((await ok("/api/v1/models?limit[]=3&foo=bar")).data).toHaveLength(50);
    expect((await ok("/api/v1/meta?x=1&x=2")).data).toBeDefined();
    expect((await ok("/api/v1/rates?provider=nobody")).data).toEqual([]);
    expect((await ok("/api/v1/changes?provider=nobody")).data).toEqual([]);
  });

  it("parameter checks (400) come before the lookup (404) (D14)", async () => {
    await problemAt("/api/v1/models/nobody/nothing?channel=x", 400);
    await problemAt("/api/v1/models/nobody/nothing/history?from=x", 400);
  });
});

describe("D14 paths and methods", () => {
  it("an unknown path is a 404 problem pointing at the OpenAPI document", async () => {
    // (`/` points at the docs instead: issue 15, T94, tested in http-open-internet.test.ts)
    for (const path of ["/api/v1/nothing-here", "/api/v2/meta", "/nothing", "/api/v1/meta/", "/api/v1/models/a"])
      expect(await problemAt(path, 404)).toMatch(/openapi\.json/);
  });

  it.each(SERVED_ROUTES.map((r) => [r.path]))("%s: every other method is a 405 with Allow, body or not", async (p) => {
    const path = samplePath(p);
    for (const method of ["POST", "PUT", "DELETE", "PATCH", "TRACE", "PROPFIND", "LOCK", "SEARCH", "QUERY"]) {
      const res = await httpRequest(server.base, {
        method,
        path,
        headers: { "content-type": "application/xml", "content-length": "0" },
      });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.allow).toBe(ALLOWED_METHODS);
      expect(res.headers["access-control-allow-origin"]).toBe("*");
      expect(JSON.parse(res.body)).toMatchObject({ title: "Method Not Allowed", status: 405 });
    }
    // A body Fastify could not parse is not looked at: still 405, not 400 or 415.
    const res = await fetch(`${server.base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(res.status).toBe(405);
  });
});

describe("URL bound (T25) and percent-encoding (T26)", () => {
  it(`a URL longer than ${MAX_URL_LENGTH} characters is a 414 problem; at the bound it is served`, async () => {
    const prefix = "/api/v1/models?q=";
    const atBound = `${prefix}${"a".repeat(MAX_URL_LENGTH - prefix.length)}`;
    expect(atBound.length).toBe(MAX_URL_LENGTH);
    expect((await server.get(atBound)).status).toBe(200);
    expect(await problemAt(`${atBound}a`, 414)).toBe(`the request URL exceeds ${MAX_URL_LENGTH} characters`);
    expect(await problemAt(`/api/v1/${"x".repeat(MAX_URL_LENGTH)}`, 414)).toMatch(/exceeds/);
    expect(await problemAt(`/api/v1/models/anthropic/${"m".repeat(MAX_URL_LENGTH)}`, 414)).toMatch(/exceeds/);
  });

  it("a long path parameter within the bound is an ordinary 404 with the id", async () => {
    const slug = "m".repeat(1000);
    expect(await problemAt(`/api/v1/models/anthropic/${slug}`, 404)).toBe(`anthropic/${slug}`);
  });

  it("malformed percent-encoding in the path is a 400 problem, never a 500", async () => {
    for (const path of [
      "/api/v1/%zz",
      "/api/v1/models/%E0%A4%A/x",
      "/api/v1/models/anthropic/%",
      "/api/v1/models/%C0%AF/x/history",
      "/api/v1/m%ZZdels",
    ])
      expect(await problemAt(path, 400)).toBe("the request path is not valid percent-encoded UTF-8");
  });

  it("malformed percent-encoding in the query is read leniently (WHATWG): 200 or the parameter's 400", async () => {
    expect((await server.get("/api/v1/models?q=%zz")).status).toBe(200);
    expect((await server.get("/api/v1/models/search?q=%E0%A4&limit=%")).status).toBe(400);
    expect((await server.get("/api/v1/changes?q=%C0%AF%")).status).toBe(200);
  });
});

describe("D25 unexpected faults", () => {
  it("a verb that throws is a logged 500 problem with nothing internal in it", async () => {
    const lines: string[] = [];
    const logger = pino(
      { level: "error" },
      new Writable({
        write(chunk, _enc, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    // Invented fault: a view whose summary throws an error full of internals when read.
    const secret = "SELECT * FROM prices at /srv/tariff/src/store/kysely-store.ts:42";
    const faulty = Object.create(view, {
      meta: {
        get() {
          throw new Error(secret);
        },
      },
    }) as CatalogueView;
    const local = await startServer(faulty, { logger, rateLimitPerMinute: 10 });
    try {
      const res = await local.get("/api/v1/meta");
      expect(res.status).toBe(500);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("etag")).toBeNull();
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("ratelimit-limit")).toBe("10");
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({
        type: "about:blank",
        title: "Internal Server Error",
        status: 500,
        detail: "an unexpected fault occurred; it has been logged",
      });
      for (const leak of ["SELECT", "/srv/", "kysely", ".ts", "Error:", "    at ", "stack"])
        expect(text).not.toContain(leak);
      // Other endpoints of the same view are unaffected.
      expect((await local.get("/api/v1/providers")).status).toBe(200);
    } finally {
      await local.close();
    }
    const logged = lines.map((l) => JSON.parse(l) as { msg: string; err?: { message: string; stack: string } });
    const fault = logged.find((l) => l.msg === "unexpected fault");
    expect(fault?.err?.message).toBe(secret);
    expect(fault?.err?.stack).toContain("http-errors.test.ts");
  });

  it("before a catalogue is loaded every endpoint is a 503 problem, no-store", async () => {
    const local = await startServer(view);
    try {
      (local.views as unknown as { swap(v: CatalogueView | null): void }).swap(null);
      for (const route of SERVED_ROUTES) {
        const res = await local.get(samplePath(route.path));
        expect(res.status).toBe(503);
        expect(res.headers.get("cache-control")).toBe("no-store");
        expect(((await res.json()) as { title: string }).title).toBe("Service Unavailable");
      }
    } finally {
      await local.close();
    }
  });
});
