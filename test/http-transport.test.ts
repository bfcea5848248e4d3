import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { CatalogueView } from "../src/catalogue/view.js";
import { ViewHolder } from "../src/catalogue/view-holder.js";
import { precomputed, SERVED_ROUTES } from "../src/http/create-app.js";
import { FastPath } from "../src/http/fast-path.js";
import { precomputedRequests } from "../src/http/response-table.js";
import { VersionedResponses } from "../src/http/versioned-responses.js";
import { loadReplay, SAMPLE_MODEL, startServer, type TestServer } from "./harness.js";

// Issue 30 §1 (T233): the fast path and the Fastify route send what one rule
// (CachedResponse.answer) picks, so for the same request they answer the same bytes: status line,
// every header in the same order (node's Date aside) and the body, 304s and errors included. Each
// request goes over a raw socket to two servers of the same replay, one answering built responses
// on its fast path, one with the fast path off; a spy on the fast path checks it did answer. The
// rate limit runs on a fake clock (T231), so both servers count the same window to the millisecond.

const MODEL = `/api/v1/models/${SAMPLE_MODEL.provider}/${SAMPLE_MODEL.model}`;
/** Responses built per version (the fast path has them at once) and ones rendered on a first request. */
const URLS = [
  "/api/v1/meta",
  MODEL,
  `${MODEL}?channel=direct`,
  `${MODEL}/history`,
  "/api/v1/rates",
  "/api/v1/models?limit=7",
  "/api/v1/changes.xml",
  "/api/v1/openapi.json",
  "/api/v1/models?limit=0", // 400
  "/api/v1/models/nobody/none", // 404
  `${MODEL}?channel=bogus`, // 400
  "/api/v1/models/anthropic/claude-opus-4-20250514", // 308 to the canonical model (T67)
  // Ignored parameters (issue 26 §5, T198): answered from their canonical response, own ETag.
  "/api/v1/meta?nocache=1",
  "/api/v1/models?junk=x&limit=7",
  "/api/v1/models/anthropic/claude-opus-4-20250514?utm=1", // 308, Location keeps the query as sent
  "/api/v1/models?limit=0&junk=1", // 400
];

/** Sends one request over a fresh socket and returns the answer's bytes as sent, without node's Date line. */
function exchange(base: string, method: string, path: string, headers: Record<string, string>): Promise<Buffer> {
  const { hostname, port } = new URL(base);
  const head = [
    `${method} ${path} HTTP/1.1`,
    "Host: tariff.test",
    "Connection: close",
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ].join("\r\n");
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`${head}\r\n\r\n`));
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("end", () => {
      const bytes = Buffer.concat(chunks);
      const end = bytes.indexOf("\r\n\r\n");
      const dateless = bytes
        .subarray(0, end)
        .toString("latin1")
        .replace(/\r\nDate: [^\r]*/i, "");
      resolve(Buffer.concat([Buffer.from(dateless, "latin1"), bytes.subarray(end)]));
    });
    socket.on("error", reject);
  });
}

const statusOf = (bytes: Buffer) => Number(bytes.subarray(9, 12).toString());
const headerOf = (bytes: Buffer, name: string) =>
  new RegExp(`\\r\\n${name}: ([^\\r]*)`, "i").exec(
    bytes.subarray(0, bytes.indexOf("\r\n\r\n")).toString("latin1"),
  )?.[1];

let view: CatalogueView;
const fastAnswers = vi.spyOn(FastPath.prototype, "answer");
beforeAll(async () => {
  const replay = await loadReplay();
  await replay.store.close();
  view = replay.view;
});
afterAll(() => {
  fastAnswers.mockRestore();
});

/** Whether the fast path answered the latest request it saw. */
const answeredFast = () => fastAnswers.mock.results.at(-1)?.value === true;

