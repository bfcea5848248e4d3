import { describe, expect, it } from "vitest";
import { alignsWithWords, matchesAll, matchRank, parseTextQuery, searchField } from "./text-match.js";

// Issue 50 §2, T451: within a D10 rank, a query whose tokens start at words goes first. The names
// are real catalogue names (bundled replay, 2026-06-01).
const fields = (...texts: string[]) => texts.map(searchField);

describe("alignsWithWords (T451)", () => {
  const gpt4o = parseTextQuery("gpt 4o")!;

  it('"gpt 4o" starts at words of GPT-4o mini, inside a word of GPT-4 older (same D10 rank)', () => {
    const mini = fields("gpt-4o-mini", "GPT-4o mini");
    const older = fields("gpt-4-0314", "GPT-4 older v0314");
    expect(matchesAll(gpt4o, older)).toBe(true);
    expect(matchRank(gpt4o, older)).toBe(matchRank(gpt4o, mini));
    expect(alignsWithWords(gpt4o, mini)).toBe(true);
    expect(alignsWithWords(gpt4o, older)).toBe(false);
  });

  it("a token may be whole consecutive words (3.3, claude 3.5) or a word's start (son)", () => {
    const llama = parseTextQuery("llama 3.3 70b")!;
    expect(alignsWithWords(llama, fields("llama-3.3-70b-instruct", "Llama 3.3 70B Instruct"))).toBe(true);
    // "3.33" has the word 33: aligned too; Meta's model leads it as the maker's (model-query).
    expect(alignsWithWords(llama, fields("eva-llama-3.33-70b", "EVA Llama 3.33 70B"))).toBe(true);
    const claude = parseTextQuery("Claude 3.5")!;
    expect(alignsWithWords(claude, fields("claude-3-5-sonnet-20241022", "Claude Sonnet 3.5 v2"))).toBe(true);
    expect(alignsWithWords(parseTextQuery("son")!, fields("claude-sonnet-4-5", "Claude Sonnet 4.5"))).toBe(true);
    // "3.5" ending inside "35b" is not on its words.
    expect(alignsWithWords(parseTextQuery("qwen 3.5")!, fields("qwen3-235b-a22b", "Qwen3 235B A22B"))).toBe(false);
  });
});
