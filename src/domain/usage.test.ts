import { describe, expect, it } from "vitest";
import { detectUsageFormat, mapUsage, otelAttributes, UsageError } from "./usage.js";

// T211: each provider's usage object mapped onto /cost's exclusive counts. The records have the
// shapes of the providers' API references (OpenAI Chat Completions and Responses `usage`, Anthropic
// Messages `usage`, Gemini `usageMetadata`) and of the OpenTelemetry GenAI semantic conventions;
// the expected counts are worked out by hand from each convention.

const counts = (r: ReturnType<typeof mapUsage>) => [
  r.inputTokens,
  r.cachedInputTokens,
  r.cacheWriteTokens,
  r.outputTokens,
  r.reasoningTokens,
];

describe("OpenAI", () => {
  it("Chat Completions: prompt_tokens includes cached_tokens, completion_tokens includes reasoning_tokens", () => {
    // OpenAI's prompt-caching guide: 2006 prompt tokens of which 1920 cached, 300 completion tokens.
    const usage = {
      prompt_tokens: 2006,
      completion_tokens: 300,
      total_tokens: 2306,
      prompt_tokens_details: { cached_tokens: 1920 },
      completion_tokens_details: { reasoning_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    };
    const r = mapUsage(usage);
    expect(r.format).toBe("openai-chat");
    expect(counts(r)).toEqual([86, 1920, 0, 300, 0]);
    expect(r.provider).toBe("openai");
  });

  it("Chat Completions: a whole response is read through its usage, model and service_tier", () => {
    const r = mapUsage({
      id: "chatcmpl-1",
      object: "chat.completion",
      model: "gpt-4o-2024-08-06",
      service_tier: "default",
      usage: {
        prompt_tokens: 10000,
        completion_tokens: 1000,
        prompt_tokens_details: { cached_tokens: 6000, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 200, audio_tokens: 0 },
      },
    });
    expect(counts(r)).toEqual([4000, 6000, 0, 800, 200]);
    expect(r.model).toBe("gpt-4o-2024-08-06");
    expect(r.tier).toBe("standard");
  });

  it("Responses: input_tokens includes cached_tokens, output_tokens includes reasoning_tokens", () => {
    // OpenAI's reasoning guide: 75 input tokens, 1186 output tokens of which 1024 reasoning.
    const r = mapUsage({
      input_tokens: 75,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 1186,
      output_tokens_details: { reasoning_tokens: 1024 },
      total_tokens: 1261,
    });
    expect(r.format).toBe("openai-responses");
    expect(counts(r)).toEqual([75, 0, 0, 162, 1024]);
  });

  it("cached tokens above the prompt, reasoning above the completion, audio tokens and scale tier are errors", () => {
    expect(() =>
      mapUsage({ prompt_tokens: 10, completion_tokens: 1, prompt_tokens_details: { cached_tokens: 11 } }),
    ).toThrow("prompt_tokens_details.cached_tokens (11) exceeds prompt_tokens (10)");
    expect(() =>
      mapUsage({ input_tokens: 5, output_tokens: 10, output_tokens_details: { reasoning_tokens: 11 } }),
    ).toThrow("reasoning_tokens (11) exceeds output_tokens (10)");
    expect(() =>
      mapUsage({ prompt_tokens: 10, completion_tokens: 5, completion_tokens_details: { audio_tokens: 3 } }),
    ).toThrow("audio tokens have their own price");
    expect(() => mapUsage({ service_tier: "scale", usage: { prompt_tokens: 1, completion_tokens: 1 } })).toThrow(
      'service_tier "scale"',
    );
  });
});

describe("Anthropic", () => {
  it("input_tokens already excludes the cache reads and writes", () => {
    const r = mapUsage({
      input_tokens: 2095,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 50000,
      output_tokens: 503,
      service_tier: "standard",
    });
    expect(r.format).toBe("anthropic");
    expect(counts(r)).toEqual([2095, 50000, 0, 503, 0]);
    expect(r.tier).toBe("standard");
    expect(r.cacheTtl).toBeNull();
  });

  it("cache_creation tells the lifetime of the writes", () => {
    const r = mapUsage({
      input_tokens: 50,
      cache_creation_input_tokens: 248,
      cache_read_input_tokens: 1800,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 248 },
      output_tokens: 503,
    });
    expect(counts(r)).toEqual([50, 1800, 248, 503, 0]);
    expect(r.cacheTtl).toBe("1h");
  });

  it("a request writing both lifetimes, a split that does not add up, and web searches are errors", () => {
    const mixed = {
      input_tokens: 50,
      cache_creation_input_tokens: 248,
      cache_read_input_tokens: 1800,
      cache_creation: { ephemeral_5m_input_tokens: 148, ephemeral_1h_input_tokens: 100 },
      output_tokens: 503,
    };
    expect(() => mapUsage(mixed)).toThrow("one cache lifetime per request");
    expect(() =>
      mapUsage({ ...mixed, cache_creation: { ephemeral_5m_input_tokens: 148, ephemeral_1h_input_tokens: 0 } }),
    ).toThrow("does not add up");
    expect(() => mapUsage({ input_tokens: 5, output_tokens: 5, server_tool_use: { web_search_requests: 2 } })).toThrow(
      "2 web search request(s)",
    );
  });
});

