import { describe, expect, it } from "vitest";
import {
  liveUrls,
  onlyListing,
  payloadOf,
  priceIn,
  recordedAdapter,
  recordedReport,
} from "../../../test/recorded-payloads.js";
import type { Dimension } from "../../domain/dimension.js";
import type { Listing } from "../../domain/observation.js";
import { readModelCell } from "../shared/model-cell.js";
import { SourcePayloadError } from "../source.js";
import { officialAnthropicSource } from "./index.js";
import { ANTHROPIC_MODEL_NAMES } from "./model-names.js";

const { listings } = recordedAdapter(officialAnthropicSource);
const price = (
  ls: readonly Listing[],
  model: string,
  direction: Dimension["direction"],
  partial: Partial<Omit<Dimension, "direction">> = {},
) => priceIn(onlyListing(ls, "anthropic", model), direction, partial);
const payload = (text: string | null) =>
  payloadOf(text === null ? {} : { "pricing.md": text }, "2025-12-01T00:00:00.000Z");

it("fetches its live payload from the pricing page's Markdown (issue 7 §1)", () => {
  // The page moved from docs.claude.com to platform.claude.com in 2026 (README-extra-sources.md §4).
  expect(liveUrls(officialAnthropicSource)).toEqual(["https://platform.claude.com/docs/en/about-claude/pricing.md"]);
});

describe("official-anthropic info", () => {
  it("is authoritative for anthropic with weight 1 and no licence", () => {
    expect(officialAnthropicSource.id).toBe("official-anthropic");
    expect(officialAnthropicSource.info).toMatchObject({ license: null, weight: 1, authoritativeFor: ["anthropic"] });
  });

  // Issue 46 §2 (T406): names are read by the grammar, not slugified; the ids are the ones the slug gave.
  it("reads display names by its grammar, dots as dashes", () => {
    const id = (cell: string) => {
      const r = readModelCell(cell, ANTHROPIC_MODEL_NAMES);
      return r.ok ? r.models.map((m) => m.id) : r.reason;
    };
    expect(id("Claude Opus 4.1")).toEqual(["claude-opus-4-1"]);
    expect(id("Claude Haiku 3")).toEqual(["claude-haiku-3"]);
  });
});

/** Every recorded copy: 2025-11-01 escapes `\$` and pads cells; the others use bare `$` — all must parse. */
const DATES = ["2025-11-01", "2025-12-01", "2026-02-01", "2026-03-01", "2026-04-01", "2026-05-01"];

describe.each(DATES)("official-anthropic %s real page", (date) => {
  const ls = listings(date);

  it("maps the Model pricing table (Claude Opus 4: 15 / 75, cache 18.75 / 30 / 1.5)", () => {
    expect(price(ls, "claude-opus-4", "input")).toEqual([15, "mtok"]);
    expect(price(ls, "claude-opus-4", "output")).toEqual([75, "mtok"]);
    expect(price(ls, "claude-opus-4", "input", { cache: "write" })).toEqual([18.75, "mtok"]);
    expect(price(ls, "claude-opus-4", "input", { cache: "write_1h" })).toEqual([30, "mtok"]);
    expect(price(ls, "claude-opus-4", "input", { cache: "read" })).toEqual([1.5, "mtok"]);
    expect(price(ls, "claude-haiku-3-5", "input")).toEqual([0.8, "mtok"]);
  });

  it("sets seller, maker, name and status; strips deprecation notes from names", () => {
    const opus41 = ls.find((l) => l.model === "claude-opus-4-1");
    expect(opus41).toMatchObject({
      seller: "anthropic",
      makerHint: "anthropic",
      name: "Claude Opus 4.1",
      status: "active",
    });
    const sonnet37 = ls.find((l) => l.model === "claude-sonnet-3-7");
    expect(sonnet37).toMatchObject({ name: "Claude Sonnet 3.7", status: "deprecated" });
    expect(ls.every((l) => /^claude-[a-z]+-\d+(-\d+)?$/.test(l.model))).toBe(true);
  });

  it("maps the Batch processing table to tier batch (Opus 4: 7.5 / 37.5)", () => {
    expect(price(ls, "claude-opus-4", "input", { tier: "batch" })).toEqual([7.5, "mtok"]);
    expect(price(ls, "claude-opus-4", "output", { tier: "batch" })).toEqual([37.5, "mtok"]);
    expect(price(ls, "claude-haiku-3", "output", { tier: "batch" })).toEqual([0.625, "mtok"]);
  });

  it("maps the web search fee ($10 per 1,000 searches) to every model", () => {
    for (const l of ls)
      expect(price(ls, l.model, "tool", { qualifiers: { tool: "web_search" } })).toEqual([10, "kcalls"]);
  });
});

