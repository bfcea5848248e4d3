import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CatalogueView } from "../src/catalogue/view.js";
import { httpRequest, loadReplay, startServer, type TestServer } from "./harness.js";
import { type McpTestServer, startMcpServer } from "./mcp-support.js";

/**
 * Safe on the open internet (issue 15): no request header decides a link (D19 amended), no error
 * revalidates to 304 (D21 amended), one problem content type, and browser MCP clients can use /mcp.
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

describe("the first five minutes", () => {
  it("GET / points at the docs when no web catalogue is mounted", async () => {
    const res = await httpRequest(server.base, { path: "/" });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("/docs");
  });

  it("tariff --version and -V print the package's version, from any folder", () => {
    const bin = resolve("bin/tariff.js");
    const { version } = JSON.parse(
      execFileSync("node", [
        "-e",
        "process.stdout.write(require('fs').readFileSync('package.json','utf8'))",
      ]).toString(),
    ) as { version: string };
    for (const flag of ["--version", "-V"])
      expect(execFileSync("node", [bin, flag], { cwd: tmpdir() }).toString().trim()).toBe(version);
  });
});
