import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { CachedResponse, countedHeaders, type ResponseFields } from "./cached-response.js";
import { RateLimit } from "./rate-limit.js";

// Issue 30 §1 (T233): the one rule for 304, Vary and validators, tested on its own. The bodies are
// invented (a built response holds any bytes); the HTTP suites run the same rule on the replay's.

const body = Buffer.from(JSON.stringify({ data: Array.from({ length: 200 }, (_, i) => ({ id: `m${i}` })) }));
const fields = (status: number, extra: Partial<ResponseFields> = {}): ResponseFields => ({
  status,
  body,
  contentType: "application/json; charset=utf-8",
  cacheControl: "public, max-age=60",
  etag: 'W/"abc"',
  version: "2026-06-01T00:00:00.000Z",
  ...extra,
});
const pairs = (list: readonly string[]) =>
  Object.fromEntries(list.flatMap((v, i) => (i % 2 ? [] : [[v, list[i + 1]]])));

describe("CachedResponse.answer", () => {
  it("a 200 whose ETag If-None-Match matches (weakly, in a list, or *) is the 304: validators, Vary, no body", () => {
    const r = new CachedResponse(fields(200), true);
    for (const tag of ['W/"abc"', '"abc"', '"x", W/"abc"', "*"]) {
      const a = r.answer("GET", tag, "br");
      expect(a.status, tag).toBe(304);
      expect(a.body).toBeNull();
      expect(a).toBe(r.notModified);
    }
    expect(pairs(r.notModified.headers)).toEqual({
      "access-control-allow-origin": "*",
      "access-control-expose-headers": expect.stringContaining("ETag"),
      etag: 'W/"abc"',
      "cache-control": "public, max-age=60",
      "x-dataset-version": "2026-06-01T00:00:00.000Z",
      vary: "accept-encoding",
    });
    expect(r.answer("GET", '"other"', undefined).status).toBe(200);
  });

  it("a 308, 400 or 404 is never a 304 (RFC 9110 §13.2.1, D21 amended)", () => {
    for (const status of [308, 400, 404]) {
      const r = new CachedResponse(fields(status, status === 308 ? { location: "/x" } : {}), true);
      expect(r.answer("GET", 'W/"abc"', undefined).status).toBe(status);
    }
  });

  it("a GET gets its negotiated coding, a HEAD the identity body; every variant says Vary", () => {
    const r = new CachedResponse(fields(200), true);
    const br = r.answer("GET", undefined, "gzip, br");
    expect(br.coding).toBe("br");
    expect(brotliDecompressSync(br.body!).equals(body)).toBe(true);
    const gz = r.answer("GET", undefined, "gzip");
    expect(gunzipSync(gz.body!).equals(body)).toBe(true);
    expect(pairs(gz.headers)).toMatchObject({
      vary: "accept-encoding",
      "content-encoding": "gzip",
      "content-length": String(gz.body!.length),
    });
    const head = r.answer("HEAD", undefined, "gzip, br");
    expect(head.coding).toBe("identity");
    expect(pairs(head.headers)["content-length"]).toBe(String(body.length));
    // Built once, then the same answer: nothing is made per request.
    expect(r.answer("GET", undefined, "br")).toBe(br);
  });

  it("without compression Accept-Encoding is ignored and no Vary is sent", () => {
    const r = new CachedResponse(fields(200), false);
    const a = r.answer("GET", undefined, "br");
    expect(a.coding).toBe("identity");
    expect(pairs(a.headers).vary).toBeUndefined();
    expect(pairs(r.notModified.headers).vary).toBeUndefined();
  });

  it("a 308 says where the model is, before its validators", () => {
    const r = new CachedResponse(fields(308, { location: "/api/v1/models/a/b" }), true);
    const names = r.answer("GET", undefined, undefined).headers.filter((_, i) => i % 2 === 0);
    expect(names.slice(names.indexOf("location"), names.indexOf("location") + 4)).toEqual([
      "location",
      "etag",
      "cache-control",
      "x-dataset-version",
    ]);
  });
});

describe("counted header lists (T131)", () => {
  it("the RateLimit slots follow CORS and are filled per count; the response's own headers start after them", () => {
    const limit = new RateLimit({ max: 10, now: () => 0 });
    const r = new CachedResponse(fields(200), true, true);
    const answer = r.answer("GET", undefined, undefined);
    const first = countedHeaders(answer.headers, true, limit, limit.count("a") as never);
    expect(first.slice(4, 10)).toEqual(["ratelimit-limit", "10", "ratelimit-remaining", "9", "ratelimit-reset", "60"]);
    expect(first[r.ownHeadersFrom]).toBe("etag");
    const second = countedHeaders(answer.headers, true, limit, limit.count("a") as never);
    expect(second[7]).toBe("8");
    // Uncounted (the shared store is down, T30): no RateLimit headers at all, the list itself untouched.
    const uncounted = countedHeaders(answer.headers, true, limit, null);
    expect(uncounted.some((h) => h.startsWith("ratelimit-"))).toBe(false);
    expect(uncounted.length).toBe(answer.headers.length - 6);
    limit.close();
  });
});

describe("CachedResponse.derive (issue 26 §5, T198)", () => {
  it("another exact query's answer: its own ETag and Location, the same body and coded bytes, compressed once", () => {
    const r = new CachedResponse(fields(308, { location: "/a?x=1" }), true);
    const br = r.answer("GET", undefined, "br");
    const d = r.derive('W/"def"', "/a?x=1&junk=2");
    const dbr = d.answer("GET", undefined, "br");
    expect(dbr.body).toBe(br.body); // the very same Buffer: not compressed again
    expect(pairs(dbr.headers)).toMatchObject({ etag: 'W/"def"', location: "/a?x=1&junk=2", "content-encoding": "br" });
    expect(pairs(br.headers)).toMatchObject({ etag: 'W/"abc"', location: "/a?x=1" });
    const ok = new CachedResponse(fields(200), true);
    const derived = ok.derive('W/"def"', undefined);
    expect(derived.answer("GET", 'W/"def"', "br").status).toBe(304);
    expect(derived.answer("GET", 'W/"abc"', "br").status).toBe(200);
    expect(derived.answer("GET", undefined, "gzip").body).toBe(ok.answer("GET", undefined, "gzip").body);
  });
});