// 2025-11 … 2026-02: one price pair for the models the prose names.
describe.each(["2025-11-01", "2025-12-01", "2026-02-01"])(
  "official-anthropic %s long context (prose models)",
  (date) => {
    const ls = listings(date);
    it("maps Long context pricing to contextMin 200000 for the models it names only", () => {
      for (const m of ["claude-sonnet-4", "claude-sonnet-4-5"]) {
        expect(price(ls, m, "input", { contextMin: 200000 })).toEqual([6, "mtok"]);
        expect(price(ls, m, "output", { contextMin: 200000 })).toEqual([22.5, "mtok"]);
      }
      expect(price(ls, "claude-opus-4", "input", { contextMin: 200000 })).toBeUndefined();
    });
  },
);

describe("official-anthropic long context, later layouts", () => {
  // 2026-03-01: a Model column, an Input row then a blank-model Output row per group; the Sonnet
  // group is written `Claude Sonnet 4.6 / 4.5 / 4`. The Note above names Opus 4.6 too, so reading
  // the prose (the older layout's rule) would give the Sonnets Opus's 10 / 37.5.
  it("2026-03-01: reads each model group's own pair", () => {
    const ls = listings("2026-03-01");
    expect(price(ls, "claude-opus-4-6", "input", { contextMin: 200000 })).toEqual([10, "mtok"]);
    expect(price(ls, "claude-opus-4-6", "output", { contextMin: 200000 })).toEqual([37.5, "mtok"]);
    for (const m of ["claude-sonnet-4-6", "claude-sonnet-4-5", "claude-sonnet-4"]) {
      expect(price(ls, m, "input", { contextMin: 200000 })).toEqual([6, "mtok"]);
      expect(price(ls, m, "output", { contextMin: 200000 })).toEqual([22.5, "mtok"]);
    }
    expect(price(ls, "claude-opus-4-5", "input", { contextMin: 200000 })).toBeUndefined();
  });

  // 2026-04 on: prose only ("full 1M context window at standard pricing") — no bracket is stated.
  it.each(["2026-04-01", "2026-05-01"])("%s: states no long-context bracket", (date) => {
    const ls = listings(date);
    expect(ls.flatMap((l) => l.prices).filter((p) => p.dimension.contextMin !== 0)).toEqual([]);
  });
});

// T370, T371: "Fast mode pricing" (2026-03 on) is Claude Opus 4.6's `priority` tier, one price for the
// full context window; a 2-column table naming no model, the prose above it naming the model.
describe.each(["2026-03-01", "2026-04-01", "2026-05-01"])("official-anthropic %s fast mode", (date) => {
  const ls = listings(date);

  it("reads Fast mode pricing into Opus 4.6's priority tier: 30 / 150 (6× its 5 / 25)", () => {
    expect(price(ls, "claude-opus-4-6", "input", { tier: "priority" })).toEqual([30, "mtok"]);
    expect(price(ls, "claude-opus-4-6", "output", { tier: "priority" })).toEqual([150, "mtok"]);
    expect(price(ls, "claude-opus-4-6", "input")).toEqual([5, "mtok"]);
    expect(price(ls, "claude-opus-4-6", "output")).toEqual([25, "mtok"]);
  });

  it("gives no other model a fast price, and the fast prices no bracket and no cache kind", () => {
    const fast = ls.flatMap((l) => l.prices.filter((p) => p.dimension.tier === "priority").map((p) => [l.model, p]));
    expect(fast.map(([m]) => m)).toEqual(["claude-opus-4-6", "claude-opus-4-6"]);
    for (const [, p] of fast)
      expect(p).toMatchObject({ dimension: { contextMin: 0, contextMax: null, cache: "none", qualifiers: {} } });
  });

  it("knows every column of the table (nothing counted unmapped)", () => {
    expect(Object.keys(recordedReport(officialAnthropicSource, date).unmapped)).toEqual([]);
  });
});

