import { describe, expect, it } from "vitest";
import { parseUsageObject } from "./usage-object.js";

// T277: the calculator's paste box reads a usage object as `tariff cost` and `/cost?usage=` do
// (src/domain/usage.ts, T211). The objects have the shapes of the providers' API references (the
// counts are invented, worked out by hand); the OpenTelemetry and over-total cases are what the
// calculator's own reading got wrong or did not read before it reused the domain's.

describe("the calculator's usage paste (T277)", () => {
  it("reads each provider's convention into one request's exclusive counts", () => {
    const cases: [object, string, [number, number, number, number, number]][] = [
      [
        { usage: { prompt_tokens: 12000, completion_tokens: 2000, prompt_tokens_details: { cached_tokens: 2000 } } },
        "openai-chat",
        [10000, 2000, 0, 2000, 0],
      ],
      [
        { input_tokens: 500, output_tokens: 90, output_tokens_details: { reasoning_tokens: 40 } },
        "openai-responses",
        [500, 0, 0, 50, 40],
      ],
      [
        { input_tokens: 30, cache_read_input_tokens: 1000, cache_creation_input_tokens: 200, output_tokens: 70 },
        "anthropic",
        [30, 1000, 200, 70, 0],
      ],
      [
        {
          usageMetadata: {
            promptTokenCount: 900,
            cachedContentTokenCount: 600,
            candidatesTokenCount: 80,
            thoughtsTokenCount: 20,
          },
        },
        "gemini",
        [300, 600, 0, 80, 20],
      ],
      [
        {
          "gen_ai.usage.input_tokens": 1200,
          "gen_ai.usage.cache_read.input_tokens": 200,
          "gen_ai.usage.output_tokens": 30,
        },
        "otel",
        [1000, 200, 0, 30, 0],
      ],
    ];
    for (const [object, shape, [input, cached, write, output, reasoning]] of cases) {
      const read = parseUsageObject(JSON.stringify(object));
      expect(read.shape, shape).toBe(shape);
      expect(read.tokens, shape).toEqual({ input, cached, write, output, reasoning });
    }
  });

  it("refuses what the server refuses, with a sentence", () => {
    expect(() => parseUsageObject("{prompt_tokens: 1")).toThrow(/not JSON/);
    expect(() => parseUsageObject("[1, 2]")).toThrow(/JSON object/);
    expect(() =>
      parseUsageObject('{"usage": {"prompt_tokens": 10, "prompt_tokens_details": {"cached_tokens": 20}}}'),
    ).toThrow(/exceeds prompt_tokens/);
    expect(() => parseUsageObject('{"input_tokens": 1.5}')).toThrow(/integer/);
  });
});
