import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject } from "vitest";
import { DOCS_DEFINITION_NAME, DOCS_SPEC_URL, DOCS_TITLE } from "../src/http/docs-page.js";
import { loadReplay } from "./harness.js";
import { type McpTestServer, startMcpServer, TOOL_NAMES } from "./mcp-support.js";
import { browserTest as it } from "./web-browser.js";

/**
 * Issue 15 in real headless Chromium (Debian's `chromium`, driven by playwright-core, as the web
 * catalogue's tests set up): the MCP SDK's own browser client, bundled by Vite, uses `/mcp` from a
 * page of another origin (the CORS preflight lets its headers through), and `/docs` is Tariff's.
 */

let api: McpTestServer;
let other: Server;
let otherOrigin: string;
let sdkBundle: string;
/** Method and path of every request the API server received. */
const received: string[] = [];

beforeAll(async () => {
  // Bundled by Vite in the project's global setup (T381).
  sdkBundle = readFileSync(inject("mcpClientBundle"), "utf8");
  const replay = await loadReplay();
  await replay.store.close();
  api = await startMcpServer(replay.view);
  api.app.server.on("request", (req) => received.push(`${req.method} ${req.url}`));
  // A page of another origin (another port), as a browser-based MCP client is.
  other = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end('<!doctype html><html lang="en"><head><title>MCP client</title></head><body></body></html>');
  });
  await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
  otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await api?.close();
  await new Promise((resolve) => other?.close(resolve));
});

/** A new page recording console errors, uncaught exceptions and failed requests. */
async function watchedPage(browser: Browser): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console error: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`uncaught: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`failed request: ${r.method()} ${r.url()} ${r.failure()?.errorText}`));
  return { page, problems };
}

describe("a browser-based MCP client on /mcp", () => {
  it("the SDK's client connects from another origin, lists the tools and calls one", async ({ browser }) => {
    const { page, problems } = await watchedPage(browser);
    try {
      await page.goto(otherOrigin);
      await page.addScriptTag({ content: sdkBundle });
      received.length = 0;
      const result = await page.evaluate(async (base) => {
        const { Client, StreamableHTTPClientTransport } = (
          window as unknown as {
            Mcp: {
              Client: new (info: {
                name: string;
                version: string;
              }) => {
                connect(t: unknown): Promise<void>;
                listTools(): Promise<{ tools: { name: string }[] }>;
                callTool(r: { name: string; arguments: object }): Promise<{ structuredContent?: unknown }>;
                close(): Promise<void>;
              };
              StreamableHTTPClientTransport: new (url: URL) => { protocolVersion?: string };
            };
          }
        ).Mcp;
        const client = new Client({ name: "browser-test", version: "0.0.0" });
        const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`));
        await client.connect(transport);
        const tools = await client.listTools();
        const meta = await client.callTool({ name: "get_meta", arguments: {} });
        await client.close();
        return {
          origin: location.origin,
          protocolVersion: transport.protocolVersion ?? null,
          tools: tools.tools.map((t) => t.name),
          version: (meta.structuredContent as { meta?: { datasetVersion?: string } } | undefined)?.meta?.datasetVersion,
        };
      }, api.base);
      expect(result.origin).not.toBe(new URL(api.base).origin);
      expect(result.tools.sort()).toEqual([...TOOL_NAMES].sort());
      expect(result.version).toBe("2026-06-01T00:00:00.000Z");
      // After initialize the client sends its protocol version on every request: a header no
      // simple request carries, so Chromium asked first, and the preflight allowed it.
      expect(result.protocolVersion).toBeTruthy();
      expect(received).toContain("OPTIONS /mcp");
      expect(received.filter((r) => r === "POST /mcp").length).toBeGreaterThanOrEqual(3);
      // Nothing blocked: no CORS error, no failed fetch. The client drops the bodies it does not
      // read (the 202 of a notification, the 405 of its optional GET stream): Chromium calls that
      // ERR_ABORTED, and the 405 logs a console line.
      expect(problems.filter((p) => !p.endsWith("net::ERR_ABORTED") && !p.includes("405"))).toEqual([]);
      expect(problems.join("\n")).not.toMatch(/CORS|ERR_FAILED|Failed to fetch/);
    } finally {
      await page.close();
    }
  });
});

describe("the API reference at /docs", () => {
  it("is Tariff's: title, logo, and the explorer loads /api/v1/openapi.json", async ({ browser }) => {
    const { page, problems } = await watchedPage(browser);
    const requested: string[] = [];
    page.on("request", (r) => requested.push(new URL(r.url()).pathname));
    try {
      await page.goto(`${api.base}/`);
      expect(new URL(page.url()).pathname).toBe("/docs"); // GET / → 302 /docs (no web catalogue mounted)
      await page.waitForSelector(".topbar select option", { state: "attached" });
      await page.waitForSelector(".information-container .title");
      const seen = await page.evaluate(() => {
        const select = document.querySelector<HTMLSelectElement>(".topbar select");
        const logo = document.querySelector<HTMLImageElement>(".topbar-wrapper img");
        return {
          title: document.title,
          option: select?.selectedOptions[0]?.textContent ?? null,
          value: select?.value ?? null,
          logo: logo?.src ?? "",
          apiTitle: document.querySelector(".information-container .title")?.textContent ?? "",
        };
      });
      expect(seen.title).toBe(DOCS_TITLE);
      expect(seen.option).toBe(DOCS_DEFINITION_NAME);
      expect(seen.value).toBe(DOCS_SPEC_URL);
      const svg = Buffer.from(seen.logo.replace(/^data:image\/svg\+xml;base64,/, ""), "base64").toString("utf8");
      expect(svg).toContain('aria-label="Tariff"');
      expect(seen.apiTitle).toContain("Tariff");
      expect(requested).toContain(DOCS_SPEC_URL);
      expect(requested).not.toContain("/docs/json");
      // Swagger UI itself sets one inline style that the plugin's static CSP blocks (so before
      // issue 15 too, with its own title and logo); nothing else may go wrong.
      expect(problems.filter((p) => !p.startsWith("console error: Applying inline style violates"))).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
