import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { recordedReport } from "../../test/recorded-payloads.js";
import { SOURCES } from "../sources/registry.js";
import { COLUMN, decode, encode, JSON_COLUMN, StoreRowError } from "./columns.js";

// T163: store columns are read through zod schemas and codecs, never cast. The listings of every
// adapter's recorded payload (2026-06-01; Anthropic's page 2025-12-01) round-trip through the
// source_state codec unchanged, so a Listing field the schema lacked would fail here, not vanish.
describe("store column codecs (issue 19 §4, T163)", () => {
  it.each(SOURCES.map((a) => [a.id, a] as const))("%s listings round-trip through JSON_COLUMN.listings", (_id, a) => {
    // (a maker's page recorded once, issue 48: its one copy; Z.ai's carries `statesFree`)
    const recorded = readdirSync(join("data/upstream", a.id)).sort();
    const date =
      a.id === "official-anthropic" ? "2025-12-01" : recorded.includes("2026-06-01") ? "2026-06-01" : recorded.at(-1)!;
    const listings = recordedReport(a, date).listings;
    expect(listings.length).toBeGreaterThan(0);
    const text = encode(JSON_COLUMN.listings, listings);
    expect(typeof text).toBe("string");
    expect(decode(JSON_COLUMN.listings, text, "source_state.listings")).toEqual(JSON.parse(JSON.stringify(listings)));
  });

  it("a value outside a column's vocabulary is an error naming the column, not a cast", () => {
    expect(decode(COLUMN.channel, "reseller_2", "price.channel")).toBe("reseller_2");
    expect(() => decode(COLUMN.channel, "bedrock", "price.channel")).toThrow(StoreRowError);
    expect(() => decode(COLUMN.channel, "bedrock", "price.channel")).toThrow(/^price\.channel: /);
    // A source id is a registered one (T399, which amends T235's "checked for its spelling only"):
    // the row is typed `SourceId`, a union of the registered ids, so another id is not cast into it.
    expect(decode(COLUMN.source, "official-openai", "source_health.source")).toBe("official-openai");
    expect(() => decode(COLUMN.source, "retired-source", "source_health.source")).toThrow(/^source_health\.source: /);
    expect(() => decode(COLUMN.source, "Not A Slug", "source_health.source")).toThrow(/source_health\.source/);
  });

  it("JSON columns reject text that is not JSON or not of the column's shape", () => {
    expect(decode(JSON_COLUMN.sources, '["openrouter","litellm"]', "price.sources")).toEqual(["openrouter", "litellm"]);
    expect(() => decode(JSON_COLUMN.sources, "[openrouter", "price.sources")).toThrow(StoreRowError);
    expect(() => decode(JSON_COLUMN.sources, '["no body"]', "price.sources")).toThrow(/^price\.sources\.0: /);
    expect(() => decode(JSON_COLUMN.counts, '{"a":"1"}', "source_health.rejected_by_reason")).toThrow(
      /rejected_by_reason\.a/,
    );
    expect(
      decode(JSON_COLUMN.lastError, '{"at":"2026-06-01T00:00:00.000Z","message":"x","httpStatus":null}', "e"),
    ).toEqual({ at: "2026-06-01T00:00:00.000Z", message: "x", httpStatus: null });
  });
});
