import { describe, expect, it } from "vitest";
import { summarizeLog } from "./usage-log-summary.js";

// T348: a usage log read in the browser is summed as `tariff cost` reads its records (src/domain/usage.ts,
// T211): token fields, usage objects of each provider, whole responses. The records are invented, in
// the providers' shapes, worked by hand.

describe("a usage log summed for the calculator (T348)", () => {
  it("sums token fields and usage objects into exclusive counts, over the days the log spans", () => {
    const log = [
      JSON.stringify({
        timestamp: "2026-06-01T08:00:00Z",
        model: "openai/gpt-5",
        inputTokens: 1000,
        outputTokens: 100,
      }),
      // OpenAI Chat: prompt_tokens includes the cached tokens.
      JSON.stringify({
        created: Date.parse("2026-06-02T09:00:00Z") / 1000,
        model: "gpt-5",
        usage: { prompt_tokens: 5000, completion_tokens: 300, prompt_tokens_details: { cached_tokens: 2000 } },
      }),
      // Anthropic: input_tokens excludes the cache reads and writes.
      JSON.stringify({
        time: "2026-06-03T23:59:00Z",
        usage: { input_tokens: 400, cache_read_input_tokens: 600, cache_creation_input_tokens: 50, output_tokens: 70 },
      }),
      "not json",
      JSON.stringify({ timestamp: "2026-06-02T00:00:00Z", note: "no usage here" }),
      "",
    ].join("\n");
    expect(summarizeLog(log)).toEqual({
      records: 3,
      unreadable: 2,
      days: 3,
      totals: { input: 1000 + 3000 + 400, cached: 2000 + 600, write: 50, output: 100 + 300 + 70, reasoning: 0 },
    });
  });

  it("a JSON array is a log too; records without a time give no day count", () => {
    const summary = summarizeLog(
      JSON.stringify([{ inputTokens: 10 }, { usage: { input_tokens: 5, output_tokens: 1 } }]),
    );
    expect(summary).toMatchObject({ records: 2, unreadable: 0, days: null });
    expect(summary.totals).toMatchObject({ input: 15, output: 1 });
  });

  it("a record whose parts exceed their total is not read (the same error as /cost's, T211)", () => {
    const summary = summarizeLog(
      JSON.stringify({
        usage: { prompt_tokens: 10, completion_tokens: 1, prompt_tokens_details: { cached_tokens: 20 } },
      }),
    );
    expect(summary).toMatchObject({ records: 0, unreadable: 1 });
  });
});
