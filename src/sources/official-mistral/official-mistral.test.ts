import { describe, expect, it } from "vitest";
import { recordedPayload } from "../../../test/recorded-payloads.js";
import { officialMistralSource, snapshotNames } from "./index.js";
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

  it("one listing per snapshot id, with the file's meters (Voxtral: per minute of audio and per 1M text tokens)", () => {
    const voxtral = listing("2026-06-01", "voxtral-small-2507")!;
    expect(voxtral.prices.map((p) => [p.dimension.modality, p.unit, p.amount])).toEqual([
      ["audio", "minute", 0.004],
      ["text", "mtok", 0.1],
      ["text", "mtok", 0.3],
    ]);
    // T434, T327: the moving name is the snapshot's alias, never a listing of its own.
    expect(voxtral.aliases).toEqual(["voxtral-small-latest"]);
    expect(listing("2026-06-01", "voxtral-small-latest")).toBeUndefined();
  });

  it("a file's snapshot ids: the dated names, else the one no other name extends (T434, T327)", () => {
    // The apiNames lists of recorded files (2026-06-01 unless said).
    expect(snapshotNames(["mistral-medium-3-5", "mistral-medium-3"])).toEqual({
      snapshots: ["mistral-medium-3-5"],
      moving: ["mistral-medium-3"],
    });
    expect(snapshotNames(["mistral-medium-3.5", "mistral-medium-3"]).snapshots).toEqual(["mistral-medium-3.5"]); // 2026-05-01
    expect(snapshotNames(["codestral-embed-2505", "codestral-embed"])).toEqual({
      snapshots: ["codestral-embed-2505"],
      moving: ["codestral-embed"],
    });
    expect(snapshotNames(["codestral-embed"]).snapshots).toEqual(["codestral-embed"]); // 2025-11-01
    expect(snapshotNames(["devstral-2512", "devstral-latest", "devstral-medium-latest"]).moving).toEqual([
      "devstral-latest",
      "devstral-medium-latest",
    ]);
  });

  it("Mistral Medium 3.5 appears on 2026-05-01 at 1.5 / 7.5 (`mistral-medium-3.5`; `-3-5` from 2026-06-01)", () => {
    expect(listing("2026-04-01", "mistral-medium-3.5")).toBeUndefined();
    expect(listing("2026-05-01", "mistral-medium-3.5")?.prices.map((p) => p.amount)).toEqual([1.5, 7.5]);
    // The family name it is served under that day is its alias, not a model (T434, T327).
    expect(listing("2026-05-01", "mistral-medium-3")).toBeUndefined();
    expect(listing("2026-06-01", "mistral-medium-3-5")?.aliases).toEqual(["mistral-medium-3"]);
  });

  it("free: true is stated free (T434); OCR is per page", () => {
    const leanstral = listing("2026-06-01", "labs-leanstral-2603")!;
    expect(leanstral.statesFree).toBe(true);
    expect(leanstral.prices.map((p) => p.amount)).toEqual([0, 0]);
    expect(listing("2026-06-01", "mistral-ocr-2512")?.prices.map((p) => [p.unit, p.amount])).toEqual([["page", 0.002]]);
  });

  it("a moving name two files name is the active, newest file's alias (mistral-small-latest, 2026-04-01)", () => {
    const small4 = listing("2026-04-01", "mistral-small-2603")!;
    const small32 = listing("2026-04-01", "mistral-small-2506")!;
    expect(small4.prices.map((p) => p.amount)).toEqual([0.15, 0.6]);
    expect(small4.aliases).toEqual(["mistral-small-latest"]);
    expect(small32.prices.map((p) => p.amount)).toEqual([0.1, 0.3]);
    expect(small32.aliases ?? []).not.toContain("mistral-small-latest");
  });
});
