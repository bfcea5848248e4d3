import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modelHead, type PageHead, ROUTE_HEADS, withHead } from "../src/web/page-head.js";
import { registerWeb, WEB_ROUTES } from "../src/web/register-web.js";
import { httpRequest, type TestServer } from "./harness.js";
import { serveWebCatalogue, type WebCatalogue } from "./web-support.js";

/**
 * The web catalogue's mount (T121, T122) on the real app and the real Vite build: the page's
 * routes answer index.html, the hashed assets are immutable and precompressed, the API and its
 * problems are untouched around it.
 */

let web: WebCatalogue;
let root: string;
let server: TestServer;

beforeAll(async () => {
  web = await serveWebCatalogue();
  ({ root, server } = web);
});

afterAll(() => web?.close());

const index = () => readFileSync(join(root, "index.html"), "utf8");
/** The newest successful evidence of the served catalogue (`/meta` freshness, T223). */
const dataAsOf = () => server.views.current()!.meta.freshness.newestEvidenceAt!;

describe("the web catalogue's routes", () => {
  it.each(WEB_ROUTES.filter((r) => !r.includes(":")))(
    "%s answers the page's index.html with its own head, never cached stale",
    async (path) => {
      const res = await httpRequest(server.base, { path });
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.body).toBe(withHead(index(), { ...ROUTE_HEADS[path]!, dataAsOf: dataAsOf() }));
      // The catalogue's age is in the head, so the page states it on first paint (T227).
      expect(res.body).toContain(`<meta name="tariff:data-as-of" content="${dataAsOf()}" />`);
    },
  );

  it("a model page's head names the model and its price; the rest is the build's index.html (T207)", async () => {
    const res = await httpRequest(server.base, { path: "/m/anthropic/claude-opus-4-0" });
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-cache");
    const head = modelHead(server.views.current()!, "anthropic/claude-opus-4-0");
    expect(head.kind).toBe("found");
    expect(res.body).toBe(withHead(index(), { ...(head as { head: PageHead }).head, dataAsOf: dataAsOf() }));
    expect(res.body).toContain("<title>Claude Opus 4 prices · Tariff</title>");
    // Everything but the head is the build's own document.
    const body = (html: string) => html.slice(html.indexOf("</head>"));
    expect(body(res.body)).toBe(body(index()));
  });

  it("the index names its script and stylesheet under /assets/ and nothing from another origin", () => {
    const html = index();
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.filter((r) => r.startsWith("/assets/"))).toHaveLength(2);
    for (const ref of refs) expect(ref).toMatch(/^(\/|data:)/);
  });

  it("assets are immutable for a year and sent brotli-compressed when asked", async () => {
    const script = readdirSync(join(root, "assets")).find((f) => f.endsWith(".js"))!;
    const res = await fetch(`${server.base}/assets/${script}`, { headers: { "accept-encoding": "br" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("content-type")).toBe("application/javascript; charset=utf-8");
    // fetch decodes the body; the decoded bytes are the build's script.
    expect(res.headers.get("content-encoding")).toBe("br");
    expect(await res.text()).toBe(readFileSync(join(root, "assets", script), "utf8"));
    const twin = brotliDecompressSync(readFileSync(join(root, "assets", `${script}.br`))).toString("utf8");
    expect(twin).toBe(readFileSync(join(root, "assets", script), "utf8"));
  });

  it("a path outside the page and the API stays the API's 404 problem for a client that does not ask for HTML", async () => {
    for (const path of ["/nope", "/m/anthropic", "/assets/missing.js"]) {
      const res = await httpRequest(server.base, { path });
      expect(res.status, path).toBe(404);
      expect(res.headers["content-type"], path).toMatch(/^application\/problem\+json/);
    }
  });

  it("the API and the docs are served beside the page", async () => {
    expect((await httpRequest(server.base, { path: "/api/v1/meta" })).status).toBe(200);
    expect((await httpRequest(server.base, { path: "/docs" })).status).toBeLessThan(400);
  });

  it("GET * (asterisk-form) is a 400 problem, not the page, even for a browser (issue 26 §3, T196)", async () => {
    const { hostname, port } = new URL(server.base);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () =>
        socket.write("GET * HTTP/1.1\r\nHost: tariff.test\r\nAccept: text/html\r\nConnection: close\r\n\r\n"),
      );
      const chunks: Buffer[] = [];
      socket.on("data", (c: Buffer) => chunks.push(c));
      socket.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      socket.on("error", reject);
    });
    const [head = "", body = ""] = answer.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head.toLowerCase()).toContain("\r\ncontent-type: application/problem+json\r\n");
    expect(body).not.toContain("<html");
    expect(JSON.parse(body)).toMatchObject({ status: 400, detail: expect.stringContaining("asterisk-form") });
  });

  it("refuses to mount a folder without a build", async () => {
    const empty = mkdtempSync(join(tmpdir(), "tariff-web-empty-"));
    try {
      await expect(registerWeb(server.app, { root: empty })).rejects.toThrow(/no web catalogue build/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
