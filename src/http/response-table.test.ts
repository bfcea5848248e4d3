import { describe, expect, it } from "vitest";
import type { CatalogueView } from "../catalogue/view.js";
import { CachedResponse, EncodedBody } from "./cached-response.js";
import { ResponseTable, responseWeight } from "./response-table.js";

// Issue 47 §2 (T470, T471): every cache of a version's responses is bounded in bytes. The bodies
// are invented (a table holds any bytes; the view is never read by the table), sized to the bound.

const view = { version: "2026-06-01T00:00:00.000Z" } as CatalogueView;
const MB = 1024 * 1024;

function response(bytes: number, tag: string): CachedResponse {
  const fields = {
    status: 200,
    body: Buffer.allocUnsafe(bytes), // the bytes are never read

    contentType: "application/json; charset=utf-8",
    cacheControl: "public, max-age=3600",
    etag: `W/"${tag}"`,
    version: view.version,
  };
  return new CachedResponse(fields, true);
}

describe("ResponseTable's byte bounds", () => {
  it("the free LRU evicts the least recent response once its bytes are over the bound", () => {
    const table = new ResponseTable(view, { bytes: 4 * MB });
    for (let i = 0; i < 5; i++) table.remember(`/a?${i}`, response(MB, `a${i}`));
    // Each weighs 1.25 MB + 512: three fit in 4 MB, the fourth and fifth evict the first two.
    expect(table.get("/a?0")).toBeUndefined();
    expect(table.get("/a?1")).toBeUndefined();
    for (let i = 2; i < 5; i++) expect(table.get(`/a?${i}`), String(i)).toBeDefined();
  });

  it("derived entries weigh the body they keep alive: 100 of 1 MB keep at most 32 MiB", () => {
    const table = new ResponseTable(view);
    for (let i = 0; i < 100; i++) table.rememberDerived(`/d?at=${i}`, response(MB, `d${i}`));
    const { derived, derivedWeight } = table.stats();
    expect(derivedWeight).toBeLessThanOrEqual(32 * MB);
    expect(derived).toBeLessThan(100);
    expect(derived).toBe(Math.floor((32 * MB) / responseWeight(response(MB, "w"))));
    expect(table.get("/d?at=0")).toBeUndefined();
    expect(table.get("/d?at=99")).toBeDefined();
  });

  it("shared past-day answers are bounded in bytes too", () => {
    const table = new ResponseTable(view);
    for (let i = 0; i < 40; i++) table.rememberShared(`export v${i}`, response(MB, `s${i}`));
    expect(table.shared("export v0")).toBeUndefined();
    expect(table.shared("export v39")).toBeDefined();
    expect(table.stats().shared).toBeLessThan(40);
  });
});

describe("EncodedBody with coded forms made elsewhere (T470)", () => {
  it("answers the given br and gzip bytes instead of compressing again", () => {
    const body = Buffer.alloc(4096, 65);
    const br = Buffer.from("made by the worker");
    const encoded = new EncodedBody(body, { br });
    expect(encoded.coded("br")).toBe(br);
    expect(encoded.coded("identity")).toBe(body);
    // gzip was not given: made here, once.
    const gzip = encoded.coded("gzip");
    expect(gzip.length).toBeLessThan(body.length);
    expect(encoded.coded("gzip")).toBe(gzip);
  });
});