describe("Gemini", () => {
  it("promptTokenCount includes cachedContentTokenCount; thoughts are apart from candidates", () => {
    const r = mapUsage({
      usageMetadata: {
        promptTokenCount: 350000,
        cachedContentTokenCount: 100000,
        candidatesTokenCount: 4000,
        thoughtsTokenCount: 1200,
        totalTokenCount: 355200,
        promptTokensDetails: [{ modality: "TEXT", tokenCount: 350000 }],
      },
      modelVersion: "gemini-2.5-pro",
    });
    expect(r.format).toBe("gemini");
    expect(counts(r)).toEqual([250000, 100000, 0, 4000, 1200]);
    expect(r.model).toBe("gemini-2.5-pro");
  });

  it("tool-use prompt tokens are input; audio prompt tokens are an error", () => {
    expect(counts(mapUsage({ promptTokenCount: 100, toolUsePromptTokenCount: 40, candidatesTokenCount: 5 }))).toEqual([
      140, 0, 0, 5, 0,
    ]);
    expect(() =>
      mapUsage({
        promptTokenCount: 100,
        candidatesTokenCount: 5,
        promptTokensDetails: [{ modality: "AUDIO", tokenCount: 60 }],
      }),
    ).toThrow("audio tokens");
  });
});

describe("OpenTelemetry GenAI attributes", () => {
  const attributes = {
    "gen_ai.provider.name": "anthropic",
    "gen_ai.request.model": "claude-sonnet-4-5",
    "gen_ai.response.model": "claude-sonnet-4-5-20250929",
    "gen_ai.usage.input_tokens": 200000,
    "gen_ai.usage.cache_read.input_tokens": 50000,
    "gen_ai.usage.cache_creation.input_tokens": 0,
    "gen_ai.usage.output_tokens": 2000,
  };

  it("input_tokens includes the cache reads and writes; output_tokens includes reasoning", () => {
    const r = mapUsage(attributes);
    expect(r.format).toBe("otel");
    expect(counts(r)).toEqual([150000, 50000, 0, 2000, 0]);
    expect(r.model).toBe("claude-sonnet-4-5-20250929");
    expect(r.provider).toBe("anthropic");
    const reasoning = mapUsage({
      "gen_ai.usage.input_tokens": 10,
      "gen_ai.usage.output_tokens": 100,
      "gen_ai.usage.reasoning.output_tokens": 60,
    });
    expect(counts(reasoning)).toEqual([10, 0, 0, 40, 60]);
  });

  it("an OTLP JSON span (attribute list, 64-bit integers as strings) reads the same", () => {
    const span = {
      name: "chat claude-sonnet-4-5",
      attributes: Object.entries(attributes).map(([key, v]) => ({
        key,
        value: typeof v === "number" ? { intValue: String(v) } : { stringValue: v },
      })),
    };
    expect(otelAttributes(span)).toEqual(
      Object.fromEntries(Object.entries(attributes).map(([k, v]) => [k, typeof v === "number" ? String(v) : v])),
    );
    expect(counts(mapUsage(span))).toEqual(counts(mapUsage(attributes)));
  });

  it("cache counts above input_tokens (an exclusive count) and unknown usage attributes are errors", () => {
    expect(() =>
      mapUsage({
        "gen_ai.usage.input_tokens": 100,
        "gen_ai.usage.cache_read.input_tokens": 500,
        "gen_ai.usage.output_tokens": 1,
      }),
    ).toThrow("exceeds gen_ai.usage.input_tokens");
    expect(() =>
      mapUsage({
        "gen_ai.usage.input_tokens": 100,
        "gen_ai.usage.input_tokens.cached": 50,
        "gen_ai.usage.output_tokens": 1,
      }),
    ).toThrow("gen_ai.usage.input_tokens.cached is not an OpenTelemetry GenAI usage attribute");
  });
});

describe("reading", () => {
  it("detects each format by its field names and refuses what has none", () => {
    expect(detectUsageFormat({ promptTokenCount: 1 })).toBe("gemini");
    expect(detectUsageFormat({ prompt_tokens: 1 })).toBe("openai-chat");
    expect(detectUsageFormat({ input_tokens: 1, input_tokens_details: {} })).toBe("openai-responses");
    expect(detectUsageFormat({ input_tokens: 1, cache_read_input_tokens: 0 })).toBe("anthropic");
    expect(() => detectUsageFormat({ tokens: 5 })).toThrow(UsageError);
  });

  it("a count that is not an integer 0–10^12, or a record that is not an object, is an error naming the field", () => {
    expect(() => mapUsage({ prompt_tokens: -1, completion_tokens: 1 })).toThrow(
      "usage.prompt_tokens must be an integer",
    );
    expect(() => mapUsage({ prompt_tokens: 1.5 })).toThrow("usage.prompt_tokens must be an integer");
    expect(() => mapUsage({ input_tokens: "twelve", output_tokens: 1 })).toThrow(UsageError);
    expect(() => mapUsage("prompt_tokens=5")).toThrow("must be a JSON object");
    expect(() => mapUsage({ prompt_tokens: 1 }, "gemini")).not.toThrow();
  });
});
