/**
 * The usage records of docs/cost-examples.md (issue 37 "Must show"): real shapes from the makers' API
 * references, each with the `/cost` query options it is priced with and the total worked by hand
 * from the maker's price page. Shared by test/cost-examples.test.ts (the table, the 1,000-line log)
 * so the table and its tests cannot drift apart.
 */

import { readFileSync } from "node:fs";

/** The last four columns of one row of docs/cost-examples.md's table. */
export interface DocRow {
  readonly before: string;
  readonly cost: string;
  readonly byHand: string;
  /** What @pydantic/genai-prices prices with Tariff's export, or why it cannot (T518–T521). */
  readonly genai: string;
}

/** The table rows of docs/cost-examples.md, by id. */
export function docTable(): Map<string, DocRow> {
  const rows = new Map<string, DocRow>();
  for (const line of readFileSync("docs/cost-examples.md", "utf8").split("\n")) {
    const cells = line.split(" | ").map((c) => c.replace(/^\|/, "").replace(/\|$/, "").trim());
    if (cells.length < 10 || !/^[A-Z]\d+$/.test(cells[0] ?? "")) continue;
    const [before, cost, byHand, genai] = cells.slice(-4) as [string, string, string, string];
    rows.set(cells[0]!, { before, cost, byHand, genai });
  }
  return rows;
}

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
  readonly family: "OpenAI" | "Anthropic" | "Google" | "Bedrock/Vertex" | "OpenRouter";
  /** What the row shows (cache writes, fast/priority, region, web search, a 272,000-token prompt). */
  readonly shows: string;
  readonly model: string;
  /** `/cost` parameters beside the usage (channel, tier, region). */
  readonly query: Readonly<Record<string, string>>;
  /** The usage record as the maker's API returns it. */
  readonly usage: unknown;
  /**
   * USD, worked by hand from the maker's prices: the total, or the partial total when `complete` is
   * false; `refused` when the maker's rules leave the request without a price (then `refusal` holds).
   */
  readonly handTotal: string;
  readonly complete: boolean;
  /** The start of the 400 problem's detail a refused row answers (issue 49: a precise refusal). */
  readonly refusal?: string;
  /**
   * What `/cost` answered before issue 49, at commit 427d432 on the same replay: the USD total, the
   * partial total with `partial`, or the problem's status. History, written once: never recomputed.
   */
  readonly before: string;
}

