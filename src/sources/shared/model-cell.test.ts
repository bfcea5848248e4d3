import { describe, expect, it } from "vitest";
import { recordedPayload } from "../../../test/recorded-payloads.js";
import { ANTHROPIC_MODEL_NAMES } from "../official-anthropic/model-names.js";
import { MOONSHOT_MODEL_NAMES } from "../official-moonshot/model-names.js";
import { OPENAI_MODEL_NAMES } from "../official-openai/model-names.js";
import { pageDay, readModelCell } from "./model-cell.js";

// Issue 46 §2 (T406): a model cell is read by a grammar, never slugified.
const anthropic = (cell: string) => readModelCell(cell, ANTHROPIC_MODEL_NAMES);

describe("the grammar's rules, each on the recorded copy it names", () => {
  for (const grammar of [ANTHROPIC_MODEL_NAMES, OPENAI_MODEL_NAMES, MOONSHOT_MODEL_NAMES])
    for (const rule of grammar.rules)
      it(`${grammar.maker}: ${rule.pattern.source} reads "${rule.example.cell}" of ${rule.example.source} ${rule.example.date}`, () => {
        // The copy's one page (`pricing.md`; Moonshot's `pricing-chat.zh-cn.md`).
        const text = [...recordedPayload(rule.example.source, rule.example.date).files.values()].join("\n");
        expect(text).toContain(rule.example.cell);
        const read = readModelCell(rule.example.cell, grammar);
        expect(read).toMatchObject({ ok: true, models: [{ id: rule.example.id }] });
      });
});

describe("model cells", () => {
  it("strips a deprecation note with a relative or absolute link, and marks the row deprecated", () => {
    for (const link of [
      "/docs/en/about-claude/model-deprecations",
      "https://platform.claude.com/docs/en/about-claude/model-deprecations",
    ])
      expect(anthropic(`Claude Sonnet 3.7 ([deprecated](${link}))`)).toEqual({
        ok: true,
        models: [{ name: "Claude Sonnet 3.7", id: "claude-sonnet-3-7" }],
        deprecated: true,
        dated: null,
      });
  });

  it("strips footnote marks, links and (introductory)", () => {
    expect(anthropic("[Claude Opus 4.7](/docs/models)<sup>1</sup> (introductory)")).toMatchObject({
      ok: true,
      models: [{ id: "claude-opus-4-7" }],
      dated: null,
    });
  });

  it("fans out several models in one cell, and a family list", () => {
    const ids = (cell: string) => {
      const r = anthropic(cell);
      return r.ok ? r.models.map((m) => m.id) : r.reason;
    };
    expect(ids("Claude Opus 4.6 / Claude Opus 4.7")).toEqual(["claude-opus-4-6", "claude-opus-4-7"]);
    expect(ids("Claude Sonnet 4.6 / 4.5 / 4")).toEqual(["claude-sonnet-4-6", "claude-sonnet-4-5", "claude-sonnet-4"]);
  });

  it.each([
    ["Claude Opus 4.7 [through June 30, 2026]", { kind: "until", day: "2026-07-01" }],
    ["Claude Opus 4.7 through 2026-06-30", { kind: "until", day: "2026-07-01" }],
    ["Claude Opus 4.7 (until July 1, 2026)", { kind: "until", day: "2026-07-01" }],
    ["Claude Opus 4.7 starting July 1, 2026", { kind: "from", day: "2026-07-01" }],
    ["Claude Opus 4.7 (starting January 1, 2027)", { kind: "from", day: "2027-01-01" }],
    ["Claude Opus 4.7 from 1 July 2026", { kind: "from", day: "2026-07-01" }],
    ["Claude Opus 4.7 (effective Jul. 1st, 2026)", { kind: "from", day: "2026-07-01" }],
    ["Claude Opus 4.7 (introductory, through June 30, 2026)", { kind: "until", day: "2026-07-01" }],
  ])("%s → %j", (cell, dated) => {
    expect(anthropic(cell)).toMatchObject({ ok: true, models: [{ id: "claude-opus-4-7" }], dated });
  });

  it("a name the grammar does not know is unmatched with its reason, never a model", () => {
    expect(anthropic("Claude Foo 1")).toEqual({
      ok: false,
      reason: '"Claude Foo 1" is no anthropic model name (no rule of the grammar)',
    });
    expect(readModelCell("gpt-4o (starting soon)", OPENAI_MODEL_NAMES)).toMatchObject({ ok: false });
    expect(anthropic("Claude Opus 4.7 through next summer")).toMatchObject({ ok: false });
  });

  it("another maker's model is unmatched: a page lists only its maker's models", () => {
    expect(anthropic("GPT-4o")).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^another maker's model \(openai/),
    });
    expect(anthropic("Gemini 2.5 Pro")).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/another maker's model \(google/),
    });
    expect(readModelCell("Claude Opus 4.1", OPENAI_MODEL_NAMES)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/another maker's model \(anthropic/),
    });
  });

  it("an id holding a date is a name, not a dated note", () => {
    expect(readModelCell("gpt-4o-2024-05-13", OPENAI_MODEL_NAMES)).toMatchObject({
      ok: true,
      models: [{ id: "gpt-4o-2024-05-13" }],
      dated: null,
    });
  });

  it("reads calendar days, refuses impossible ones", () => {
    expect(pageDay("February 29, 2028")).toBe("2028-02-29");
    expect(pageDay("February 30, 2027")).toBeNull();
    expect(pageDay("Sept 3, 2026")).toBe("2026-09-03");
  });
});
