import { describe, expect, it } from "vitest";
import { ANTHROPIC_BOTH_CACHE_LIFETIMES } from "../../test/cost-examples.js";
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

  it("cached tokens above the prompt and reasoning above the completion are errors", () => {
    expect(() =>
      mapUsage({ prompt_tokens: 10, completion_tokens: 1, prompt_tokens_details: { cached_tokens: 11 } }),
    ).toThrow("prompt_tokens_details (cached + cache write + audio) (11) exceeds prompt_tokens (10)");
    expect(() =>
      mapUsage({ input_tokens: 5, output_tokens: 10, output_tokens_details: { reasoning_tokens: 11 } }),
    ).toThrow("reasoning_tokens (11) exceeds output_tokens (10)");
  });

  // T300: a part no price rule reaches is named, the rest is still mapped.
  it("audio tokens and a Scale Tier request are named unpriced parts, never a refusal of the whole usage", () => {
    const audio = mapUsage({ prompt_tokens: 10, completion_tokens: 5, completion_tokens_details: { audio_tokens: 3 } });
    expect(counts(audio)).toEqual([10, 0, 0, 2, 0]);
    expect(audio.unpriced).toEqual([
      {
        part: "completion_tokens_details.audio_tokens",
        quantity: 3,
        reason: "audio tokens have their own price; /cost prices text tokens",
      },
    ]);
    const scale = mapUsage({ service_tier: "scale", usage: { prompt_tokens: 7, completion_tokens: 2 } });
    expect(counts(scale)).toEqual([0, 0, 0, 0, 0]);
    expect(scale.tier).toBeNull();
    expect(scale.unpriced.map((u) => [u.part, u.quantity])).toEqual([
      ["service_tier", 0],
      ["inputTokens", 7],
      ["outputTokens", 2],
    ]);
    expect(scale.unpriced[0]!.reason).toContain("Scale Tier units");
  });

  // T301: cache writes are part of the inclusive prompt count, like cached_tokens. OpenAI's API
  // reference could not be read from here; the shape is the one public usage readers document
  // (`usage.input_tokens_details.cache_write_tokens`, "GPT-5.6 and later", "inclusive on the wire";
  // `prompt_tokens_details.cache_write_tokens` on Chat Completions), cited in issue 37.
  it("cache_write_tokens are cache writes inside prompt_tokens / input_tokens", () => {
    const chat = mapUsage({
      prompt_tokens: 10000,
      completion_tokens: 500,
      prompt_tokens_details: { cached_tokens: 6000, cache_write_tokens: 3000 },
    });
    expect(counts(chat)).toEqual([1000, 6000, 3000, 500, 0]);
    const responses = mapUsage({
      input_tokens: 10000,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 9000 },
      output_tokens: 10,
      output_tokens_details: { reasoning_tokens: 0 },
    });
    expect(counts(responses)).toEqual([1000, 0, 9000, 10, 0]);
  });

  // T302: "fast" is priority processing's name since 2026-07-30 (same prices).
  it("service_tier fast is the priority tier; an unknown tier is an unpriced part", () => {
    expect(mapUsage({ service_tier: "fast", usage: { prompt_tokens: 1, completion_tokens: 1 } }).tier).toBe("priority");
    expect(mapUsage({ service_tier: "priority", usage: { prompt_tokens: 1, completion_tokens: 1 } }).tier).toBe(
      "priority",
    );
    expect(mapUsage({ service_tier: "flex", usage: { prompt_tokens: 1, completion_tokens: 1 } }).tier).toBe("flex");
    const odd = mapUsage({ service_tier: "turbo", usage: { prompt_tokens: 1, completion_tokens: 1 } });
    expect(odd.unpriced[0]).toMatchObject({
      part: "service_tier",
      reason: 'service_tier "turbo" has no published per-token price',
    });
  });

  // T304: a Responses response's web_search_call output items are its web searches
  // (https://platform.openai.com/docs/guides/tools-web-search: output holds a web_search_call item per search).
  it("web_search_call items of a Responses output are web searches; other hosted tool calls are named", () => {
    const r = mapUsage({
      object: "response",
      model: "gpt-5.4",
      output: [
        { type: "web_search_call", id: "ws_1", status: "completed" },
        { type: "web_search_call", id: "ws_2", status: "completed" },
        { type: "file_search_call", id: "fs_1", status: "completed" },
        { type: "function_call", id: "fc_1", name: "lookup" },
        { type: "message", id: "msg_1" },
      ],
      usage: { input_tokens: 100, output_tokens: 20, input_tokens_details: { cached_tokens: 0 } },
    });
    expect(r.webSearchRequests).toBe(2);
    expect(r.unpriced.map((u) => [u.part, u.quantity])).toEqual([["output[type=file_search_call]", 1]]);
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

  // T301: both lifetimes in one request (https://docs.claude.com/en/api/messages: usage.cache_creation
  // {ephemeral_5m_input_tokens, ephemeral_1h_input_tokens}) are priced each at its own price.
  it("a request writing both lifetimes keeps both; a split that does not add up is an error", () => {
    const mixed = ANTHROPIC_BOTH_CACHE_LIFETIMES;
    const r = mapUsage(mixed);
    expect(counts(r)).toEqual([50, 1800, 148, 503, 0]);
    expect([r.cacheWrite1hTokens, r.cacheTtl]).toEqual([100, "5m"]);
    expect(() =>
      mapUsage({ ...mixed, cache_creation: { ephemeral_5m_input_tokens: 148, ephemeral_1h_input_tokens: 0 } }),
    ).toThrow("does not add up");
  });

  // T303, T304: usage.server_tool_use.web_search_requests and usage.inference_geo
  // (https://docs.claude.com/en/api/messages, "usage"; data residency: inference_geo "us" or "global").
  it("web searches are counted, inference_geo is the region, other server tools are named", () => {
    const r = mapUsage({
      input_tokens: 5,
      output_tokens: 5,
      server_tool_use: { web_search_requests: 2, web_fetch_requests: 1, code_execution_requests: 3 },
      inference_geo: "us",
      service_tier: "standard",
    });
    expect([r.webSearchRequests, r.region]).toEqual([2, "us"]);
    expect(r.unpriced.map((u) => [u.part, u.quantity])).toEqual([["server_tool_use.code_execution_requests", 3]]);
    expect(mapUsage({ input_tokens: 5, output_tokens: 5, inference_geo: "global" }).region).toBeNull();
  });

  // T372: usage.speed ("standard" | "fast" | null, the Messages API's BetaUsage in anthropic-sdk-typescript
  // src/resources/beta/messages/messages.ts) beside usage.service_tier ("standard" | "priority" | "batch").
  it('speed "fast" is the priority tier (fast mode, T370); speed "standard" changes nothing', () => {
    const base = { input_tokens: 1000, cache_read_input_tokens: 4000, output_tokens: 200 };
    const fast = mapUsage({ ...base, service_tier: "standard", speed: "fast" });
    expect([fast.tier, fast.unpriced]).toEqual(["priority", []]);
    expect(counts(fast)).toEqual([1000, 4000, 0, 200, 0]);
    expect(mapUsage({ ...base, speed: "standard" }).tier).toBeNull();
    expect(mapUsage({ ...base, service_tier: "batch", speed: "standard" }).tier).toBe("batch");
    expect(() => mapUsage({ ...base, speed: "turbo" })).toThrow('usage.speed "turbo" is not standard or fast');
  });

  it("batch with fast mode cannot be priced: the page says fast mode is not available with the Batch API", () => {
    expect(() => mapUsage({ input_tokens: 10, output_tokens: 10, service_tier: "batch", speed: "fast" })).toThrow(
      'usage.speed "fast" with service_tier "batch" cannot be priced: fast mode is not available with the Batch API',
    );
  });

  it("Priority Tier (service_tier priority, not fast) is a capacity commitment: every count an unpriced part", () => {
    const r = mapUsage({ input_tokens: 10, cache_read_input_tokens: 5, output_tokens: 7, service_tier: "priority" });
    expect(r.tier).toBeNull();
    expect(counts(r)).toEqual([0, 0, 0, 0, 0]);
    expect(r.unpriced.map((u) => [u.part, u.quantity])).toEqual([
      ["service_tier", 0],
      ["inputTokens", 10],
      ["cachedInputTokens", 5],
      ["outputTokens", 7],
    ]);
    expect(r.unpriced[0]!.reason).toBe(
      "served by Anthropic's Priority Tier, paid for by a capacity commitment, not per token",
    );
  });
});