export const COST_EXAMPLES: readonly CostExample[] = [
  {
    id: "O1",
    family: "OpenAI",
    shows: "service_tier fast (= priority), cached input, reasoning: the record's tier prices it (T480)",
    model: "openai/gpt-5.4",
    query: {},
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
    before: "400 (asked for tier=priority)",
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
    before: "0.074",
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
    before: "0.245",
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
    before: "0.482505",
  },
  {
    id: "O5",
    family: "OpenAI",
    shows: "cache writes on GPT-5.4: no extra charge beyond input (OpenAI's prompt-caching guide, T483)",
    model: "openai/gpt-5.4",
    query: {},
    usage: {
      prompt_tokens: 10000,
      completion_tokens: 500,
      prompt_tokens_details: { cached_tokens: 6000, cache_write_tokens: 3000 },
    },
    handTotal: "0.019",
    complete: true,
    before: "partial 0.0115 (writes missing)",
  },
  {
    id: "O6",
    family: "OpenAI",
    shows: "service_tier flex on a Chat Completion: the flex prices, no tier named (T480)",
    model: "openai/gpt-5.4",
    query: {},
    // Chat Completions response (https://platform.openai.com/docs/api-reference/chat/object: service_tier).
    usage: {
      object: "chat.completion",
      model: "gpt-5.4-2026-03-05",
      service_tier: "flex",
      usage: {
        prompt_tokens: 20000,
        completion_tokens: 2000,
        total_tokens: 22000,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 500 },
      },
    },
    handTotal: "0.04",
    complete: true,
    before: "400 (asked for tier=flex)",
  },
  {
    id: "O7",
    family: "OpenAI",
    shows: "a response served on priority, asked as tier=standard: refused naming both (T480)",
    model: "openai/gpt-5.4",
    query: { tier: "standard" },
    usage: {
      object: "response",
      model: "gpt-5.4-2026-03-05",
      service_tier: "priority",
      usage: {
        input_tokens: 5000,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 500,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 5500,
      },
    },
    handTotal: "refused",
    complete: false,
    refusal: "tier=standard was asked, but the usage record was served in the priority tier",
    before: "400 (asked for tier=priority, naming only the record's tier)",
  },
  {
    id: "O8",
    family: "OpenAI",
    shows: "cache writes on GPT-5.5 (its last model without a write charge, T483), cache reads",
    model: "openai/gpt-5.5",
    query: {},
    usage: {
      prompt_tokens: 20000,
      completion_tokens: 1000,
      total_tokens: 21000,
      prompt_tokens_details: { cached_tokens: 5000, cache_write_tokens: 4000 },
    },
    handTotal: "0.1075",
    complete: true,
    before: "partial 0.0875 (writes missing)",
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
    before: "0.062",
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
    before: "0.11275",
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
    before: "0.48",
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
    before: "1.3845",
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
    before: "0.0375",
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
    before: "1.5705",
  },
  {
    id: "A7",
    family: "Anthropic",
    shows:
      "fast mode (speed fast = priority, T370) on Claude Opus 4.6 with cache reads and writes of both lifetimes: the multipliers on the fast input price (T346), no tier named (T480)",
    model: "anthropic/claude-opus-4-6",
    query: {},
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
    before: "400 (asked for tier=priority)",
  },
  {
    id: "A8",
    family: "Anthropic",
    shows: "fast mode with a 272,000-token prompt: one price across the full window, no 200K bracket (T371)",
    model: "anthropic/claude-opus-4-6",
    query: {},
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
    before: "400 (asked for tier=priority)",
  },
  {
    id: "A9",
    family: "Anthropic",
    shows: "speed fast on Claude Opus 4.7: fast mode is sold for Opus 4.6 only, refused (T481)",
    model: "anthropic/claude-opus-4-7",
    query: {},
    usage: {
      input_tokens: 10000,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
      output_tokens: 1000,
      service_tier: "standard",
      speed: "fast",
    },
    handTotal: "refused",
    complete: false,
    refusal: "anthropic/claude-opus-4-7 is not sold in the priority tier by its maker",
    before: "400 (asked for tier=priority); with it 0.45, models.dev's 6× alone",
  },
  {
    id: "A10",
    family: "Anthropic",
    shows: "inference_geo us on Claude Opus 4.7 with cache writes of both lifetimes: 1.1× every price (T303)",
    model: "anthropic/claude-opus-4-7",
    query: {},
    usage: {
      input_tokens: 8000,
      cache_read_input_tokens: 20000,
      cache_creation_input_tokens: 4000,
      cache_creation: { ephemeral_5m_input_tokens: 3000, ephemeral_1h_input_tokens: 1000 },
      output_tokens: 2000,
      service_tier: "standard",
      inference_geo: "us",
    },
    handTotal: "0.141625",
    complete: true,
    before: "0.141625",
  },
  {
    id: "A11",
    family: "Anthropic",
    shows: "batch on Claude Haiku 4.5 with cache writes of both lifetimes: the multipliers on the batch input (T346)",
    model: "anthropic/claude-haiku-4-5",
    query: {},
    usage: {
      input_tokens: 20000,
      cache_read_input_tokens: 100000,
      cache_creation_input_tokens: 15000,
      cache_creation: { ephemeral_5m_input_tokens: 10000, ephemeral_1h_input_tokens: 5000 },
      output_tokens: 3000,
      service_tier: "batch",
    },
    handTotal: "0.03375",
    complete: true,
    before: "400 (asked for tier=batch)",
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
    before: "0.53",
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
    before: "0.0225",
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
    before: "partial 0.00625",
  },
  {
    id: "G4",
    family: "Google",
    shows: "Batch API on Gemini 2.5 Flash: cached and thinking tokens at the batch prices",
    model: "google/gemini-2.5-flash",
    query: { tier: "batch" },
    usage: {
      usageMetadata: {
        promptTokenCount: 40000,
        cachedContentTokenCount: 10000,
        candidatesTokenCount: 3000,
        thoughtsTokenCount: 2000,
        totalTokenCount: 45000,
      },
      modelVersion: "gemini-2.5-flash",
    },
    handTotal: "0.01105",
    complete: true,
    before: "0.01105",
  },
  {
    id: "G5",
    family: "Google",
    shows: "Batch API on Gemini 3 Pro with a 250,000-token prompt: above 200K in batch",
    model: "google/gemini-3-pro-preview",
    query: { tier: "batch" },
    usage: {
      usageMetadata: {
        promptTokenCount: 250000,
        cachedContentTokenCount: 50000,
        candidatesTokenCount: 4000,
        totalTokenCount: 254000,
      },
      modelVersion: "gemini-3-pro-preview",
    },
    handTotal: "0.456",
    complete: true,
    before: "0.456",
  },
  {
    id: "G6",
    family: "Google",
    shows: "Gemini 3 Pro, thinking billed as output, standard",
    model: "google/gemini-3-pro-preview",
    query: {},
    usage: {
      usageMetadata: {
        promptTokenCount: 12000,
        candidatesTokenCount: 1500,
        thoughtsTokenCount: 500,
        totalTokenCount: 14000,
      },
      modelVersion: "gemini-3-pro-preview",
    },
    handTotal: "0.048",
    complete: true,
    before: "0.048",
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
    before: "0.0170775",
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
    before: "0.026875",
  },
  {
    id: "B3",
    family: "Bedrock/Vertex",
    shows:
      "Bedrock us. geographic profile on Claude Opus 4.6: +10 % over global (T303), the aggregators' us row at the global price a dissent (T482)",
    model: "anthropic/claude-opus-4-6",
    query: { channel: "reseller_2", region: "us" },
    usage: { usage: { inputTokens: 10000, outputTokens: 1000, totalTokens: 11000 } },
    handTotal: "0.0825",
    complete: true,
    before: "0.075",
  },
  {
    id: "B4",
    family: "Bedrock/Vertex",
    shows: "Bedrock us. profile on Claude Sonnet 4.6 with cache read and write (T303, T482)",
    model: "anthropic/claude-sonnet-4-6",
    query: { channel: "reseller_2", region: "us" },
    usage: {
      usage: {
        inputTokens: 5000,
        outputTokens: 800,
        totalTokens: 29800,
        cacheReadInputTokens: 20000,
        cacheWriteInputTokens: 4000,
      },
    },
    handTotal: "0.0528",
    complete: true,
    before: "0.048",
  },
  {
    id: "B5",
    family: "Bedrock/Vertex",
    shows: "Bedrock eu. profile on Claude Opus 4.7 (T303, T482)",
    model: "anthropic/claude-opus-4-7",
    query: { channel: "reseller_2", region: "eu" },
    usage: { usage: { inputTokens: 2000, outputTokens: 500, totalTokens: 2500 } },
    handTotal: "0.02475",
    complete: true,
    before: "0.02475",
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
    before: "0.0925",
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
    before: "0.53",
  },
  {
    id: "V3",
    family: "Bedrock/Vertex",
    shows: "Vertex AI regional endpoint us-east5 on Claude Opus 4.7 (1.1×, T303), a web search",
    model: "anthropic/claude-opus-4-7",
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
    before: "0.0925",
  },
  {
    id: "R1",
    family: "OpenRouter",
    shows: "OpenRouter Claude Sonnet 4.5: cache reads and writes (prompt_tokens_details.cache_write_tokens)",
    model: "anthropic/claude-sonnet-4-5",
    query: { channel: "reseller_1" },
    // OpenRouter's usage accounting (https://openrouter.ai/docs/use-cases/usage-accounting): an OpenAI Chat
    // usage with cached_tokens, cache_write_tokens and the cost it charged, in credits (USD).
    usage: {
      prompt_tokens: 12000,
      completion_tokens: 600,
      total_tokens: 12600,
      prompt_tokens_details: { cached_tokens: 8000, cache_write_tokens: 2000 },
      completion_tokens_details: { reasoning_tokens: 0 },
      cost: 0.0249,
    },
    handTotal: "0.0249",
    complete: true,
    before: "0.0249",
  },
  {
    id: "R2",
    family: "OpenRouter",
    shows: "OpenRouter GPT-5.4 with cached and reasoning tokens",
    model: "openai/gpt-5.4",
    query: { channel: "reseller_1" },
    usage: {
      prompt_tokens: 30000,
      completion_tokens: 3000,
      total_tokens: 33000,
      prompt_tokens_details: { cached_tokens: 10000 },
      completion_tokens_details: { reasoning_tokens: 2000 },
      cost: 0.0975,
    },
    handTotal: "0.0975",
    complete: true,
    before: "0.0975",
  },
  {
    id: "R3",
    family: "OpenRouter",
    shows: "OpenRouter Gemini 2.5 Pro, a short prompt",
    model: "google/gemini-2.5-pro",
    query: { channel: "reseller_1" },
    usage: {
      prompt_tokens: 5000,
      completion_tokens: 1000,
      total_tokens: 6000,
      prompt_tokens_details: { cached_tokens: 0 },
      cost: 0.01625,
    },
    handTotal: "0.01625",
    complete: true,
    before: "0.01625",
  },
];
