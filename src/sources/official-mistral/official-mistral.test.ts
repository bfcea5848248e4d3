import { describe, expect, it } from "vitest";
import { recordedPayload } from "../../../test/recorded-payloads.js";
import { officialMistralSource } from "./index.js";
import { literalAfterKey, readObjectLiteral } from "./object-literal.js";

// Issue 48 §1–§3 (T430, T434): Mistral's model files, read as literals, never evaluated.
describe("the object-literal reader", () => {
  it("reads unquoted keys, single quotes and trailing commas", () => {
    const text =
      "  pricing: {\n    free: false,\n    input: [ { type: 'range', price: 0.4, denominator: '/M Tokens' }, ],\n  },";
    expect(readObjectLiteral(literalAfterKey(text, "pricing")!)).toEqual({
      free: false,
      input: [{ type: "range", price: 0.4, denominator: "/M Tokens" }],
    });
  });

  it("a call or an identifier value is not a plain literal: null, nothing evaluated", () => {
    expect(readObjectLiteral("{ description: l.text(`x`) }")).toBeNull();
    expect(readObjectLiteral("{ price: PRICE }")).toBeNull();
  });
});

describe("official-mistral", () => {
  const listing = (date: string, model: string) =>
    officialMistralSource.parse(recordedPayload("official-mistral", date)).find((l) => l.model === model);

  it("one listing per API id, with the file's meters (Voxtral: per minute of audio and per 1M text tokens)", () => {
    const voxtral = listing("2026-06-01", "voxtral-small-2507")!;
    expect(voxtral.prices.map((p) => [p.dimension.modality, p.unit, p.amount])).toEqual([
      ["audio", "minute", 0.004],
      ["text", "mtok", 0.1],
      ["text", "mtok", 0.3],
    ]);
    expect(listing("2026-06-01", "voxtral-small-latest")?.prices).toEqual(voxtral.prices);
  });

  it("Mistral Medium 3.5 appears on 2026-05-01 at 1.5 / 7.5 (`mistral-medium-3.5`; `-3-5` from 2026-06-01)", () => {
    expect(listing("2026-04-01", "mistral-medium-3")).toBeUndefined();
    expect(listing("2026-05-01", "mistral-medium-3.5")?.prices.map((p) => p.amount)).toEqual([1.5, 7.5]);
  });

  it("free: true is stated free (T434); OCR is per page", () => {
    const leanstral = listing("2026-06-01", "labs-leanstral-2603")!;
    expect(leanstral.statesFree).toBe(true);
    expect(leanstral.prices.map((p) => p.amount)).toEqual([0, 0]);
    expect(listing("2026-06-01", "mistral-ocr-2512")?.prices.map((p) => [p.unit, p.amount])).toEqual([["page", 0.002]]);
  });

  it("an id two files name takes the active, newest file's prices (mistral-small-latest, 2026-04-01)", () => {
    expect(listing("2026-04-01", "mistral-small-latest")?.prices.map((p) => p.amount)).toEqual([0.15, 0.6]);
    expect(listing("2026-04-01", "mistral-small-2506")?.prices.map((p) => p.amount)).toEqual([0.1, 0.3]);
  });
});
