import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CatalogueView } from "../src/catalogue/view.js";
import { DOCS_DEFINITION_NAME, DOCS_SPEC_URL, DOCS_TITLE } from "../src/http/docs-page.js";
import { httpRequest, loadReplay, startServer, type TestServer } from "./harness.js";
import { type McpTestServer, startMcpServer } from "./mcp-support.js";

/**
 * Safe on the open internet (issue 15): no request header decides a link (D19 amended), no error
 * revalidates to 304 (D21 amended), one problem content type, and browser MCP clients can use /mcp;
 * CONNECT and dot segments get a true answer, `/` points at the docs, and the docs are Tariff's.
 */
let view: CatalogueView;
let server: McpTestServer;
let pinned: TestServer;

beforeAll(async () => {
  const replay = await loadReplay();
  view = replay.view;
  await replay.store.close();
  server = await startMcpServer(view);
  pinned = await startServer(view, { publicBaseUrl: "https://tariff.example" });
});
afterAll(async () => {
  await server?.close();
  await pinned?.close();
});

const EVIL = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };

describe("feed poisoning (D19 amended)", () => {
  it.each(["/api/v1/changes.xml", "/api/v1/changes", "/api/v1/openapi.json", "/api/v1/meta", "/api/v1/models/x/y"])(
    "%s: evil.example appears in no body and no header",
    async (path) => {
      const res = await httpRequest(server.base, { path, headers: EVIL });
      expect(res.status).toBeLessThan(500);
      expect(res.body).not.toContain("evil.example");
      expect(JSON.stringify(res.headers)).not.toContain("evil.example");
    },
  );

  it("PUBLIC_BASE_URL still wins for the feed's links", async () => {
    const res = await httpRequest(pinned.base, { path: "/api/v1/changes.xml", headers: EVIL });
    expect(res.body).toContain("https://tariff.example");
    expect(res.body).not.toContain("evil.example");
  });
});

describe("no 304 on errors (D21 amended, RFC 9110 §13.2.1)", () => {
  it.each([
    ["/api/v1/models?limit=0", 400],
    ["/api/v1/models/x/y", 404],
  ])("a matching If-None-Match on %s answers the same %d with its body", async (path, status) => {
    const first = await httpRequest(server.base, { path });
    expect(first.status).toBe(status);
    const again = await httpRequest(server.base, { path, headers: { "if-none-match": String(first.headers.etag) } });
    expect(again.status).toBe(status);
    expect(JSON.parse(again.body)).toMatchObject({ status });
  });
});

describe("one problem content type", () => {
  it.each([
    ["GET", "/api/v1/nothing-here"],
    ["POST", "/api/v1/meta"],
    ["GET", `/api/v1/models/${"x".repeat(9000)}`],
    ["GET", "/api/v1/models?limit=0"],
    ["GET", "/api/v1/models/x/y"],
    ["GET", "/mcp"],
  ])("%s %s", async (method, path) => {
    const res = await httpRequest(server.base, { method, path });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.headers["content-type"]).toBe("application/problem+json");
  });
});

describe("/mcp for browser MCP clients", () => {
  it("a preflight allows the MCP SDK's headers and the answer exposes the session header", async () => {
    const res = await httpRequest(server.base, {
      method: "OPTIONS",
      path: "/mcp",
      headers: {
        origin: "https://client.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,mcp-protocol-version,mcp-session-id",
      },
    });
    expect(res.status).toBe(204);
    const allowed = String(res.headers["access-control-allow-headers"]).toLowerCase();
    for (const h of ["content-type", "mcp-protocol-version", "mcp-session-id"]) expect(allowed).toContain(h);
    const get = await httpRequest(server.base, { path: "/mcp" });
    expect(get.status).toBe(405);
    expect(String(get.headers["access-control-expose-headers"]).toLowerCase()).toContain("mcp-session-id");
  });
});

/** Sends raw bytes and reads until the server closes the connection. */
function rawExchange(base: string, request: string): Promise<string> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(url.port), url.hostname, () => socket.write(request));
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.on("error", reject);
  });
}

describe("absolute-form targets (issue 26 §3, T196)", () => {
  it.each([
    ["the listening address", () => server.base],
    ["PUBLIC_BASE_URL set", () => pinned.base],
  ])("an alias asked as http://evil.example/… redirects to a path on this server (%s)", async (_, base) => {
    const answer = await rawExchange(
      base(),
      "GET http://evil.example/api/v1/models/anthropic/claude-opus-4-20250514?x=1 HTTP/1.1\r\n" +
        "Host: evil.example\r\nConnection: close\r\n\r\n",
    );
    const [head = ""] = answer.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 308 /);
    expect(head.toLowerCase()).toContain("\r\nlocation: /api/v1/models/anthropic/claude-opus-4-0?x=1\r\n");
    expect(head).not.toContain("evil.example");
  });
});

describe("CONNECT and dot segments say what they are", () => {
  it("CONNECT answers a 405 problem with Allow, not an empty reply", async () => {
    const answer = await rawExchange(server.base, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
    const [head = "", body = ""] = answer.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(head.toLowerCase()).toContain("\r\nallow: get, head, options");
    expect(head.toLowerCase()).toContain("\r\ncontent-type: application/problem+json\r\n");
    expect(JSON.parse(body)).toMatchObject({ status: 405, detail: expect.stringContaining("not a proxy") });
  });

  it.each([
    "/docs/static/../../package.json",
    "/docs/static/%2e%2e/%2E%2E/package.json",
    "/docs/./json",
    "/assets/../package.json",
  ])("%s is a 404 that names the dot segment, not a 403 'could not be read'", async (path) => {
    const res = await httpRequest(server.base, { path });
    expect(res.status).toBe(404);
    expect(res.headers["content-type"]).toBe("application/problem+json");
    const body = JSON.parse(res.body) as { detail: string };
    expect(body.detail).toContain("dot segments");
    expect(body.detail).not.toContain("could not be read");
    expect(res.body).not.toContain('"name": "tariff-catalogue"');
  });
});

describe("the first page", () => {
  it("GET / points at /docs when no web catalogue is mounted", async () => {
    for (const method of ["GET", "HEAD"]) {
      const res = await httpRequest(server.base, { method, path: "/" });
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe("/docs");
    }
  });

  it("/docs is Tariff's: its title, its logo, and the explorer on /api/v1/openapi.json", async () => {
    const page = await httpRequest(server.base, { path: "/docs/" });
    expect(page.status).toBe(200);
    expect(page.body).toContain(`<title>${DOCS_TITLE}</title>`);
    expect(page.body).not.toContain("<title>Swagger UI</title>");
    expect(page.body).toContain("theme/tariff.svg");
    const init = await httpRequest(server.base, { path: "/docs/static/swagger-initializer.js" });
    expect(init.body).toContain(JSON.stringify(DOCS_SPEC_URL));
    expect(init.body).toContain(DOCS_DEFINITION_NAME);
    // Fastify's logo is an Adobe Illustrator SVG; ours is not.
    const logo = /img\.src = 'data:image\/svg\+xml;base64,([^']+)'/.exec(init.body)?.[1] ?? "";
    const svg = Buffer.from(logo, "base64").toString("utf8");
    expect(svg).toContain('aria-label="Tariff"');
    expect(svg).not.toContain("Adobe Illustrator");
    const spec = await httpRequest(server.base, { path: DOCS_SPEC_URL });
    expect(spec.status).toBe(200);
  });
});