// The copies before Opus 4.6 (2025-11 … 2026-02) have no "Fast mode pricing" section.
it.each(["2025-11-01", "2025-12-01", "2026-02-01"])(
  "official-anthropic %s: no fast mode section, no priority price",
  (date) => {
    expect(
      listings(date)
        .flatMap((l) => l.prices)
        .filter((p) => p.dimension.tier === "priority"),
    ).toEqual([]);
  },
);

// Invented fixture (no recorded copy has it): a fast table with a Model column, read per row.
it("reads a Fast mode table with a Model column per row (invented layout)", () => {
  const page = [
    "## Model pricing",
    "| Model | Base Input Tokens | Output Tokens |",
    "|---|---|---|",
    "| Claude Opus 9 | $5 / MTok | $25 / MTok |",
    "| Claude Opus 8 | $5 / MTok | $25 / MTok |",
    "### Fast mode pricing",
    "Fast mode for Claude Opus 8 and Claude Opus 9:",
    "| Model | Input | Output |",
    "|---|---|---|",
    "| Claude Opus 9 | $10 / MTok | $50 / MTok |",
  ].join("\n");
  const ls = officialAnthropicSource.parse(payload(page));
  expect(price(ls, "claude-opus-9", "output", { tier: "priority" })).toEqual([50, "mtok"]);
  expect(price(ls, "claude-opus-8", "output", { tier: "priority" })).toBeUndefined();
});

describe("official-anthropic page changes", () => {
  it("models appear over the copies: 9, 10, 10, 12, 12, 13 rows; Opus 4.6 and Sonnet 4.6 in 2026-03, Opus 4.7 in 2026-05", () => {
    expect(DATES.map((d) => listings(d).length)).toEqual([9, 10, 10, 12, 12, 13]);
    expect(listings("2026-02-01").some((l) => l.model === "claude-opus-4-6")).toBe(false);
    expect(price(listings("2026-03-01"), "claude-sonnet-4-6", "input")).toEqual([3, "mtok"]);
    expect(price(listings("2026-05-01"), "claude-opus-4-7", "output")).toEqual([25, "mtok"]);
    expect(price(listings("2026-05-01"), "claude-opus-4-7", "input", { cache: "write_1h" })).toEqual([10, "mtok"]);
  });

  it("Claude Opus 4.5 appears on 2025-12-01 at 5 / 25", () => {
    expect(listings("2025-11-01").some((l) => l.model === "claude-opus-4-5")).toBe(false);
    const dec = listings("2025-12-01");
    expect(price(dec, "claude-opus-4-5", "input")).toEqual([5, "mtok"]);
    expect(price(dec, "claude-opus-4-5", "output")).toEqual([25, "mtok"]);
    expect(dec).toHaveLength(10);
    expect(listings("2025-11-01")).toHaveLength(9);
  });
});

describe("official-anthropic bad payloads", () => {
  it("throws SourcePayloadError when pricing.md is missing", () => {
    expect(() => officialAnthropicSource.parse(payload(null))).toThrow(/no pricing\.md/);
  });

  it("throws SourcePayloadError when the Model pricing table is missing", () => {
    expect(() => officialAnthropicSource.parse(payload("# Pricing\n\nNothing here.\n"))).toThrow(SourcePayloadError);
    expect(() => officialAnthropicSource.parse(payload("# Pricing\n\n## Model pricing\n\nSoon.\n"))).toThrow(
      /no "Model pricing" table/,
    );
  });

  // Invented fixture: a table whose rows carry no `$X / MTok` amounts.
  it("throws SourcePayloadError when no row of the table parses", () => {
    const page = [
      "## Model pricing",
      "",
      "| Model | Base Input Tokens | Output Tokens |",
      "|---|---|---|",
      "| Claude Foo 1 | contact sales | contact sales |",
    ].join("\n");
    expect(() => officialAnthropicSource.parse(payload(page))).toThrow(/no parsable row/);
  });

  // Invented fixture: an older layout without cache columns still yields input and output.
  it("parses a table without cache columns", () => {
    const page = [
      "## Model pricing",
      "| Model | Base Input Tokens | Output Tokens |",
      "|---|---|---|",
      "| Claude Haiku 9.5 | $2 / MTok | $8 / MTok |",
    ].join("\n");
    const out = officialAnthropicSource.parse(payload(page));
    expect(out.map((l) => [l.model, l.prices.map((p) => p.amount)])).toEqual([["claude-haiku-9-5", [2, 8]]]);
  });
});
