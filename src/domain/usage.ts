import type { CacheTtl } from "./cost.js";
import type { Tier } from "./dimension.js";

/**
 * Usage records as people have them (issue 29 §3), mapped onto the exclusive token counts of
 * `/cost` (T140): OpenAI Chat Completions and Responses `usage`, Anthropic Messages `usage`, Gemini
 * `usageMetadata`, and OpenTelemetry GenAI span attributes. Each provider's convention — which
 * counts include which — is decision T211; the subtraction is done here once, and a record whose
 * parts do not add up is an error, never a silent guess. Pure: no I/O.
 */

/** The record formats read (T211). */
export const USAGE_FORMATS = ["openai-chat", "openai-responses", "anthropic", "gemini", "otel"] as const;
export type UsageFormat = (typeof USAGE_FORMATS)[number];

/** A usage record that cannot be read, or holds usage `/cost` cannot price; the message says which field. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** The exclusive counts of one usage record (the `/cost` token parameters, T140) and what it says besides. */
export interface MappedUsage {
  readonly format: UsageFormat;
  /** Uncached input tokens only. */
  readonly inputTokens: number;
  /** Input tokens read from the prompt cache. */
  readonly cachedInputTokens: number;
  /** Input tokens written to the prompt cache (of the lifetime {@link cacheTtl}). */
  readonly cacheWriteTokens: number;
  /** Output tokens without reasoning tokens. */
  readonly outputTokens: number;
  readonly reasoningTokens: number;
  /** The cache lifetime of the writes when the record states it (Anthropic `cache_creation`), else null. */
  readonly cacheTtl: CacheTtl | null;
  /** The service tier the record states (Anthropic `service_tier`, an OpenAI response's `service_tier`), else null. */
  readonly tier: Tier | null;
  /** The model the record names (a response's `model`, Gemini `modelVersion`, OTel `gen_ai.response.model`), else null. */
  readonly model: string | null;
  /** The provider the record implies: the format's maker, or OTel `gen_ai.provider.name` / `gen_ai.system`. */
  readonly provider: string | null;
}

/** Largest count accepted, as for the `/cost` parameters (10^12). */
const MAX_COUNT = 1_000_000_000_000;

type Json = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A count at `path` of `obj`: absent or null is 0; anything but an integer 0–10^12 is an error. */
function count(obj: Json | undefined, key: string, where: string): number {
  const value = obj?.[key];
  if (value === undefined || value === null) return 0;
  // OTLP JSON writes 64-bit integers as strings (`"intValue": "1234"`).
  const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n > MAX_COUNT)
    throw new UsageError(`${where}${key} must be an integer from 0 to 10^12, got ${JSON.stringify(value)}`);
  return n;
}

/** A nested object at `key`, or undefined when absent or null. */
function child(obj: Json, key: string, where: string): Json | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw new UsageError(`${where}${key} must be an object`);
  return value;
}

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

/** `part` of `whole` must not exceed it: the counts are inclusive in this format (T211). */
function within(part: number, partName: string, whole: number, wholeName: string): void {
  if (part > whole)
    throw new UsageError(
      `${partName} (${part}) exceeds ${wholeName} (${whole}), which includes it: the record does not add up`,
    );
}

/**
 * The OpenTelemetry attributes of a span as a flat map: a flat `{name: value}` object, an OTLP JSON
 * attribute list `[{key, value: {intValue | stringValue | …}}]`, or a span object holding either
 * under `attributes`; null when `record` is none of these.
 */
export function otelAttributes(record: unknown): Json | null {
  const list = isObject(record) && "attributes" in record ? record.attributes : record;
  if (Array.isArray(list)) {
    const flat: Record<string, unknown> = {};
    for (const a of list) {
      if (!isObject(a) || typeof a.key !== "string") return null;
      const v = a.value;
      flat[a.key] = isObject(v) ? (v.intValue ?? v.stringValue ?? v.doubleValue ?? v.boolValue ?? null) : v;
    }
    return flat;
  }
  if (isObject(list) && Object.keys(list).some((k) => k.startsWith("gen_ai."))) return list;
  return null;
}

/** The usage object of a record and what its envelope says (a whole response, or the usage itself). */
function unwrap(record: Json): { usage: Json; model: string | null; serviceTier: string | null } {
  for (const key of ["usage", "usageMetadata", "usage_metadata"]) {
    const inner = record[key];
    if (isObject(inner))
      return {
        usage: inner,
        model: text(record.model) ?? text(record.modelVersion),
        serviceTier: text(record.service_tier),
      };
  }
  return { usage: record, model: null, serviceTier: null };
}

