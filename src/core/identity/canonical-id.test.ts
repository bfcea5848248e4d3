import { describe, expect, it } from "vitest";
import { recordedListings } from "../../../test/recorded-payloads.js";
import { EMPTY_LISTING_META, type Listing } from "../../domain/observation.js";
import { idFlaw, screenIds, skeleton } from "./canonical-id.js";
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
      { source: "models-dev", listings: [listing("gpt-4o", "openai")] },
      { source: "openrouter", listings: [listing("openai/gpt-4o"), ...LOOKALIKES.map(([id]) => listing(id))] },
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
