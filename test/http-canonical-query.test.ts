import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CatalogueView } from "../src/catalogue/view.js";
import { precomputed, responsesOf } from "../src/http/create-app.js";
import { weakEtag } from "../src/http/etag.js";
import { canonicalQuery } from "../src/http/response-table.js";
import type { VersionedResponses } from "../src/http/versioned-responses.js";
import { httpRequest, replayServer, type TestServer } from "./harness.js";

// Issue 26 §5 (T198): a response is rendered and compressed once per canonical query (the
// endpoint's own parameters, sorted); parameters the endpoint ignores (D13) cannot make the
// server render or compress the same answer again. The ETag still covers the query as sent (D21).

let server: TestServer;
let view: CatalogueView;
let responses: VersionedResponses;

beforeAll(async () => {
  ({ view, server } = await replayServer({ precompute: true }));
  await precomputed(server.app);
  responses = responsesOf(server.app)!;
});
afterAll(async () => {
  await server.close();
});

/** One GET as sent (no URL normalisation); a compressed body comes back decoded. */
function fetchRaw(path: string, headers: Record<string, string> = {}) {
  return httpRequest(server.base, { path, headers });
}

describe("canonicalQuery", () => {
  const known = new Set(["limit", "q", "at"]);
  it("keeps only the endpoint's parameters, sorted by name, values in the order given", () => {
    expect(canonicalQuery(known, "")).toBe("");
    expect(canonicalQuery(known, "junk=1")).toBe("");
    expect(canonicalQuery(known, "q=a+b&junk=x&limit=5")).toBe("limit=5&q=a+b");
    expect(canonicalQuery(known, "limit=5&q=x&limit=6")).toBe("limit=5&limit=6&q=x");
    // A name spelled with percent-encoding is the same parameter the route reads.
    expect(canonicalQuery(known, "li%6Dit=5&zz=1")).toBe("limit=5");
  });
});

describe("junk parameters (issue 26 §5)", () => {
  it("many ignored-parameter variants of /models?limit=500 render once: same bytes, an ETag per exact query", async () => {
    const path = "/api/v1/models";
    const before = responses.renders;
    const first = await fetchRaw(`${path}?limit=500`, { "accept-encoding": "br" });
    expect(first.status).toBe(200);
    expect(responses.renders).toBe(before + 1);
    const etags = new Set<string>([String(first.headers.etag)]);
    const body = first.body;
    for (let i = 0; i < 40; i++) {
      const query = i % 2 === 0 ? `limit=500&junk=${i}` : `junk=${i}&limit=500&x${i}=y`;
      const coding = ["br", "gzip", "identity"][i % 3]!;
      const res = await fetchRaw(`${path}?${query}`, { "accept-encoding": coding });
      expect(res.status, query).toBe(200);
      expect(res.headers.etag, query).toBe(weakEtag(view.version, path, query));
      etags.add(String(res.headers.etag));
      expect(res.headers["content-encoding"], query).toBe(coding === "identity" ? undefined : coding);
      expect(res.body, query).toBe(body);
    }
    expect(etags.size).toBe(41);
    // One render for all 41 URLs; the compressed forms were made once and shared.
    expect(responses.renders).toBe(before + 1);
  });

  it("the order of known parameters does not render again; each order keeps its own ETag and 304", async () => {
    const before = responses.renders;
    const a = await fetchRaw("/api/v1/models?q=gpt&limit=3");
    const b = await fetchRaw("/api/v1/models?limit=3&q=gpt&utm_source=x");
    expect(a.status).toBe(200);
    expect(b.body).toBe(a.body);
    expect(b.headers.etag).not.toBe(a.headers.etag);
    expect(responses.renders).toBe(before + 1);
    const revalidated = await fetchRaw("/api/v1/models?limit=3&q=gpt&utm_source=x", {
      "if-none-match": String(b.headers.etag),
    });
    expect(revalidated.status).toBe(304);
    const other = await fetchRaw("/api/v1/models?limit=3&q=gpt&utm_source=x", {
      "if-none-match": String(a.headers.etag),
    });
    expect(other.status).toBe(200);
  });

  it("a precomputed response serves its junk variants without rendering", async () => {
    const before = responses.renders;
    const plain = await fetchRaw("/api/v1/meta");
    const junk = await fetchRaw("/api/v1/meta?nocache=123");
    expect(junk.status).toBe(200);
    expect(junk.body).toBe(plain.body);
    // /meta is judged now (its lastRun, T450): its ETag's version part carries the records' digest.
    expect(junk.headers.etag).toBe(weakEtag(`${view.version}+${view.sourcesRevision}`, "/api/v1/meta", "nocache=123"));
    expect(responses.renders).toBe(before);
  });

  it("errors stay errors: a parameter given twice is a 400 with junk too, and a 308 keeps the query as sent", async () => {
    const twice = await fetchRaw("/api/v1/models?limit=5&junk=1&limit=6");
    expect(twice.status).toBe(400);
    expect(JSON.parse(twice.body).detail).toMatch(/limit was given 2 times/);
    const moved = await fetchRaw("/api/v1/models/anthropic/claude-opus-4-20250514?junk=1&channel=direct");
    expect(moved.status).toBe(308);
    expect(moved.headers.location).toBe("/api/v1/models/anthropic/claude-opus-4-0?junk=1&channel=direct");
    expect(moved.headers.etag).toBe(
      weakEtag(view.version, "/api/v1/models/anthropic/claude-opus-4-20250514", "junk=1&channel=direct"),
    );
  });
});