/**
 * The format of a usage object by its field names (T211): Gemini's camelCase counts, `gen_ai.*`
 * attributes, OpenAI Chat's `prompt_tokens`, OpenAI Responses' `*_tokens_details`, Anthropic's
 * cache fields. An object with only `input_tokens` and `output_tokens` reads the same in both
 * OpenAI Responses and Anthropic conventions (nothing to subtract), and is read as Anthropic's.
 * @throws UsageError when no usage field of any format is present
 */
export function detectUsageFormat(usage: Json): UsageFormat {
  const has = (...keys: string[]) => keys.some((k) => k in usage);
  if (has("promptTokenCount", "candidatesTokenCount", "totalTokenCount", "cachedContentTokenCount")) return "gemini";
  if (Object.keys(usage).some((k) => k.startsWith("gen_ai."))) return "otel";
  if (has("prompt_tokens", "completion_tokens")) return "openai-chat";
  if (has("input_tokens_details", "output_tokens_details")) return "openai-responses";
  if (has("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"))
    return "anthropic";
  throw new UsageError(
    "no usage fields found: give an OpenAI (prompt_tokens or input_tokens), Anthropic (input_tokens), Gemini " +
      "(promptTokenCount) usage object, or OpenTelemetry gen_ai.usage.* attributes",
  );
}

/**
 * Maps one usage record onto exclusive token counts (T211). `record` is the provider's usage object,
 * or a whole response holding it under `usage` / `usageMetadata`, or a span's OpenTelemetry
 * attributes (see {@link otelAttributes}). `format` is detected from the field names when not given.
 * @throws UsageError for a record that is not an object, a count that is not an integer 0–10^12,
 * parts that exceed their inclusive total, or usage `/cost` cannot price (audio tokens, web search
 * requests, an unknown OTel usage attribute)
 */
export function mapUsage(record: unknown, format?: UsageFormat): MappedUsage {
  if (!isObject(record) && !Array.isArray(record)) throw new UsageError("the usage must be a JSON object");
  const attributes = otelAttributes(record);
  if (format === "otel" || (format === undefined && attributes !== null)) {
    if (attributes === null) throw new UsageError("OpenTelemetry usage must be a span's gen_ai.* attributes");
    return fromOtel(attributes);
  }
  if (!isObject(record)) throw new UsageError("the usage must be a JSON object");
  const { usage, model, serviceTier } = unwrap(record);
  const chosen = format ?? detectUsageFormat(usage);
  switch (chosen) {
    case "openai-chat":
      return fromOpenAiChat(usage, model, serviceTier);
    case "openai-responses":
      return fromOpenAiResponses(usage, model, serviceTier);
    case "anthropic":
      return fromAnthropic(usage, model);
    default:
      return fromGemini(usage, model);
  }
}

/** OpenAI's response-level `service_tier` (the tier that served it) as a Tariff tier. */
function openAiTier(serviceTier: string | null): Tier | null {
  if (serviceTier === null || serviceTier === "auto") return null;
  if (serviceTier === "default") return "standard";
  if (serviceTier === "flex" || serviceTier === "priority") return serviceTier;
  throw new UsageError(`service_tier ${JSON.stringify(serviceTier)} has no published per-token price`);
}

/**
 * OpenAI Chat Completions `usage`: `prompt_tokens` includes `prompt_tokens_details.cached_tokens`;
 * `completion_tokens` includes `completion_tokens_details.reasoning_tokens` (and the accepted and
 * rejected prediction tokens, billed as output). Prompt caching writes are not billed.
 */
function fromOpenAiChat(usage: Json, model: string | null, serviceTier: string | null): MappedUsage {
  const prompt = count(usage, "prompt_tokens", "usage.");
  const completion = count(usage, "completion_tokens", "usage.");
  const pd = child(usage, "prompt_tokens_details", "usage.");
  const cd = child(usage, "completion_tokens_details", "usage.");
  const cached = count(pd, "cached_tokens", "usage.prompt_tokens_details.");
  const reasoning = count(cd, "reasoning_tokens", "usage.completion_tokens_details.");
  noAudio(count(pd, "audio_tokens", "usage.prompt_tokens_details."), "prompt_tokens_details.audio_tokens");
  noAudio(count(cd, "audio_tokens", "usage.completion_tokens_details."), "completion_tokens_details.audio_tokens");
  within(cached, "prompt_tokens_details.cached_tokens", prompt, "prompt_tokens");
  within(reasoning, "completion_tokens_details.reasoning_tokens", completion, "completion_tokens");
  return {
    format: "openai-chat",
    inputTokens: prompt - cached,
    cachedInputTokens: cached,
    cacheWriteTokens: 0,
    outputTokens: completion - reasoning,
    reasoningTokens: reasoning,
    cacheTtl: null,
    tier: openAiTier(serviceTier),
    model,
    provider: "openai",
  };
}

