import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildView, type CatalogueView } from "../src/catalogue/view.js";
import { ViewHolder } from "../src/catalogue/view-holder.js";
import { buildDatasetWithIdentity } from "../src/core/build-dataset.js";
import { locationPath } from "../src/domain/location-path.js";
import { openrouterSource as openrouter } from "../src/sources/openrouter/index.js";
import { SOURCES } from "../src/sources/registry.js";
import { modelHead, withHead } from "../src/web/page-head.js";
import { registerWeb } from "../src/web/register-web.js";
import { httpRequest } from "./harness.js";
import { recordedPayload } from "./recorded-payloads.js";

// Issue 33 §1 (T251): every HTML template fill and redirect takes request or upstream text as
// text. In a replacement *string*, `$'` is the rest of the page, `` $` `` the part before, `$&` the
// match, `$1`/`$<name>` groups and `$$` a dollar: 40 × `$'` in a path made the not-found page
// 70 MB. The page is a small invented `index.html` (the real build's head has the same
// `<title>` and description the fills replace); the model is the recorded OpenRouter payload's
// first model under an invented id and name holding every pattern (no upstream sends one yet).

const PATTERNS = ["$'", "$`", "$&", "$1", "$$", "$<name>"] as const;
const EVIL = PATTERNS.join("");
const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Tariff</title>
    <meta name="description" content="AI model prices" />
  </head>
  <body><div id="app"></div></body>
</html>
`;
const escaped = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

let view: CatalogueView;
let root: string;
let app: FastifyInstance;
let base: string;
const modelId = `openai/gpt-evil-${EVIL}`;
/** An id in another script (canonical, T254): its redirect's Location must be encoded (T256). */
const SCRIPT_ID = "openai/模型-a1";

beforeAll(async () => {
  const payload = recordedPayload("openrouter", "2026-06-01");
  const json = JSON.parse(payload.files.get("models.json")!) as { data: Record<string, unknown>[] };
  const first = json.data.find((m) => String(m.id).startsWith("openai/"))!;
  json.data = [
    { ...first, id: modelId, canonical_slug: modelId, name: `OpenAI: GPT ${EVIL}` },
    { ...first, id: SCRIPT_ID, canonical_slug: SCRIPT_ID, name: "OpenAI: 模型" },
  ];
  const listings = openrouter.parse({ ...payload, files: new Map([["models.json", JSON.stringify(json)]]) });
  const runTime = "2026-06-01T00:00:00.000Z";
  const { dataset } = buildDatasetWithIdentity({
    runId: `run-${runTime}`,
    runTime,
    finishedAt: runTime,
    sources: [{ source: "openrouter", weight: 1, authoritativeFor: [], listings, fresh: true, error: null, ran: true }],
    prior: null,
  });
  view = buildView(dataset, SOURCES);
  root = mkdtempSync(join(tmpdir(), "tariff-fills-"));
  mkdirSync(join(root, "assets"));
  writeFileSync(join(root, "index.html"), INDEX);
  app = Fastify({ logger: false });
  await registerWeb(app, { root, views: new ViewHolder(view) });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(async () => {
  await app?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("withHead fills text, never patterns (T251)", () => {
  it.each(PATTERNS)("%s in a not-found path: the page is the template with the path, escaped", (pattern) => {
    const id = `x/${pattern.repeat(40)}`;
    const found = modelHead(view, id);
    expect(found.kind).toBe("missing");
    const page = withHead(INDEX, found.kind === "missing" ? found.head : { title: "", description: "" });
    expect(page.length).toBeLessThan(64 * 1024);
    expect(page).toContain(`<title>Model not found: ${escaped(id)} · Tariff</title>`);
    expect(page).toContain(`<meta name="description" content="The catalogue has no model ${escaped(id)}." />`);
    expect(page).toContain(`<meta property="og:title" content="Model not found: ${escaped(id)} · Tariff" />`);
    expect(page.split("<title>")).toHaveLength(2);
    expect(page.split("</head>")).toHaveLength(2);
  });

  it("every pattern in a model's and a maker's name: the page names them as written", () => {
    const found = modelHead(view, modelId);
    expect(found.kind).toBe("found");
    const head = found.kind === "found" ? found.head : { title: "", description: "" };
    expect(head.title).toBe(`GPT ${EVIL} prices · Tariff`);
    const page = withHead(INDEX, { ...head, dataAsOf: EVIL });
    expect(page.length).toBeLessThan(4 * 1024);
    expect(page).toContain(`<title>GPT ${escaped(EVIL)} prices · Tariff</title>`);
    expect(page).toContain(`<meta name="tariff:data-as-of" content="${escaped(EVIL)}" />`);
    expect(page).toContain(`content="${escaped(head.description)}"`);
    // Nothing else of the template changed: the page minus its head is the template's.
    expect(page.slice(page.indexOf("</head>"))).toBe(INDEX.slice(INDEX.indexOf("</head>")));
    // A quote or an angle bracket in a name cannot end the attribute or open a tag.
    const tagged = withHead(INDEX, { title: `"><script>x</script>'`, description: "d" });
    expect(tagged).toContain("<title>&quot;&gt;&lt;script&gt;x&lt;/script&gt;'</title>");
    expect(tagged).not.toContain("<script>");
  });
});