// T301: Bedrock Converse TokenUsage (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_TokenUsage.html:
// inputTokens, outputTokens, totalTokens, cacheReadInputTokens, cacheWriteInputTokens; cacheDetails by TTL).
describe("Bedrock Converse", () => {
  it("inputTokens excludes the cache reads and writes; cacheDetails splits the writes by lifetime", () => {
    const r = mapUsage({
      output: { message: { role: "assistant", content: [{ text: "…" }] } },
      stopReason: "end_turn",
      usage: {
        inputTokens: 1200,
        outputTokens: 300,
        totalTokens: 9500,
        cacheReadInputTokens: 6000,
        cacheWriteInputTokens: 2000,
        cacheDetails: [
          { ttl: "5m", inputTokens: 1500 },
          { ttl: "1h", inputTokens: 500 },
        ],
      },
    });
    expect(r.format).toBe("bedrock-converse");
    expect(counts(r)).toEqual([1200, 6000, 1500, 300, 0]);
    expect(r.cacheWrite1hTokens).toBe(500);
    expect(() =>
      mapUsage({ inputTokens: 1, cacheWriteInputTokens: 5, cacheDetails: [{ ttl: "1h", inputTokens: 4 }] }),
    ).toThrow("does not add up");
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

  it("tool-use prompt tokens are input; audio prompt tokens are an unpriced part outside the text count", () => {
    expect(counts(mapUsage({ promptTokenCount: 100, toolUsePromptTokenCount: 40, candidatesTokenCount: 5 }))).toEqual([
      140, 0, 0, 5, 0,
    ]);
    const r = mapUsage({
      promptTokenCount: 100,
      candidatesTokenCount: 5,
      promptTokensDetails: [{ modality: "AUDIO", tokenCount: 60 }],
    });
    expect(counts(r)).toEqual([40, 0, 0, 5, 0]);
    expect(r.unpriced).toMatchObject([{ part: "promptTokensDetails (modality AUDIO)", quantity: 60 }]);
  });

  // T304: https://ai.google.dev/gemini-api/docs/google-search — candidates[].groundingMetadata.webSearchQueries.
  it("Grounding with Google Search is named unpriced with its queries", () => {
    const r = mapUsage({
      candidates: [{ groundingMetadata: { webSearchQueries: ["uefa euro 2024 winner", "who won euro 2024"] } }],
      usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 50 },
      modelVersion: "gemini-2.5-pro",
    });
    expect(r.webSearchRequests).toBe(0);
    expect(r.unpriced).toMatchObject([{ part: "candidates[].groundingMetadata.webSearchQueries", quantity: 2 }]);
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
