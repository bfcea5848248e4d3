import { describe, expect, it } from "vitest";
import { recordedListings } from "../../../test/recorded-payloads.js";
import { EMPTY_LISTING_META, type Listing } from "../../domain/observation.js";
import { idFlaw, knownSpellingsOf, screenIds, skeleton } from "./canonical-id.js";
import { resolveIdentities } from "./resolve.js";

// Issue 33 §3 (T254, T255). The recorded payloads hold no lookalike id, so the lookalikes are
// invented here (each a real id of the recorded runs with one character changed); the check that
// no real listing is refused reads every source's recorded June payload.

const listing = (model: string, seller = "openrouter"): Listing => ({
  ...EMPTY_LISTING_META,
  seller,
  model,
  prices: [],
});

/** Ten lookalikes of `openai/gpt-4o` and why each is refused. */
const LOOKALIKES: readonly (readonly [string, RegExp])[] = [
  ["openai/gpt\u200b-4o", /format character/], // zero-width space
  ["openai/gpt-4o\u202e", /format character/], // right-to-left override
  ["openai/\u2066gpt-4o\u2069", /format character/], // bidi isolate
  ["openai/gpt-4o\ufeff", /format character/], // byte-order mark
  ["openai/gpt\u00ad-4o", /format character/], // soft hyphen
  ["openai/ｇｐｔ-4o", /NFKC/], // full-width letters
  ["openai/gpt-４o", /NFKC/], // full-width digit
  ["openai/gpt-4\u043e", /lookalike of openai\/gpt-4o/], // Cyrillic о
  ["openai/g\u0440t-4o", /lookalike of openai\/gpt-4o/], // Cyrillic р
  ["openai/gpt-4\u03bf", /lookalike of openai\/gpt-4o/], // Greek omicron
];

describe("idFlaw", () => {
  it.each([
    ["gpt-4o\u0000", /control character/],
    ["gpt-4o\ufffd", /control character/],
    ["gpt-4o\u0085", /control character/],
    ["gpt-4o\ud800", /control character/],
    ["gpt\u200d4o", /format character/],
    ["ｇｐｔ", /NFKC/],
  ])("%j is refused", (id, reason) => {
    expect(idFlaw(id)).toMatch(reason);
  });

  it.each(["gpt-4o", "anthropic.claude-3-5-sonnet-20240620-v1:0", "qwen/qwen-2.5-72b-instruct", "模型-1"])(
    "%s is canonical",
    (id) => {
      expect(idFlaw(id)).toBeNull();
    },
  );
});

describe("skeleton", () => {
  it("folds homoglyphs, full-width forms and invisible characters onto the Latin id", () => {
    for (const [id] of LOOKALIKES) expect(skeleton(id)).toBe("openai/gpt-4o");
    expect(skeleton("openai/gpt-4o-mini")).not.toBe("openai/gpt-4o");
  });
});

describe("screenIds", () => {
  it("refuses the ten lookalikes of gpt-4o, each with its reason, and keeps the real one", () => {
    const inputs = [
      { source: "models-dev" as const, listings: [listing("gpt-4o", "openai")] },
      { source: "openrouter" as const, listings: [listing("openai/gpt-4o"), ...LOOKALIKES.map(([id]) => listing(id))] },
    ];
    const { inputs: kept, refused } = screenIds(inputs);
    expect(kept.flatMap((i) => i.listings.map((l) => l.model))).toEqual(["gpt-4o", "openai/gpt-4o"]);
    expect(refused.map((r) => r.listing.model)).toEqual(LOOKALIKES.map(([id]) => id));
    for (const [i, [, reason]] of LOOKALIKES.entries()) expect(refused[i]!.reason).toMatch(reason);
  });

  it("identity counts every refused listing unmatched with its reason, and places none", () => {
    const result = resolveIdentities([
      { source: "models-dev", makerSpellings: true, listings: [listing("gpt-4o", "openai")] },
      { source: "openrouter", listings: LOOKALIKES.map(([id]) => listing(id)) },
    ]);
    expect(result.resolved.map((r) => r.modelId)).toEqual(["openai/gpt-4o"]);
    expect(result.unresolved.get("openrouter")).toBe(LOOKALIKES.length);
    expect(result.unmatched.map((u) => u.model).sort()).toEqual(LOOKALIKES.map(([id]) => id).sort());
  });

  it("refuses no listing of the recorded June payloads", () => {
    const { refused } = screenIds(recordedListings("2026-06-01"));
    expect(refused.map((r) => `${r.source} ${r.listing.seller} ${r.listing.model}: ${r.reason}`)).toEqual([]);
  });
});

