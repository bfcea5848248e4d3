import { describe, expect, it } from "vitest";
import { MakerCatalogue } from "./catalogue.js";
import { keyOf } from "./spelling.js";

/**
 * One maker's models and the readings that name them (issue 12 T63), with the makers' own ids of
 * the recorded runs (the comment names source, seller and run). Unit tests: no replay.
 */

/** A catalogue holding each `[spelling, slug]` under the spelling's comparison key. */
function catalogue(models: readonly (readonly [spelling: string, slug: string])[]): MakerCatalogue {
  const c = new MakerCatalogue();
  for (const [spelling, slug] of models) c.add(keyOf(spelling), slug);
  return c;
}

describe("MakerCatalogue.find: the most exact reading that names one model", () => {
  // models-dev anthropic 2026-06-01: a snapshot and the undated alias that repeats its prices
  const anthropic = catalogue([
    ["claude-opus-4-20250514", "claude-opus-4-0"],
    ["claude-opus-4-0", "claude-opus-4-0"],
    ["claude-sonnet-4-5", "claude-sonnet-4-5"],
    ["claude-sonnet-4-5-20250929", "claude-sonnet-4-5"],
  ]);

  it("the key itself", () => {
    expect(anthropic.find(keyOf("claude-opus-4-20250514"))).toBe("claude-opus-4-0");
    expect(anthropic.exactly(keyOf("claude-opus-4-0"))).toBe("claude-opus-4-0");
  });

  it("word order (litellm replicate anthropic/claude-4.5-sonnet 2026-06-01)", () => {
    expect(anthropic.exactly(keyOf("claude-4.5-sonnet"))).toBeUndefined();
    expect(anthropic.find(keyOf("claude-4.5-sonnet"))).toBe("claude-sonnet-4-5");
  });

  it("the base, snapshot markers off (openrouter anthropic/claude-opus-4, litellm vertex claude-opus-4)", () => {
    expect(anthropic.find(keyOf("claude-opus-4"))).toBe("claude-opus-4-0");
  });

  it("a reading that drops a snapshot date is tried only when asked to (deepseek-r1-0528 is no deepseek-r1)", () => {
    // litellm deepseek 2026-06-01 lists deepseek-r1; openrouter deepseek/deepseek-r1-0528 is another model
    const deepseek = catalogue([["deepseek-r1", "deepseek-r1"]]);
    expect(deepseek.find(keyOf("deepseek-r1-0528"))).toBe("deepseek-r1");
    expect(deepseek.find(keyOf("deepseek-r1-0528"), false)).toBeUndefined();
    // an undated key has nothing to drop: the other readings still apply
    expect(deepseek.find(keyOf("r1-deepseek"), false)).toBe("deepseek-r1");
  });

  it("the loose form, -instruct and the like off (litellm azure Llama-3.3-70B-Instruct, portkey groq llama-3.3-70b-versatile)", () => {
    const meta = catalogue([["Llama-3.3-70B-Instruct", "llama-3.3-70b-instruct"]]);
    expect(meta.find(keyOf("llama-3.3-70b-versatile"))).toBe("llama-3.3-70b-instruct");
    expect(meta.find(keyOf("llama-3.3-8b-versatile"))).toBeUndefined();
  });

  it("the same date token and family (models-dev moonshotai kimi-k2-0905-preview, litellm fireworks-ai kimi-k2-instruct-0905)", () => {
    const moonshot = catalogue([
      ["kimi-k2-0905-preview", "kimi-k2-0905-preview"],
      ["kimi-k2-0711-preview", "kimi-k2-0711-preview"],
    ]);
    expect(moonshot.find(keyOf("kimi-k2-instruct-0905"))).toBe("kimi-k2-0905-preview");
    expect(moonshot.find(keyOf("kimi-k2-instruct-0711"))).toBe("kimi-k2-0711-preview");
  });

  it("nothing that names no model (litellm amazon-bedrock anthropic.claude-mythos-preview 2026-06-01)", () => {
    expect(anthropic.find(keyOf("claude-mythos-preview"))).toBeUndefined();
  });
});

describe("MakerCatalogue: several models for one reading", () => {
  // The makers' own ids of the 2026-06-01 run (genai-prices mistral lists the undated
  // mistral-large beside its snapshots; models-dev groq 2025-07-01 llama-3.3-70b-versatile,
  // models-dev llama llama-3.3-70b-instruct); `llama-3.3-70b-it` is an invented reading of both.
  it.each([
    {
      rule: "the model holding an undated key wins",
      models: ["mistral-large-2407", "mistral-large-2411", "mistral-large=mistral-large-2411"],
      reading: "mistral-large-latest",
      found: "mistral-large-2411",
    },
    {
      rule: "all dated snapshots of one base: the newest",
      models: ["mistral-large-2402", "mistral-large-2407", "mistral-large-2512"],
      reading: "mistral-large-latest",
      found: "mistral-large-2512",
    },
    {
      rule: "two undated models for one reading: none (ambiguous is no match)",
      models: ["llama-3.3-70b-versatile", "llama-3.3-70b-instruct"],
      reading: "llama-3.3-70b-it",
      found: undefined,
    },
  ])("$rule: $reading → $found", ({ models, reading, found }) => {
    // `spelling=slug`, or a spelling that is its own slug
    const c = catalogue(models.map((m) => [m.split("=")[0]!, m.split("=").at(-1)!] as const));
    expect(c.find(keyOf(reading))).toBe(found);
  });

  it("the first slug a key names keeps it (an invented second claim on gpt-4o, for the rule)", () => {
    const c = catalogue([
      ["gpt-4o", "gpt-4o"],
      ["gpt-4o", "gpt-4o-2024-08-06"],
    ]);
    expect(c.exactly("gpt-4o")).toBe("gpt-4o");
    expect(c.slugs().sort()).toEqual(["gpt-4o", "gpt-4o-2024-08-06"]);
    expect([...(c.keysOf.get("gpt-4o-2024-08-06") ?? [])]).toEqual(["gpt-4o"]);
  });
});

describe("MakerCatalogue display names", () => {
  it("a name one model carries names it; a name two carry names neither; short names never", () => {
    // normalized names as resolve.ts's normalizeName gives them; the second claim on each is invented
    const c = new MakerCatalogue();
    c.addName("deepseekv32", "deepseek-v3.2");
    c.addName("deepseekv32", "deepseek-v3.2");
    c.addName("deepseekchat", "deepseek-chat");
    c.addName("deepseekchat", "deepseek-v3");
    c.addName("r1", "deepseek-r1");
    expect(c.byName("deepseekv32")).toBe("deepseek-v3.2");
    expect(c.byName("deepseekchat")).toBeUndefined();
    expect(c.byName("r1")).toBeUndefined();
  });
});
