import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CatalogueView } from "../src/catalogue/view.js";
import { CachedResponse } from "../src/http/cached-response.js";
import { precomputed } from "../src/http/create-app.js";
import { negotiateEncoding } from "../src/http/encoding.js";
import { precomputedRequests, ResponseTable } from "../src/http/response-table.js";
import { loadReplay, SAMPLE_MODEL, startServer, type TestServer } from "./harness.js";

// Issue 6 (T50–T52): responses built once per version, the fast path in front of Fastify, and gzip /
// brotli variants per Accept-Encoding. Behaviour only: no timing is asserted here (`npm run bench`
// measures). Real data of the bundled replay throughout.

interface Raw {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** One GET over node:http, raw bytes (no decompression), headers lower-cased without Date. */
function raw(base: string, path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const h: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (k !== "date") h[k] = String(v);
        resolve({ status: res.statusCode ?? 0, headers: h, body: Buffer.concat(chunks) });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const MODEL = `/api/v1/models/${SAMPLE_MODEL.provider}/${SAMPLE_MODEL.model}`;
let view: CatalogueView;
let built: TestServer; // precomputed, rate limit off: the fast path
let lazy: TestServer; // nothing precomputed, rate limit off
let counted: TestServer; // rate limit on, fast path off: every request through Fastify
let compressed: TestServer; // compression on (the default), rate limit off
let compressedCounted: TestServer; // compression on, rate limit on, through Fastify
let identity: TestServer; // compression off

beforeAll(async () => {
  const replay = await loadReplay();
  await replay.store.close();
  view = replay.view;
  built = await startServer(view, { precompute: true });
  lazy = await startServer(view, { precompute: false });
  counted = await startServer(view, { rateLimitPerMinute: 1_000_000, fastPath: false, precompute: true });
  compressed = await startServer(view, { precompute: true });
  compressedCounted = await startServer(view, { rateLimitPerMinute: 1_000_000, fastPath: false, precompute: true });
  identity = await startServer(view, { compression: false });
  await Promise.all([built, counted, compressed, compressedCounted].map((s) => precomputed(s.app)));
});
afterAll(async () => {
  await Promise.all([built, lazy, counted, compressed, compressedCounted, identity].map((s) => s?.close()));
});

const withoutRateHeaders = (h: Record<string, string>) =>
  Object.fromEntries(Object.entries(h).filter(([k]) => !k.startsWith("ratelimit-")));

describe("responses built once per version (issue 6 §1)", () => {
  it("covers the parameter-free endpoints, every model (per selling channel) and every history", () => {
    const urls = new Set(precomputedRequests(view).map((r) => r.url));
    for (const path of ["/meta", "/providers", "/sources", "/rates"]) expect(urls.has(`/api/v1${path}`)).toBe(true);
    expect(urls.has(MODEL)).toBe(true);
    expect(urls.has(`${MODEL}?channel=direct`)).toBe(true);
    expect(urls.has(`${MODEL}/history`)).toBe(true);
    const histories = precomputedRequests(view).filter((r) => r.route.path === "/models/:provider/:model/history");
    // Ids that need percent-encoding in a path (e.g. a `:` or `/` in the slug) are left to the lazy path.
    const literal = view.models.filter((m) => /^[A-Za-z0-9._~-]+$/.test(m.model.provider + m.model.slug));
    // Issue 12: a slug is a spelling of the grammar (lower case, digits, `.`, `-`), so no id needs it.
    expect(literal.length).toBe(view.models.length);
    expect(histories.length).toBe(literal.length);
  });

  it("a built response is byte for byte the one rendered on demand, headers included", async () => {
    const requests = precomputedRequests(view);
    const sample = requests.filter((_, i) => i < 8 || i % 41 === 0).map((r) => r.url);
    expect(sample.length).toBeGreaterThan(100);
    for (const url of sample) {
      const a = await raw(built.base, url);
      const b = await raw(lazy.base, url);
      expect(a.status, url).toBe(b.status);
      expect(a.headers, url).toEqual(b.headers);
      expect(a.body.equals(b.body), url).toBe(true);
    }
  });
});

describe("fast path in front of Fastify (T50)", () => {
  it("answers a cached GET with the headers Fastify sends, on 200, 400, 404 and 304 (errors never 304, D21 amended)", async () => {
    for (const url of [MODEL, "/api/v1/models?limit=7", `${MODEL}?channel=bogus`, "/api/v1/models/nobody/none"]) {
      const fast = await raw(built.base, url);
      const viaFastify = await raw(counted.base, url);
      expect(fast.status, url).toBe(viaFastify.status);
      expect(fast.headers, url).toEqual(withoutRateHeaders(viaFastify.headers));
      expect(viaFastify.headers["ratelimit-limit"], url).toBe("1000000");
      expect(fast.body.equals(viaFastify.body), url).toBe(true);
      const tag = { "if-none-match": fast.headers.etag ?? "" };
      const fast304 = await raw(built.base, url, tag);
      const fastify304 = await raw(counted.base, url, tag);
      // Only a 200 revalidates to 304; an error is answered again in full, the same on both paths.
      expect(fast304.status, url).toBe(fast.status === 200 ? 304 : fast.status);
      expect(fastify304.status, url).toBe(fast304.status);
      expect(fast304.headers, url).toEqual(withoutRateHeaders(fastify304.headers));
      expect(fast304.body.length === 0, url).toBe(fast.status === 200);
    }
  });

  it("a swap is atomic: the next request answers from the new version's responses", async () => {
    const local = await startServer(view);
    try {
      const before = await raw(local.base, MODEL);
      local.views.swap({ ...view, version: "2026-07-01T00:00:00.000Z" }); // invented later version
      const after = await raw(local.base, MODEL);
      expect(after.headers["x-dataset-version"]).toBe("2026-07-01T00:00:00.000Z");
      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect(JSON.parse(after.body.toString()).meta.datasetVersion).toBe("2026-07-01T00:00:00.000Z");
    } finally {
      await local.close();
    }
  });
});

describe("Accept-Encoding (issue 6 §2)", () => {
  it("negotiates with q-values, br first on a tie, identity when nothing else is acceptable", () => {
    expect(negotiateEncoding(undefined)).toBe("identity");
    expect(negotiateEncoding("")).toBe("identity");
    expect(negotiateEncoding("gzip")).toBe("gzip");
    expect(negotiateEncoding("gzip, deflate, br")).toBe("br");
    expect(negotiateEncoding("gzip;q=1, br;q=0.5")).toBe("gzip");
    expect(negotiateEncoding("br;q=0, gzip;q=0")).toBe("identity");
    expect(negotiateEncoding("identity;q=0")).toBe("identity");
    expect(negotiateEncoding("*")).toBe("br");
    expect(negotiateEncoding("*;q=0.1, gzip;q=0.2")).toBe("gzip");
    expect(negotiateEncoding("deflate")).toBe("identity");
  });

  it.each([
    ["fast path", () => compressed],
    ["through Fastify", () => compressedCounted],
  ] as const)(
    "%s: gzip and br variants decode to the identity body, same ETag, Vary on every variant and the 304",
    async (_label, server) => {
      for (const url of [MODEL, "/api/v1/rates", "/api/v1/models?limit=9"]) {
        const s = server();
        const plain = await raw(s.base, url);
        expect(plain.headers["content-encoding"]).toBeUndefined();
        expect(plain.headers.vary).toBe("accept-encoding");
        const gz = await raw(s.base, url, { "accept-encoding": "gzip" });
        expect(gz.headers["content-encoding"]).toBe("gzip");
        expect(gz.headers.vary).toBe("accept-encoding");
        expect(Number(gz.headers["content-length"])).toBe(gz.body.length);
        expect(gunzipSync(gz.body).equals(plain.body), url).toBe(true);
        const br = await raw(s.base, url, { "accept-encoding": "gzip;q=0.8, br" });
        expect(br.headers["content-encoding"]).toBe("br");
        expect(brotliDecompressSync(br.body).equals(plain.body), url).toBe(true);
        expect(br.body.length).toBeLessThan(plain.body.length);
        expect(new Set([plain.headers.etag, gz.headers.etag, br.headers.etag]).size).toBe(1);
        const notModified = await raw(s.base, url, {
          "accept-encoding": "br",
          "if-none-match": plain.headers.etag ?? "",
        });
        expect(notModified.status).toBe(304);
        expect(notModified.headers.vary).toBe("accept-encoding");
      }
    },
  );

  it("small bodies and HEAD are sent as is", async () => {
    const missing = await raw(compressed.base, "/api/v1/models/nobody/none", { "accept-encoding": "gzip, br" });
    expect(missing.status).toBe(404);
    expect(missing.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(missing.body.toString()).status).toBe(404);
    const head = await raw(compressedCounted.base, "/api/v1/rates", { "accept-encoding": "gzip" }, "HEAD");
    const get = await raw(compressedCounted.base, "/api/v1/rates");
    expect(head.headers["content-encoding"]).toBeUndefined();
    expect(Number(head.headers["content-length"])).toBe(get.body.length);
  });

  it("compression is on by default; with `compression: false` Accept-Encoding is ignored and no Vary is sent", async () => {
    const coded = await raw(built.base, "/api/v1/rates", { "accept-encoding": "gzip, br" });
    expect(coded.headers["content-encoding"]).toBe("br");
    expect(coded.headers.vary).toBe("accept-encoding");
    const res = await raw(identity.base, "/api/v1/rates", { "accept-encoding": "gzip, br" });
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
    expect(JSON.parse(res.body.toString()).data.length).toBeGreaterThan(0);
  });
});

describe("response cache bound", () => {
  it("evicts by bytes: two 6 KB bodies do not fit in 10 KB", () => {
    const table = new ResponseTable(view, { bytes: 10_000 });
    const make = (n: number) =>
      new CachedResponse(
        {
          status: 200,
          body: Buffer.alloc(6000, n),
          contentType: "application/json",
          cacheControl: "x",
          etag: `W/"${n}"`,
          version: view.version,
        },
        false,
      );
    table.remember("/a", make(1));
    table.remember("/b", make(2));
    expect(table.get("/a")).toBeUndefined();
    expect(table.get("/b")?.etag).toBe('W/"2"');
  });
});