/**
 * OpenAI Responses `usage`: `input_tokens` includes `input_tokens_details.cached_tokens`;
 * `output_tokens` includes `output_tokens_details.reasoning_tokens`.
 */
function fromOpenAiResponses(usage: Json, model: string | null, serviceTier: string | null): MappedUsage {
  const input = count(usage, "input_tokens", "usage.");
  const output = count(usage, "output_tokens", "usage.");
  const cached = count(child(usage, "input_tokens_details", "usage."), "cached_tokens", "usage.input_tokens_details.");
  const reasoning = count(
    child(usage, "output_tokens_details", "usage."),
    "reasoning_tokens",
    "usage.output_tokens_details.",
  );
  within(cached, "input_tokens_details.cached_tokens", input, "input_tokens");
  within(reasoning, "output_tokens_details.reasoning_tokens", output, "output_tokens");
  return {
    format: "openai-responses",
    inputTokens: input - cached,
    cachedInputTokens: cached,
    cacheWriteTokens: 0,
    outputTokens: output - reasoning,
    reasoningTokens: reasoning,
    cacheTtl: null,
    tier: openAiTier(serviceTier),
    model,
    provider: "openai",
  };
}

/**
 * Anthropic Messages `usage`: `input_tokens` already excludes `cache_read_input_tokens` and
 * `cache_creation_input_tokens`; `cache_creation` splits the writes by lifetime (5 minutes, 1 hour);
 * `output_tokens` includes extended thinking, billed as output (no reasoning price). A request that
 * writes both lifetimes cannot be priced with one `cacheTtl`; web search requests are billed per
 * search, not per token.
 */
function fromAnthropic(usage: Json, model: string | null): MappedUsage {
  const writes = count(usage, "cache_creation_input_tokens", "usage.");
  const split = child(usage, "cache_creation", "usage.");
  const w5m = count(split, "ephemeral_5m_input_tokens", "usage.cache_creation.");
  const w1h = count(split, "ephemeral_1h_input_tokens", "usage.cache_creation.");
  if (split && w5m + w1h !== writes)
    throw new UsageError(
      `cache_creation's ephemeral_5m_input_tokens + ephemeral_1h_input_tokens (${w5m + w1h}) differ from ` +
        `cache_creation_input_tokens (${writes}): the record does not add up`,
    );
  if (w5m > 0 && w1h > 0)
    throw new UsageError(
      `the request writes ${w5m} tokens to the 5-minute cache and ${w1h} to the 1-hour cache; /cost prices one ` +
        "cache lifetime per request (cacheTtl), so this usage cannot be priced exactly",
    );
  const searches = count(child(usage, "server_tool_use", "usage."), "web_search_requests", "usage.server_tool_use.");
  if (searches > 0)
    throw new UsageError(
      `the request made ${searches} web search request(s), billed per search; /cost prices tokens only`,
    );
  const tier = text(usage.service_tier);
  if (tier !== null && tier !== "standard" && tier !== "priority" && tier !== "batch")
    throw new UsageError(`usage.service_tier ${JSON.stringify(tier)} is not standard, priority or batch`);
  return {
    format: "anthropic",
    inputTokens: count(usage, "input_tokens", "usage."),
    cachedInputTokens: count(usage, "cache_read_input_tokens", "usage."),
    cacheWriteTokens: writes,
    outputTokens: count(usage, "output_tokens", "usage."),
    reasoningTokens: 0,
    cacheTtl: w1h > 0 ? "1h" : w5m > 0 ? "5m" : null,
    tier: tier as Tier | null,
    model,
    provider: "anthropic",
  };
}

/**
 * Gemini `usageMetadata`: `promptTokenCount` includes `cachedContentTokenCount`;
 * `toolUsePromptTokenCount` (tool results fed back) is input outside the prompt count;
 * `candidatesTokenCount` excludes `thoughtsTokenCount`. Audio prompt tokens
 * (`promptTokensDetails` modality AUDIO) have their own price and are not priced here.
 */