describe("screenIds across runs (T316)", () => {
  it("refuses a lookalike of the previous version's ids, aliases and former ids, listed this run or not (T316)", () => {
    // Invented previous version: the model, a tombstone, an alias and a former id of another maker's.
    const model = (id: string, extra: { aliases?: string[]; formerIds?: string[] } = {}) => ({
      id,
      provider: id.split("/")[0]!,
      aliases: extra.aliases ?? [],
      formerIds: extra.formerIds ?? [],
    });
    const known = knownSpellingsOf([
      model("openai/gpt-4o", { aliases: ["gpt-4o-latest-alias"] }),
      model("acme/widget-1", { formerIds: ["acme/widget-one"] }),
      model("openai/\u0433pt-x"), // a non-ASCII id of an earlier Tariff: judges nothing
    ]);
    expect(known.map((k) => k.spelling)).toEqual([
      "openai/gpt-4o",
      "gpt-4o-latest-alias",
      "acme/widget-1",
      "acme/widget-one",
    ]);
    const run = [
      "openai/gpt-4\u043e", // the id, not listed this run
      "openai/gpt-4o-l\u0430test-alias", // the alias, under the model's maker
      "acme/w\u0456dget-1", // a publisher's id
      "acme/widget-\u043ene", // a former id
      "other/gpt-4\u043e", // another organisation: no twin
      "openai/模型-1", // another script, no twin
    ];
    const { inputs: kept, refused } = screenIds(
      [{ source: "openrouter", listings: run.map((id) => listing(id)) }],
      known,
    );
    expect(Object.fromEntries(refused.map((r) => [r.listing.model, r.reason]))).toEqual({
      "openai/gpt-4\u043e":
        "model id is a lookalike of openai/gpt-4o, published in the previous version (homoglyphs of another script)",
      "openai/gpt-4o-l\u0430test-alias":
        "model id is a lookalike of openai/gpt-4o, published in the previous version (homoglyphs of another script)",
      "acme/w\u0456dget-1":
        "model id is a lookalike of acme/widget-1, published in the previous version (homoglyphs of another script)",
      "acme/widget-\u043ene":
        "model id is a lookalike of acme/widget-1, published in the previous version (homoglyphs of another script)",
    });
    expect(kept[0]!.listings.map((l) => l.model)).toEqual(["other/gpt-4\u043e", "openai/模型-1"]);
    // Without the previous version (a first run), nothing in the run is their twin.
    expect(screenIds([{ source: "openrouter", listings: run.map((id) => listing(id)) }]).refused).toEqual([]);
    // The run's own plain twin is named first.
    const both = screenIds(
      [{ source: "openrouter", listings: [listing("openai/gpt-4o"), listing("openai/gpt-4\u043e")] }],
      known,
    );
    expect(both.refused.map((r) => r.reason)).toEqual([
      "model id is a lookalike of openai/gpt-4o (homoglyphs of another script)",
    ]);
  });

  it("identity takes the previous version's spellings from its memory (T316)", () => {
    const knownSpellings = knownSpellingsOf([{ id: "acme/widget-1", provider: "acme", aliases: [], formerIds: [] }]);
    const result = resolveIdentities([{ source: "openrouter", listings: [listing("acme/w\u0456dget-1")] }], {
      knownSpellings,
    });
    expect(result.resolved).toEqual([]);
    expect(result.unmatched.map((u) => u.reason)).toEqual([
      "model id is a lookalike of acme/widget-1, published in the previous version (homoglyphs of another script)",
    ]);
  });
});