describe.each([
  { label: "rate limit on", rateLimitPerMinute: 10_000 },
  { label: "rate limit off", rateLimitPerMinute: 0 },
])("the fast path and the Fastify route answer the same bytes, $label", ({ rateLimitPerMinute }) => {
  let fast: TestServer;
  let fastify: TestServer;
  const now = 1_700_000_000_000;
  beforeAll(async () => {
    // PUBLIC_BASE_URL: the feed's links do not name either server's port (D19).
    const options = {
      rateLimitPerMinute,
      rateLimitClock: () => now,
      publicBaseUrl: "https://tariff.example",
      precompute: true,
    };
    fast = await startServer(view, options);
    fastify = await startServer(view, { ...options, fastPath: false });
    await Promise.all([precomputed(fast.app), precomputed(fastify.app)]);
  });
  afterAll(async () => {
    await Promise.all([fast?.close(), fastify?.close()]);
  });

  it.each(URLS)("GET %s: 200/308/400/404 per coding, and the 304s", async (url) => {
    const both = async (headers: Record<string, string>) => {
      // The first request renders and remembers a lazily built response (both servers count it);
      // the second is the one compared: the fast path answers it from the table.
      for (const s of [fast, fastify]) await exchange(s.base, "GET", url, headers);
      const a = await exchange(fast.base, "GET", url, headers);
      expect(answeredFast(), `fast path answered ${url} ${JSON.stringify(headers)}`).toBe(true);
      const b = await exchange(fastify.base, "GET", url, headers);
      expect(a.toString("latin1"), `${url} ${JSON.stringify(headers)}`).toBe(b.toString("latin1"));
      return a;
    };
    const plain = await both({});
    const status = statusOf(plain);
    expect([200, 308, 400, 404]).toContain(status);
    const etag = headerOf(plain, "etag") ?? "";
    expect(etag).toMatch(/^W\/"/);
    expect(headerOf(plain, "ratelimit-limit")).toBe(rateLimitPerMinute ? String(rateLimitPerMinute) : undefined);
    for (const coding of ["gzip", "br, gzip", "gzip;q=1, br;q=0.5", "identity"])
      await both({ "accept-encoding": coding });
    for (const tag of [etag, etag.slice(2), `"other", ${etag}`, "*"]) {
      const notModified = await both({ "if-none-match": tag, "accept-encoding": "br" });
      // Only a 200 revalidates (D21 amended); a 308/400/404 is answered in full again.
      expect(statusOf(notModified), tag).toBe(status === 200 ? 304 : status);
      expect(headerOf(notModified, "vary"), tag).toBe("accept-encoding");
    }
    const changed = await both({ "if-none-match": 'W/"other"' });
    expect(statusOf(changed)).toBe(status);
  });
});

describe("the 429 is the same bytes whichever path counted the request", () => {
  it("a client over its limit gets one renderer's 429 from both servers", async () => {
    const options = { rateLimitPerMinute: 2, rateLimitClock: () => 1_700_000_000_000, precompute: true };
    const fast = await startServer(view, options);
    const fastify = await startServer(view, { ...options, fastPath: false });
    try {
      await Promise.all([precomputed(fast.app), precomputed(fastify.app)]);
      const answers: [Buffer, Buffer][] = [];
      for (let i = 0; i < 4; i++)
        answers.push([await exchange(fast.base, "GET", MODEL, {}), await exchange(fastify.base, "GET", MODEL, {})]);
      expect(answers.map(([a]) => statusOf(a))).toEqual([200, 200, 429, 429]);
      for (const [a, b] of answers) expect(a.toString("latin1")).toBe(b.toString("latin1"));
      expect(headerOf(answers[2]![0], "retry-after")).toBe("60");
    } finally {
      await Promise.all([fast.close(), fastify.close()]);
    }
  });
});

describe("the versioned response tables, alone (T52, T230)", () => {
  it("keep the current and the previous version's tables, build the current one's, and render a miss once", async () => {
    const views = new ViewHolder(view);
    const responses = new VersionedResponses(views, { shape: { compression: true, counted: false } });
    const first = responses.tableFor(view);
    expect(responses.tableFor(view)).toBe(first);
    await responses.built();
    const requests = precomputedRequests(view);
    expect(first.stats().fixed).toBe(requests.length);
    expect(first.get(MODEL)?.status).toBe(200);

    // A later version (an invented copy of the replay's view) gets a table of its own; the old one stays for
    // requests that took it; a third version drops the first.
    const second = { ...view, version: "2026-07-01T00:00:00.000Z" };
    views.swap(second);
    expect(responses.tableFor(second)).not.toBe(first);
    expect(responses.tableFor(view)).toBe(first);
    views.swap({ ...view, version: "2026-08-01T00:00:00.000Z" });
    await responses.built();
    expect(responses.tableFor(view)).not.toBe(first);

    const route = SERVED_ROUTES.find((r) => r.path === "/models")!;
    const url = "/api/v1/models?limit=3";
    const made = await responses.responseFor(second, url, route, url, {}, "");
    expect(made.status).toBe(200);
    expect(made.version).toBe("2026-07-01T00:00:00.000Z");
    expect(await responses.responseFor(second, url, route, url, {}, "")).toBe(made);
  });
});