function fromGemini(usage: Json, model: string | null): MappedUsage {
  const prompt = count(usage, "promptTokenCount", "usageMetadata.");
  const cached = count(usage, "cachedContentTokenCount", "usageMetadata.");
  const tool = count(usage, "toolUsePromptTokenCount", "usageMetadata.");
  within(cached, "cachedContentTokenCount", prompt, "promptTokenCount");
  for (const key of ["promptTokensDetails", "toolUsePromptTokensDetails", "candidatesTokensDetails"]) {
    const details = usage[key];
    if (details === undefined || details === null) continue;
    if (!Array.isArray(details)) throw new UsageError(`usageMetadata.${key} must be a list`);
    for (const d of details)
      if (isObject(d) && d.modality === "AUDIO" && count(d, "tokenCount", `usageMetadata.${key}[].`) > 0)
        noAudio(1, `${key} (modality AUDIO)`);
  }
  return {
    format: "gemini",
    inputTokens: prompt - cached + tool,
    cachedInputTokens: cached,
    cacheWriteTokens: 0,
    outputTokens: count(usage, "candidatesTokenCount", "usageMetadata."),
    reasoningTokens: count(usage, "thoughtsTokenCount", "usageMetadata."),
    cacheTtl: null,
    tier: null,
    model,
    provider: "google",
  };
}

/** The OpenTelemetry GenAI usage attributes read (semantic conventions; `prompt_tokens`/`completion_tokens` deprecated names). */
const OTEL_USAGE = new Set([
  "gen_ai.usage.input_tokens",
  "gen_ai.usage.output_tokens",
  "gen_ai.usage.cache_read.input_tokens",
  "gen_ai.usage.cache_creation.input_tokens",
  "gen_ai.usage.reasoning.output_tokens",
  "gen_ai.usage.prompt_tokens",
  "gen_ai.usage.completion_tokens",
  "gen_ai.usage.total_tokens",
]);

/**
 * OpenTelemetry GenAI span attributes: `gen_ai.usage.input_tokens` includes the cache reads and
 * writes (`gen_ai.usage.cache_read.input_tokens`, `gen_ai.usage.cache_creation.input_tokens`), and
 * `gen_ai.usage.output_tokens` includes `gen_ai.usage.reasoning.output_tokens`, as the conventions
 * say they SHOULD. Any other `gen_ai.usage.*` attribute is an error: reading past it could bill its
 * tokens twice or at the wrong rate.
 */
function fromOtel(attributes: Json): MappedUsage {
  for (const key of Object.keys(attributes))
    if (key.startsWith("gen_ai.usage.") && !OTEL_USAGE.has(key))
      throw new UsageError(`${key} is not an OpenTelemetry GenAI usage attribute Tariff reads`);
  const has = (key: string) => attributes[key] !== undefined && attributes[key] !== null;
  if (!["gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens", "gen_ai.usage.prompt_tokens"].some(has))
    throw new UsageError("no gen_ai.usage.input_tokens or gen_ai.usage.output_tokens attribute");
  const input = has("gen_ai.usage.input_tokens")
    ? count(attributes, "gen_ai.usage.input_tokens", "")
    : count(attributes, "gen_ai.usage.prompt_tokens", "");
  const output = has("gen_ai.usage.output_tokens")
    ? count(attributes, "gen_ai.usage.output_tokens", "")
    : count(attributes, "gen_ai.usage.completion_tokens", "");
  const read = count(attributes, "gen_ai.usage.cache_read.input_tokens", "");
  const write = count(attributes, "gen_ai.usage.cache_creation.input_tokens", "");
  const reasoning = count(attributes, "gen_ai.usage.reasoning.output_tokens", "");
  within(read + write, "cache_read + cache_creation input tokens", input, "gen_ai.usage.input_tokens");
  within(reasoning, "gen_ai.usage.reasoning.output_tokens", output, "gen_ai.usage.output_tokens");
  return {
    format: "otel",
    inputTokens: input - read - write,
    cachedInputTokens: read,
    cacheWriteTokens: write,
    outputTokens: output - reasoning,
    reasoningTokens: reasoning,
    cacheTtl: null,
    tier: null,
    model: text(attributes["gen_ai.response.model"]) ?? text(attributes["gen_ai.request.model"]),
    provider: text(attributes["gen_ai.provider.name"]) ?? text(attributes["gen_ai.system"]),
  };
}

function noAudio(tokens: number, field: string): void {
  if (tokens > 0) throw new UsageError(`${field}: audio tokens have their own price; /cost prices text tokens only`);
}
