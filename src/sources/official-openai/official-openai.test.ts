import { describe, expect, it } from "vitest";
import { fakePayloads } from "../../../test/payloads/official-openai.js";
import {
  liveUrls,
  onlyListing,
  payloadOf,
  priceIn,
  recordedAdapter,
  recordedPayload,
} from "../../../test/recorded-payloads.js";
import type { Dimension } from "../../domain/dimension.js";
import type { Listing } from "../../domain/observation.js";
import { SourcePayloadError } from "../source.js";
import { officialOpenaiSource } from "./index.js";

const { listings } = recordedAdapter(officialOpenaiSource);
const price = (
  ls: readonly Listing[],
  model: string,
  direction: Dimension["direction"],
  partial: Partial<Omit<Dimension, "direction">> = {},
) => priceIn(onlyListing(ls, "openai", model), direction, partial);
const page = (date: string) => recordedPayload("official-openai", date).files.get("pricing.md") as string;
const parseText = (text: string) =>
  officialOpenaiSource.parse(payloadOf({ "pricing.md": text }, "2026-06-01T00:00:00.000Z"));

it("fetches its live payload from the pricing page's Markdown twin (issue 35 §1)", () => {
  expect(liveUrls(officialOpenaiSource)).toEqual(["https://developers.openai.com/api/docs/pricing.md"]);
  expect(officialOpenaiSource.info).toMatchObject({ license: null, weight: 1, authoritativeFor: ["openai"] });
});

describe("official-openai 2026-06-01 real page (TextTokenPricingTables)", () => {
  const ls = listings("2026-06-01");

  it("reads every tier's rows: 42 standard, 40 batch, 13 flex, 15 priority", () => {
    const rows = (tier: Dimension["tier"]) =>
      ls.filter((l) => l.prices.some((p) => p.dimension.tier === tier && p.dimension.direction === "output")).length;
    expect([rows("standard"), rows("batch"), rows("flex"), rows("priority")]).toEqual([42, 40, 13, 15]);
    expect(ls.every((l) => l.seller === "openai" && l.makerHint === "openai")).toBe(true);
  });

  it("maps input, cached input and output (gpt-5.4-mini: 0.75 / 0.075 / 4.5)", () => {
    expect(price(ls, "gpt-5.4-mini", "input")).toEqual([0.75, "mtok"]);
    expect(price(ls, "gpt-5.4-mini", "input", { cache: "read" })).toEqual([0.075, "mtok"]);
    expect(price(ls, "gpt-5.4-mini", "output")).toEqual([4.5, "mtok"]);
  });

  it("maps the tier of the pane (gpt-5.4 batch 1.25 / 0.13 / 7.5)", () => {
    expect(price(ls, "gpt-5.4", "input", { tier: "batch" })).toEqual([1.25, "mtok"]);
    expect(price(ls, "gpt-5.4", "input", { tier: "batch", cache: "read" })).toEqual([0.13, "mtok"]);
    expect(price(ls, "gpt-5.4", "output", { tier: "batch" })).toEqual([7.5, "mtok"]);
  });

  it("reads the `(<272K context length)` suffix as the base bracket of the model it names", () => {
    expect(price(ls, "gpt-5.5", "input")).toEqual([5, "mtok"]);
    expect(price(ls, "gpt-5.5", "output")).toEqual([30, "mtok"]);
    expect(ls.some((l) => l.model.includes("("))).toBe(false);
    expect(
      ls.flatMap((l) => l.prices).every((p) => p.dimension.contextMin === 0 && p.dimension.contextMax === null),
    ).toBe(true);
  });

  it('publishes no price for "", "-" and null cells — never 0', () => {
    expect(price(ls, "gpt-5.5-pro", "input", { cache: "read" })).toBeUndefined(); // ""
    expect(price(ls, "gpt-5.2-pro", "input", { cache: "read" })).toBeUndefined(); // "-"
    expect(price(ls, "gpt-5-pro", "input", { cache: "read" })).toBeUndefined(); // null
    expect(price(ls, "gpt-5-pro", "output")).toEqual([120, "mtok"]);
    expect(ls.flatMap((l) => l.prices).some((p) => p.amount === 0)).toBe(false);
  });
});

