/**
 * The usage records of docs/cost-examples.md (issue 37 "Must show"): real shapes from the makers' API
 * references, each with the `/cost` query options it is priced with and the total worked by hand
 * from the maker's price page. Shared by test/cost-examples.test.ts (the table, the 1,000-line log)
 * so the table and its tests cannot drift apart.
 */

/**
 * An Anthropic Messages `usage` writing both cache lifetimes in one request
 * (https://docs.claude.com/en/api/messages: usage.cache_creation {ephemeral_5m_input_tokens,
 * ephemeral_1h_input_tokens}; T301): read by the usage mapper's and `/cost`'s tests.
 */
export const ANTHROPIC_BOTH_CACHE_LIFETIMES = {
  input_tokens: 50,
  cache_creation_input_tokens: 248,
  cache_read_input_tokens: 1800,
  cache_creation: { ephemeral_5m_input_tokens: 148, ephemeral_1h_input_tokens: 100 },
  output_tokens: 503,
} as const;

/** One row of the table. */
export interface CostExample {
  readonly id: string;
  readonly family: "OpenAI" | "Anthropic" | "Google" | "Bedrock/Vertex";
  /** What the row shows (cache writes, fast/priority, region, web search, a 272,000-token prompt). */
  readonly shows: string;
  readonly model: string;
  /** `/cost` parameters beside the usage (channel, tier, region). */
  readonly query: Readonly<Record<string, string>>;
  /** The usage record as the maker's API returns it. */
  readonly usage: unknown;
  /** USD, worked by hand from the maker's prices: the total, or the partial total when `complete` is false. */
  readonly handTotal: string;
  readonly complete: boolean;
}