describe("the web mount over HTTP (T251, T256)", () => {
  const html = { accept: "text/html" };

  it("GET /m/x/ + 40 × $' answers the small not-found page", async () => {
    const res = await httpRequest(base, { path: `/m/x/${"$'".repeat(40)}`, headers: html });
    expect(res.status).toBe(404);
    expect(Buffer.byteLength(res.body)).toBeLessThan(64 * 1024);
    expect(res.body).toContain(`<title>Model not found: x/${"$'".repeat(40)} · Tariff</title>`);
  });

  it("every $ form in a path, also as a trailing-slash redirect, stays small", async () => {
    for (const pattern of PATTERNS) {
      const path = `/m/x/${encodeURIComponent(pattern.repeat(40))}`;
      const page = await httpRequest(base, { path, headers: html });
      expect(page.status).toBe(404);
      expect(Buffer.byteLength(page.body)).toBeLessThan(64 * 1024);
      const moved = await httpRequest(base, { path: `${path}/`, headers: html });
      expect(moved.status).toBe(308);
      expect(moved.headers.location).toBe(path);
    }
  });

  it("twelve in parallel, then 1,000 with bounded concurrency, leave the server up", async () => {
    const path = `/m/x/${"$'".repeat(40)}`;
    const rssBefore = process.memoryUsage().rss;
    const parallel = await Promise.all(Array.from({ length: 12 }, () => httpRequest(base, { path, headers: html })));
    expect(parallel.map((r) => r.status)).toEqual(Array(12).fill(404));
    let left = 1000;
    const worker = async () => {
      while (left-- > 0) {
        const res = await httpRequest(base, { path, headers: html });
        expect(res.status).toBe(404);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    const up = await httpRequest(base, { path: "/m/x/y", headers: html });
    expect(up.status).toBe(404);
    if (process.env.TARIFF_PRINT_RSS)
      console.log(`RSS ${Math.round(rssBefore / 2 ** 20)} MB → ${Math.round(process.memoryUsage().rss / 2 ** 20)} MB`);
  });

  it("a case-fixing redirect to a model whose id holds every $ form names that id exactly", async () => {
    const res = await httpRequest(base, {
      path: `/m/OpenAI/${encodeURIComponent(modelId.slice(7).toUpperCase())}`,
      headers: html,
    });
    expect(res.status).toBe(308);
    expect(res.headers.location).toBe(`/m/${view.models.find((m) => m.model.id.includes("evil"))!.model.id}`);
    expect(res.headers.location).toContain(EVIL);
  });
});

describe("a redirect to an id outside ASCII (T256)", () => {
  it("answers 308 with the id percent-encoded, never a 500", async () => {
    const id = view.models.find((m) => m.model.id.includes("a1"))!.model.id;
    const res = await httpRequest(base, {
      path: `/m/OpenAI/${encodeURIComponent(id.slice(7).toUpperCase())}`,
      headers: { accept: "text/html" },
    });
    expect(res.status).toBe(308);
    expect(res.headers.location).toBe(`/m/${locationPath(id)}`);
    expect(decodeURIComponent(res.headers.location!)).toBe(`/m/${id}`);
  });
});

describe("locationPath (T256)", () => {
  it("keeps printable ASCII and percent-encodes the rest, so Node accepts the header", () => {
    expect(locationPath("/m/openai/gpt-4o")).toBe("/m/openai/gpt-4o");
    expect(locationPath("/m/openai/gpt\u200b-4\u043e")).toBe("/m/openai/gpt%E2%80%8B-4%D0%BE");
    expect(locationPath("/m/a/b c?d#e%f\u0000\ud800")).toBe("/m/a/b%20c%3Fd%23e%25f%00%EF%BF%BD");
  });
});