describe("official-openai 2026-03-01 real page (empty text-token panes)", () => {
  it('fails with "no text-token prices", never zeros', () => {
    expect(() => officialOpenaiSource.parse(recordedPayload("official-openai", "2026-03-01"))).toThrow(
      SourcePayloadError,
    );
    expect(() => officialOpenaiSource.parse(recordedPayload("official-openai", "2026-03-01"))).toThrow(
      /states no text-token prices/,
    );
  });
});

describe("official-openai bad payloads", () => {
  it("throws when pricing.md is missing", () => {
    expect(() => officialOpenaiSource.parse(payloadOf({}, "2026-06-01T00:00:00.000Z"))).toThrow(/no pricing\.md/);
  });

  it("the fault fixtures fail the page: emptied panes, truncated, a moved page", () => {
    const text = page("2026-06-01");
    expect(() => parseText(fakePayloads.empty("pricing.md", text))).toThrow(/states no text-token prices/);
    expect(() => parseText(fakePayloads.truncate?.(text) ?? "")).toThrow(SourcePayloadError);
    expect(() => parseText(JSON.stringify(fakePayloads.wrongShape))).toThrow(/states no text-token prices/);
  });

  // Edited from the real page: a fifth value per row (a component version the field map does not know).
  it("fails a row of another length instead of reading it by position", () => {
    const text = page("2026-06-01").replace(
      '["gpt-5.4-mini", 0.75, 0.075, 4.5]',
      '["gpt-5.4-mini", 0.75, 0.075, 1, 4.5]',
    );
    expect(() => parseText(text)).toThrow(
      /row "gpt-5.4-mini" has 4 prices; the pane's columns are 3 \(Input, Cached input, Output\), TextTokenPricingTables's own, the pane gives no header/,
    );
  });

  // Edited from the real page (issue 46 §1, T405): the standard pane gives its header and gains a
  // cache-write column before output, "-" for the models without one. Read by the header: every price
  // the page stated is read as before, the new column as cache write, "-" as not offered.
  it("reads a pane by the header it gives: a cache-write column added before output", () => {
    const original = page("2026-06-01");
    const start = original.indexOf('tier="standard"');
    const end = original.indexOf("]}", start);
    const pane = original
      .slice(start, end)
      .replace(/\["([^"]+)", ([^,\]]+), ([^,\]]+), ([^,\]]+)\]/g, (_, m, i, c, o) =>
        m === "gpt-5.4-mini" ? `["${m}", ${i}, ${c}, 0.9, ${o}]` : `["${m}", ${i}, ${c}, "-", ${o}]`,
      );
    const text = `${original.slice(0, start)}columns={["Model", "Input", "Cached input", "Cache writes", "Output"]}\n        ${pane}${original.slice(end)}`;
    const ls = parseText(text);
    expect(price(ls, "gpt-5.4-mini", "input", { cache: "write" })).toEqual([0.9, "mtok"]);
    expect(price(ls, "gpt-5.4-mini", "output")).toEqual([4.5, "mtok"]);
    expect(price(ls, "gpt-5.4", "input", { cache: "write" })).toBeUndefined();
    const before = listings("2026-06-01");
    const amounts = (l: readonly Listing[]) =>
      l
        .flatMap((x) =>
          x.prices
            .filter((p) => p.dimension.cache !== "write")
            .map((p) => `${x.model} ${JSON.stringify(p.dimension)} ${p.amount}`),
        )
        .sort();
    expect(amounts(ls)).toEqual(amounts(before));
  });

  // Edited from the real page: an unknown tier attribute.
  it("fails an unknown tier", () => {
    const text = page("2026-06-01").replace('tier="flex"', 'tier="scale"');
    expect(() => parseText(text)).toThrow(/unknown tier "scale"/);
  });
});