export const COST_EXAMPLES: readonly CostExample[] = [
  {
    id: "O1",
    family: "OpenAI",
    shows: "service_tier fast (= priority), cached input, reasoning",
    model: "openai/gpt-5.4",
    query: { tier: "priority" },
    // Responses API response (https://platform.openai.com/docs/api-reference/responses/object).
    usage: {
      object: "response",
      model: "gpt-5.4-2026-03-05",
      service_tier: "fast",
      usage: {
        input_tokens: 50000,
        input_tokens_details: { cached_tokens: 20000 },
        output_tokens: 2000,
        output_tokens_details: { reasoning_tokens: 1500 },
        total_tokens: 52000,
      },
    },
    handTotal: "0.22",
    complete: true,
  },
  {
    id: "O2",
    family: "OpenAI",
    shows: "web searches (web_search_call items), data residency region us",
    model: "openai/gpt-5.4",
    query: { region: "us" },
    usage: {
      object: "response",
      model: "gpt-5.4-2026-03-05",
      output: [
        { type: "web_search_call", id: "ws_1", status: "completed" },
        { type: "web_search_call", id: "ws_2", status: "completed" },
        { type: "web_search_call", id: "ws_3", status: "completed" },
        { type: "message", id: "msg_1", role: "assistant" },
      ],
      usage: {
        input_tokens: 10000,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 1000,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 11000,
      },
    },
    handTotal: "0.074",
    complete: true,
  },
  {
    id: "O3",
    family: "OpenAI",
    shows: "a 272,000-token prompt (cached tokens count): exactly at the boundary, base prices",
    model: "openai/gpt-5.4",
    query: {},
    // Chat Completions usage (https://platform.openai.com/docs/api-reference/chat/object).
    usage: {
      prompt_tokens: 272000,
      completion_tokens: 1000,
      total_tokens: 273000,
      prompt_tokens_details: { cached_tokens: 200000, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
    },
    handTotal: "0.245",
    complete: true,
  },
  {
    id: "O4",
    family: "OpenAI",
    shows: "a 272,001-token prompt: above the boundary, long-context prices",
    model: "openai/gpt-5.4",
    query: {},
    usage: {
      prompt_tokens: 272001,
      completion_tokens: 1000,
      total_tokens: 273001,
      prompt_tokens_details: { cached_tokens: 200000 },
    },
    handTotal: "0.482505",
    complete: true,
  },
  {
    id: "O5",
    family: "OpenAI",
    shows: "cache writes with no published cache-write price: the rest is priced, the writes are missing",
    model: "openai/gpt-5.4",
    query: {},
    usage: {
      prompt_tokens: 10000,
      completion_tokens: 500,
      prompt_tokens_details: { cached_tokens: 6000, cache_write_tokens: 3000 },
    },
    handTotal: "0.0115",
    complete: false,
  },
  {
    id: "A1",
    family: "Anthropic",
    shows: "cache writes of both lifetimes, cache reads, 2 web searches",
    model: "anthropic/claude-sonnet-4-5",
    query: {},
    // Messages API usage (https://docs.claude.com/en/api/messages, "usage").
    usage: {
      input_tokens: 2000,
      cache_read_input_tokens: 10000,
      cache_creation_input_tokens: 5000,
      cache_creation: { ephemeral_5m_input_tokens: 4000, ephemeral_1h_input_tokens: 1000 },
      output_tokens: 800,
      server_tool_use: { web_search_requests: 2 },
      service_tier: "standard",
    },
    handTotal: "0.062",
    complete: true,
  },
  {
    id: "A2",
    family: "Anthropic",
    shows: "inference_geo us on Claude Opus 4.6 (1.1×, T303)",
    model: "anthropic/claude-opus-4-6",
    query: {},
    usage: {
      input_tokens: 10000,
      cache_read_input_tokens: 5000,
      cache_creation_input_tokens: 0,
      output_tokens: 2000,
      service_tier: "standard",
      inference_geo: "us",
    },
    handTotal: "0.11275",
    complete: true,
  },
  {
    id: "A3",
    family: "Anthropic",
    shows: "a 200,000-token prompt (cache reads count): at the boundary, base prices",
    model: "anthropic/claude-sonnet-4-5",
    query: {},
    usage: { input_tokens: 150000, cache_read_input_tokens: 50000, output_tokens: 1000 },
    handTotal: "0.48",
    complete: true,
  },
  {
    id: "A4",
    family: "Anthropic",
    shows: "a 272,000-token prompt: above 200K, long-context prices",
    model: "anthropic/claude-sonnet-4-5",
    query: {},
    usage: { input_tokens: 222000, cache_read_input_tokens: 50000, output_tokens: 1000 },
    handTotal: "1.3845",
    complete: true,
  },
  {
    id: "A5",
    family: "Anthropic",
    shows: "batch with prompt caching: the cache multipliers on the batch input price (T346)",
    model: "anthropic/claude-sonnet-4-5",
    query: { tier: "batch" },
    usage: {
      input_tokens: 10000,
      cache_read_input_tokens: 50000,
      cache_creation_input_tokens: 4000,
      output_tokens: 1000,
      service_tier: "batch",
    },
    handTotal: "0.0375",
    complete: true,
  },
  {
    id: "A6",
    family: "Anthropic",
    shows: "above 200K with a 1-hour cache write: 2× the long-context input price (T346)",
    model: "anthropic/claude-sonnet-4-5",
    query: {},
    usage: {
      input_tokens: 250000,
      cache_creation_input_tokens: 4000,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 4000 },
      output_tokens: 1000,
    },
    handTotal: "1.5705",
    complete: true,
  },
  {
    id: "A7",
    family: "Anthropic",
    shows:
      "fast mode (speed fast = priority, T370) on Claude Opus 4.6 with cache reads and writes of both lifetimes: the multipliers on the fast input price (T346)",
    model: "anthropic/claude-opus-4-6",
    query: { tier: "priority" },
    // Messages API usage with `speed` (anthropic-sdk-typescript src/resources/beta/messages/messages.ts,
    // BetaUsage: speed "standard" | "fast"; the request sets speed: "fast" with the fast-mode beta header).
    usage: {
      input_tokens: 10000,
      cache_read_input_tokens: 40000,
      cache_creation_input_tokens: 10000,
      cache_creation: { ephemeral_5m_input_tokens: 8000, ephemeral_1h_input_tokens: 2000 },
      output_tokens: 2000,
      service_tier: "standard",
      speed: "fast",
    },
    handTotal: "1.14",
    complete: true,
  },
  {
    id: "A8",
    family: "Anthropic",
    shows: "fast mode with a 272,000-token prompt: one price across the full window, no 200K bracket (T371)",
    model: "anthropic/claude-opus-4-6",
    query: { tier: "priority" },
    usage: {
      input_tokens: 222000,
      cache_read_input_tokens: 50000,
      cache_creation_input_tokens: 0,
      output_tokens: 1000,
      service_tier: "standard",
      speed: "fast",
    },
    handTotal: "6.96",
    complete: true,
  },
  {
    id: "G1",
    family: "Google",
    shows: "a 272,000-token prompt with 100,000 cached, thinking tokens",
    model: "google/gemini-2.5-pro",
    query: {},
    // generateContent response (https://ai.google.dev/api/generate-content#UsageMetadata).
    usage: {
      usageMetadata: {
        promptTokenCount: 272000,
        cachedContentTokenCount: 100000,
        candidatesTokenCount: 2000,
        thoughtsTokenCount: 3000,
        totalTokenCount: 277000,
      },
      modelVersion: "gemini-2.5-pro",
    },
    handTotal: "0.53",
    complete: true,
  },
  {
    id: "G2",
    family: "Google",
    shows: "priority tier",
    model: "google/gemini-2.5-pro",
    query: { tier: "priority" },
    usage: { usageMetadata: { promptTokenCount: 10000, candidatesTokenCount: 1000, totalTokenCount: 11000 } },
    handTotal: "0.0225",
    complete: true,
  },
  {
    id: "G3",
    family: "Google",
    shows: "Grounding with Google Search: named unpriced, the tokens priced",
    model: "google/gemini-2.5-pro",
    query: {},
    usage: {
      candidates: [{ groundingMetadata: { webSearchQueries: ["uefa euro 2024 winner", "euro 2024 final score"] } }],
      usageMetadata: { promptTokenCount: 1000, candidatesTokenCount: 500, totalTokenCount: 1500 },
      modelVersion: "gemini-2.5-pro",
    },
    handTotal: "0.00625",
    complete: false,
  },
  {
    id: "B1",
    family: "Bedrock/Vertex",
    shows: "Bedrock Converse, region eu (the region's own prices), cache read and write",
    model: "anthropic/claude-sonnet-4-5",
    query: { channel: "reseller_2", region: "eu" },
    // Converse response (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html).
    usage: {
      output: { message: { role: "assistant", content: [{ text: "…" }] } },
      stopReason: "end_turn",
      usage: {
        inputTokens: 1200,
        outputTokens: 300,
        totalTokens: 9000,
        cacheReadInputTokens: 6000,
        cacheWriteInputTokens: 1500,
      },
    },
    handTotal: "0.0170775",
    complete: true,
  },
  {
    id: "B2",
    family: "Bedrock/Vertex",
    shows: "Bedrock Converse, global, cache writes of both lifetimes (cacheDetails)",
    model: "anthropic/claude-opus-4-6",
    query: { channel: "reseller_2" },
    usage: {
      usage: {
        inputTokens: 1000,
        outputTokens: 300,
        totalTokens: 3300,
        cacheReadInputTokens: 0,
        cacheWriteInputTokens: 2000,
        cacheDetails: [
          { ttl: "5m", inputTokens: 1500 },
          { ttl: "1h", inputTokens: 500 },
        ],
      },
    },
    handTotal: "0.026875",
    complete: true,
  },
  {
    id: "V1",
    family: "Bedrock/Vertex",
    shows: "Vertex AI regional endpoint us-east5 on Claude Opus 4.6 (1.1×, T303), a web search",
    model: "anthropic/claude-opus-4-6",
    query: { channel: "reseller_4", region: "us-east5" },
    usage: {
      input_tokens: 10000,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
      output_tokens: 1000,
      server_tool_use: { web_search_requests: 1 },
    },
    handTotal: "0.0925",
    complete: true,
  },
  {
    id: "V2",
    family: "Bedrock/Vertex",
    shows: "Vertex AI Gemini, a 272,000-token prompt",
    model: "google/gemini-2.5-pro",
    query: { channel: "reseller_4" },
    usage: {
      usageMetadata: {
        promptTokenCount: 272000,
        cachedContentTokenCount: 100000,
        candidatesTokenCount: 2000,
        thoughtsTokenCount: 3000,
        totalTokenCount: 277000,
      },
    },
    handTotal: "0.53",
    complete: true,
  },
];
