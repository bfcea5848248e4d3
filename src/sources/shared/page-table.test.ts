import { describe, expect, it } from "vitest";
import { recordedPayload } from "../../../test/recorded-payloads.js";
import { MODEL_PRICING_COLUMNS, MTOK } from "../official-anthropic/field-map.js";
import {
  firstTable,
  mapColumns,
  markdownTables,
  normaliseHeader,
  priceCell,
  section,
  tableCells,
} from "./page-table.js";

// Issue 46 §1 (T405): tables read by their headers.
const page = (date: string) =>
  (recordedPayload("official-anthropic", date).files.get("pricing.md") as string).split("\n");

describe("the Markdown table reader on the recorded Anthropic copies", () => {
  it.each(["2025-11-01", "2026-05-01"])(
    "%s: finds the Model pricing table and maps every column by its header",
    (date) => {
      const table = firstTable(section(page(date), /^model pricing\b/) ?? []);
      expect(table?.header.map(normaliseHeader)).toEqual([
        "model",
        "base input tokens",
        "5m cache writes",
        "1h cache writes",
        "cache hits and refreshes",
        "output tokens",
      ]);
      const { index, unmapped } = mapColumns(table?.header ?? [], MODEL_PRICING_COLUMNS, "Model pricing");
      expect(index).toEqual({ model: 0, input: 1, cacheWrite5m: 2, cacheWrite1h: 3, cacheRead: 4, output: 5 });
      expect(unmapped).toEqual([]);
    },
  );

  it("finds every table of a copy (2026-05-01: eleven, the Managed Agents ones included)", () => {
    expect(markdownTables(page("2026-05-01")).map((t) => normaliseHeader(t.header[0] ?? ""))).toEqual([
      "model",
      "cache operation",
      "input",
      "model",
      "model",
      "tool",
      "model",
      "modifier",
      "sku",
      "line item",
      "line item",
    ]);
  });
});

describe("columns by name", () => {
  it("reads a renamed or moved column, counts one it does not know", () => {
    const header = ["Output tokens", "Model", "Input", "Cache storage", "Cache reads"];
    expect(mapColumns(header, MODEL_PRICING_COLUMNS, "t")).toEqual({
      index: { output: 0, model: 1, input: 2, cacheRead: 4 },
      unmapped: ["Cache storage"],
    });
  });

  it("refuses a table where two columns name one field", () => {
    expect(() => mapColumns(["Model", "Input", "Input tokens"], MODEL_PRICING_COLUMNS, "Model pricing")).toThrow(
      /Model pricing: two columns name input/,
    );
  });

  it("splits cells on unescaped pipes only", () => {
    expect(tableCells("| a \\| b | c |")).toEqual(["a | b", "c"]);
  });
});

describe("price cells", () => {
  it.each([
    ["$3 / MTok", "3"],
    ["\\$1.50 / MTok", "1.50"],
    ["**$0.30** / MTok", "0.30"],
    ["$1,250 / MTok", "1250"],
    ["$3\u00a0/\u00a0MTok", "3"],
  ])("price cell %# reads as its amount", (cell, amount) => {
    expect(priceCell(cell, MTOK)).toEqual({ kind: "amount", amount });
  });

  it.each(["-", "—", "–", "n/a", "N/A", ""])("%j is not offered", (cell) => {
    expect(priceCell(cell, MTOK)).toEqual({ kind: "none" });
  });

  it.each([
    "300 credits / MTok",
    "$3 / hour",
    "contact sales",
    "starting January 1, 2027: $20 / MTok (until then $15)",
  ])("%s is no price in the page's unit", (cell) => {
    expect(priceCell(cell, MTOK).kind).toBe("other");
  });

  it("a JSX number is an amount, null not offered", () => {
    expect(priceCell(0.075, MTOK)).toEqual({ kind: "amount", amount: "0.075" });
    expect(priceCell(null, MTOK)).toEqual({ kind: "none" });
  });
});
