import { type CacheTtl, USAGE_FIELDS } from "./cost.js";
import type { Tier } from "./dimension.js";

/**
 * Usage records as people have them (issue 29 §3), mapped onto the exclusive token counts of
 * `/cost` (T140): OpenAI Chat Completions and Responses `usage`, Anthropic Messages `usage`, Gemini
 * `usageMetadata`, and OpenTelemetry GenAI span attributes. Each provider's convention — which
 * counts include which — is decision T211; the subtraction is done here once, and a record whose
 * parts do not add up is an error, never a silent guess. Pure: no I/O.
 */

/** The record formats read (T211). */
export const USAGE_FORMATS = [
  "openai-chat",
  "openai-responses",
  "anthropic",
  "gemini",
  "bedrock-converse",
  "otel",
] as const;
export type UsageFormat = (typeof USAGE_FORMATS)[number];

/** A usage record that cannot be read, or holds usage `/cost` cannot price; the message says which field. */
export class UsageError extends Error {
  override name = "UsageError";
}

/**
 * A part of a usage record no price rule reaches (issue 37 §1, T300): its field, how many units it
 * holds, and why it cannot be priced. The rest of the record is still priced.
 */
export interface UnpricedPart {
  /** The record's field, e.g. `prompt_tokens_details.audio_tokens`, `service_tier`. */
  readonly part: string;
  /** Tokens or calls the part holds (0 when it is a setting, e.g. a service tier). */
  readonly quantity: number;
  readonly reason: string;
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
  /** Input tokens written to the 1-hour cache beside 5-minute writes in the same request (T301). */
  readonly cacheWrite1hTokens: number;
  /** Web searches the request ran, billed per call (Anthropic `server_tool_use`, OpenAI `web_search_call` items, T304). */
  readonly webSearchRequests: number;
  /** Where the record says it was processed (Anthropic `inference_geo`), else null (T303). */
  readonly region: string | null;
  /** The parts no price rule reaches, each with its reason (T300); empty when all is priced. */
  readonly unpriced: readonly UnpricedPart[];
  /** Output tokens without reasoning tokens. */
  readonly outputTokens: number;
  readonly reasoningTokens: number;
  /** The cache lifetime of the writes when the record states it (Anthropic `cache_creation`), else null. */
  readonly cacheTtl: CacheTtl | null;
  /** The service tier the record states (Anthropic `service_tier` and `speed`, T372; an OpenAI response's `service_tier`), else null. */
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

/** What a record's envelope (a whole response) says beside its usage object. */
interface Envelope {
  readonly model: string | null;
  readonly serviceTier: string | null;
  /** OpenAI Responses `output` items (its tool calls), Bedrock's `output` object, or null. */
  readonly output: unknown;
  /** Gemini `candidates` (their grounding metadata), or null. */
  readonly candidates: unknown;
}

/** The usage object of a record and what its envelope says (a whole response, or the usage itself). */
function unwrap(record: Json): { usage: Json } & Envelope {
  for (const key of ["usage", "usageMetadata", "usage_metadata"]) {
    const inner = record[key];
    if (isObject(inner))
      return {
        usage: inner,
        model: text(record.model) ?? text(record.modelVersion),
        serviceTier: text(record.service_tier),
        output: record.output ?? null,
        candidates: record.candidates ?? null,
      };
  }
  return { usage: record, model: null, serviceTier: null, output: null, candidates: null };
}

/**
 * The format of a usage object by its field names (T211): Gemini's camelCase counts, `gen_ai.*`
 * attributes, OpenAI Chat's `prompt_tokens`, OpenAI Responses' `*_tokens_details`, Anthropic's
 * cache fields, Bedrock Converse's camelCase `inputTokens` (T301). An object with only
 * `input_tokens` and `output_tokens` reads the same in both OpenAI Responses and Anthropic
 * conventions (nothing to subtract), and is read as Anthropic's.
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
  if (has("inputTokens", "outputTokens", "cacheReadInputTokens", "cacheWriteInputTokens")) return "bedrock-converse";
  throw new UsageError(
    "no usage fields found: give an OpenAI (prompt_tokens or input_tokens), Anthropic (input_tokens), Gemini " +
      "(promptTokenCount), Bedrock Converse (inputTokens) usage object, or OpenTelemetry gen_ai.usage.* attributes",
  );
}

/**
 * Maps one usage record onto exclusive token counts (T211). `record` is the provider's usage object,
 * or a whole response holding it under `usage` / `usageMetadata`, or a span's OpenTelemetry
 * attributes (see {@link otelAttributes}). `format` is detected from the field names when not given.
 * A part no price rule reaches (audio tokens, a Scale Tier request, a tool billed otherwise) is
 * named in `unpriced` with its reason and the rest is mapped (T300).
 * @throws UsageError for a record that is not an object, a count that is not an integer 0–10^12,
 * parts that exceed their inclusive total, or an unknown OTel usage attribute
 */
export function mapUsage(record: unknown, format?: UsageFormat): MappedUsage {
  if (!isObject(record) && !Array.isArray(record)) throw new UsageError("the usage must be a JSON object");
  const attributes = otelAttributes(record);
  if (format === "otel" || (format === undefined && attributes !== null)) {
    if (attributes === null) throw new UsageError("OpenTelemetry usage must be a span's gen_ai.* attributes");
    return fromOtel(attributes);
  }
  if (!isObject(record)) throw new UsageError("the usage must be a JSON object");
  const { usage, ...envelope } = unwrap(record);
  // T480: a whole OpenAI response says its API by `object`, so its service_tier is read even when its
  // usage has no field only that API writes.
  const chosen = format ?? (record.object === "response" ? "openai-responses" : undefined) ?? detectUsageFormat(usage);
  switch (chosen) {
    case "openai-chat":
      return fromOpenAiChat(usage, envelope);
    case "openai-responses":
      return fromOpenAiResponses(usage, envelope);
    case "anthropic":
      return fromAnthropic(usage, envelope.model);
    case "bedrock-converse":
      return fromBedrock(usage, envelope.model);
    default:
      return fromGemini(usage, envelope);
  }
}

/** The fields every format fills the same way when it does not say otherwise. */
const NOTHING_ELSE = { cacheWrite1hTokens: 0, webSearchRequests: 0, region: null, cacheTtl: null } as const;

/**
 * OpenAI's response-level `service_tier` (the tier that served it) as a Tariff tier (T302): `fast`
 * is priority processing's name since 2026-07-30 (same prices); `default` is standard. `scale`
 * (Scale Tier) and any other value are paid otherwise than per token: the record's tokens become
 * unpriced parts (see {@link unpricedTier}).
 */
function openAiTier(serviceTier: string | null): Tier | null | { unpriced: string } {
  if (serviceTier === null || serviceTier === "auto") return null;
  if (serviceTier === "default") return "standard";
  if (serviceTier === "flex" || serviceTier === "priority") return serviceTier;
  if (serviceTier === "fast") return "priority";
  if (serviceTier === "scale")
    return { unpriced: "served by Scale Tier, paid for by prepaid Scale Tier units, not per token" };
  return { unpriced: `service_tier ${JSON.stringify(serviceTier)} has no published per-token price` };
}

/**
 * A mapped record whose tier is not billed per token (T302): its counts move to `unpriced`, each
 * named, and nothing is priced.
 */
function unpricedTier(mapped: MappedUsage, reason: string): MappedUsage {
  const parts: UnpricedPart[] = [{ part: "service_tier", quantity: 0, reason }];
  for (const field of USAGE_FIELDS)
    if (mapped[field] > 0) parts.push({ part: field, quantity: mapped[field], reason: `service_tier: ${reason}` });
  const zero = Object.fromEntries(USAGE_FIELDS.map((f) => [f, 0])) as Record<(typeof USAGE_FIELDS)[number], 0>;
  return { ...mapped, ...zero, tier: null, unpriced: [...parts, ...mapped.unpriced] };
}

/** With the tier of an OpenAI record applied: a tier, or every count unpriced (T302). */
function withOpenAiTier(mapped: Omit<MappedUsage, "tier">, serviceTier: string | null): MappedUsage {
  const tier = openAiTier(serviceTier);
  if (tier !== null && typeof tier === "object") return unpricedTier({ ...mapped, tier: null }, tier.unpriced);
  return { ...mapped, tier };
}

/**
 * The tool calls in an OpenAI Responses `output` (T304): `web_search_call` items are web searches,
 * billed per call; other hosted tool calls (`file_search_call`, `code_interpreter_call`,
 * `image_generation_call`) are named unpriced — `/cost` prices web searches only. Function calls
 * are the caller's own code: their tokens are already in the usage.
 */
function responseToolCalls(output: unknown, unpriced: UnpricedPart[]): number {
  if (!Array.isArray(output)) return 0;
  let searches = 0;
  const other = new Map<string, number>();
  for (const item of output) {
    if (!isObject(item) || typeof item.type !== "string") continue;
    if (item.type === "web_search_call") searches++;
    else if (/_call$/.test(item.type) && !["function_call", "custom_tool_call"].includes(item.type))
      other.set(item.type, (other.get(item.type) ?? 0) + 1);
  }
  for (const [type, n] of other)
    unpriced.push({
      part: `output[type=${type}]`,
      quantity: n,
      reason: `${type} is a hosted tool billed by its own price; /cost prices web_search_call only`,
    });
  return searches;
}

/** Audio tokens of a field: named unpriced (text token prices only, T300). */
function audio(tokens: number, field: string, unpriced: UnpricedPart[]): void {
  if (tokens > 0)
    unpriced.push({
      part: field,
      quantity: tokens,
      reason: "audio tokens have their own price; /cost prices text tokens",
    });
}

/**
 * What both OpenAI usage shapes state (T301), under Chat's `prompt`/`completion` or Responses'
 * `input`/`output` names: the totals, their `_details`, and the cached, written and reasoning tokens in them.
 */
function openAiCounts(usage: Json, promptKey: string, completionKey: string) {
  const prompt = count(usage, promptKey, "usage.");
  const completion = count(usage, completionKey, "usage.");
  const pd = child(usage, `${promptKey}_details`, "usage.");
  const cd = child(usage, `${completionKey}_details`, "usage.");
  const cached = count(pd, "cached_tokens", `usage.${promptKey}_details.`);
  const writes = count(pd, "cache_write_tokens", `usage.${promptKey}_details.`);
  const reasoning = count(cd, "reasoning_tokens", `usage.${completionKey}_details.`);
  return { prompt, completion, pd, cd, cached, writes, reasoning };
}

/**
 * OpenAI Chat Completions `usage`: `prompt_tokens` includes `prompt_tokens_details.cached_tokens`
 * and `prompt_tokens_details.cache_write_tokens` (T301); `completion_tokens` includes
 * `completion_tokens_details.reasoning_tokens` (and the accepted and rejected prediction tokens,
 * billed as output). Audio tokens are named unpriced, and are not counted as text either.
 */
function fromOpenAiChat(usage: Json, envelope: Envelope): MappedUsage {
  const counts = openAiCounts(usage, "prompt_tokens", "completion_tokens");
  const { prompt, completion, pd, cd, cached, writes, reasoning } = counts;
  const audioIn = count(pd, "audio_tokens", "usage.prompt_tokens_details.");
  const audioOut = count(cd, "audio_tokens", "usage.completion_tokens_details.");
  const unpriced: UnpricedPart[] = [];
  audio(audioIn, "prompt_tokens_details.audio_tokens", unpriced);
  audio(audioOut, "completion_tokens_details.audio_tokens", unpriced);
  within(cached + writes + audioIn, "prompt_tokens_details (cached + cache write + audio)", prompt, "prompt_tokens");
  within(reasoning + audioOut, "completion_tokens_details (reasoning + audio)", completion, "completion_tokens");
  return withOpenAiTier(
    {
      format: "openai-chat",
      ...NOTHING_ELSE,
      inputTokens: prompt - cached - writes - audioIn,
      cachedInputTokens: cached,
      cacheWriteTokens: writes,
      outputTokens: completion - reasoning - audioOut,
      reasoningTokens: reasoning,
      model: envelope.model,
      provider: "openai",
      unpriced,
    },
    envelope.serviceTier,
  );
}

/**
 * OpenAI Responses `usage`: `input_tokens` includes `input_tokens_details.cached_tokens` and
 * `input_tokens_details.cache_write_tokens` (T301); `output_tokens` includes
 * `output_tokens_details.reasoning_tokens`. A whole response's `output` gives its web searches (T304).
 */
function fromOpenAiResponses(usage: Json, envelope: Envelope): MappedUsage {
  const counts = openAiCounts(usage, "input_tokens", "output_tokens");
  const { prompt: input, completion: output, cached, writes, reasoning } = counts;
  within(cached + writes, "input_tokens_details (cached + cache write)", input, "input_tokens");
  within(reasoning, "output_tokens_details.reasoning_tokens", output, "output_tokens");
  const unpriced: UnpricedPart[] = [];
  const searches = responseToolCalls(envelope.output, unpriced);
  return withOpenAiTier(
    {
      format: "openai-responses",
      ...NOTHING_ELSE,
      inputTokens: input - cached - writes,
      cachedInputTokens: cached,
      cacheWriteTokens: writes,
      outputTokens: output - reasoning,
      reasoningTokens: reasoning,
      webSearchRequests: searches,
      model: envelope.model,
      provider: "openai",
      unpriced,
    },
    envelope.serviceTier,
  );
}

/**
 * Anthropic Messages `usage`: `input_tokens` already excludes `cache_read_input_tokens` and
 * `cache_creation_input_tokens`; `cache_creation` splits the writes by lifetime (5 minutes, 1 hour),
 * both priced in one request (T301); `output_tokens` includes extended thinking, billed as output
 * (no reasoning price); `server_tool_use.web_search_requests` are billed per search (T304), web
 * fetches cost their tokens only; `inference_geo` other than `global` is the region (T303);
 * `speed: "fast"` is the priority tier, Priority Tier (`service_tier: "priority"`) is unpriced (T372).
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
  const tools = child(usage, "server_tool_use", "usage.");
  const searches = count(tools, "web_search_requests", "usage.server_tool_use.");
  const unpriced: UnpricedPart[] = [];
  for (const [key, value] of Object.entries(tools ?? {})) {
    if (key === "web_search_requests" || key === "web_fetch_requests") continue;
    const n = count(tools, key, "usage.server_tool_use.");
    if (n > 0)
      unpriced.push({
        part: `server_tool_use.${key}`,
        quantity: n,
        reason: `${key} is a server tool billed by its own terms; /cost prices web searches only (${JSON.stringify(value)})`,
      });
  }
  const tier = anthropicTier(text(usage.service_tier), text(usage.speed));
  const geo = text(usage.inference_geo);
  const both = w5m > 0 && w1h > 0;
  const mapped: MappedUsage = {
    format: "anthropic",
    inputTokens: count(usage, "input_tokens", "usage."),
    cachedInputTokens: count(usage, "cache_read_input_tokens", "usage."),
    // One lifetime: cacheWriteTokens at cacheTtl (T211); both: the 1-hour part apart (T301).
    cacheWriteTokens: both ? w5m : writes,
    cacheWrite1hTokens: both ? w1h : 0,
    webSearchRequests: searches,
    outputTokens: count(usage, "output_tokens", "usage."),
    reasoningTokens: 0,
    cacheTtl: both ? "5m" : w1h > 0 ? "1h" : w5m > 0 ? "5m" : null,
    tier: typeof tier === "object" ? null : tier,
    region: geo === null || geo === "global" || geo === "not_available" ? null : geo,
    model,
    provider: "anthropic",
    unpriced,
  };
  return tier !== null && typeof tier === "object" ? unpricedTier(mapped, tier.unpriced) : mapped;
}

/**
 * The tier of an Anthropic record (T372), from `usage.service_tier` (`standard`, `priority`, `batch`)
 * and `usage.speed` (`standard`, `fast`; the Messages API's `BetaUsage`, anthropic-sdk-typescript
 * `src/resources/beta/messages/messages.ts`). `speed: "fast"` is fast mode: the `priority` tier
 * (T370). `service_tier: "priority"` without it is Priority Tier, served from a capacity commitment
 * paid by contract: not a per-token price, so its counts are unpriced parts (like OpenAI's Scale
 * Tier, T302) — never fast mode's 6× prices.
 * @throws UsageError for an unknown `service_tier` or `speed`, and for batch with fast mode, which
 *   Anthropic's pricing page rules out ("Fast mode is not available with the Batch API")
 */
function anthropicTier(serviceTier: string | null, speed: string | null): Tier | null | { unpriced: string } {
  if (serviceTier !== null && serviceTier !== "standard" && serviceTier !== "priority" && serviceTier !== "batch")
    throw new UsageError(`usage.service_tier ${JSON.stringify(serviceTier)} is not standard, priority or batch`);
  if (speed !== null && speed !== "standard" && speed !== "fast")
    throw new UsageError(`usage.speed ${JSON.stringify(speed)} is not standard or fast`);
  if (speed === "fast") {
    if (serviceTier === "batch")
      throw new UsageError(
        'usage.speed "fast" with service_tier "batch" cannot be priced: fast mode is not available with the Batch API (Anthropic\'s pricing page, "Fast mode pricing")',
      );
    return "priority";
  }
  if (serviceTier === "priority")
    return { unpriced: "served by Anthropic's Priority Tier, paid for by a capacity commitment, not per token" };
  return serviceTier as Tier | null;
}

/**
 * Bedrock Converse `usage` (T301): `inputTokens` excludes `cacheReadInputTokens` and
 * `cacheWriteInputTokens`, as Anthropic's counts do; `cacheDetails` (`[{ttl, inputTokens}]`) splits
 * the writes by lifetime. The region is the request's (its inference profile or endpoint): give it
 * as `region`.
 */
function fromBedrock(usage: Json, model: string | null): MappedUsage {
  const writes = count(usage, "cacheWriteInputTokens", "usage.");
  let w1h = 0;
  const details = usage.cacheDetails;
  if (details !== undefined && details !== null) {
    if (!Array.isArray(details)) throw new UsageError("usage.cacheDetails must be a list");
    let sum = 0;
    for (const d of details) {
      if (!isObject(d)) throw new UsageError("usage.cacheDetails[] must be objects");
      const n = count(d, "inputTokens", "usage.cacheDetails[].");
      sum += n;
      if (d.ttl === "1h") w1h += n;
    }
    if (sum !== writes)
      throw new UsageError(
        `cacheDetails' inputTokens (${sum}) differ from cacheWriteInputTokens (${writes}): the record does not add up`,
      );
  }
  const w5m = writes - w1h;
  const both = w5m > 0 && w1h > 0;
  return {
    format: "bedrock-converse",
    ...NOTHING_ELSE,
    inputTokens: count(usage, "inputTokens", "usage."),
    cachedInputTokens: count(usage, "cacheReadInputTokens", "usage."),
    cacheWriteTokens: both ? w5m : writes,
    cacheWrite1hTokens: both ? w1h : 0,
    outputTokens: count(usage, "outputTokens", "usage."),
    reasoningTokens: 0,
    cacheTtl: both ? "5m" : w1h > 0 ? "1h" : writes > 0 ? "5m" : null,
    tier: null,
    model,
    provider: null,
    unpriced: [],
  };
}

/**
 * Gemini `usageMetadata`: `promptTokenCount` includes `cachedContentTokenCount`;
 * `toolUsePromptTokenCount` (tool results fed back) is input outside the prompt count;
 * `candidatesTokenCount` excludes `thoughtsTokenCount`. Audio tokens (`*TokensDetails` modality
 * AUDIO) have their own price: named unpriced and taken out of the text counts (T300). Grounding
 * with Google Search (`candidates[].groundingMetadata.webSearchQueries`) is named unpriced: Google
 * bills it per grounded prompt or per query beyond a free daily allowance /cost cannot know (T304).
 */
function fromGemini(usage: Json, envelope: Envelope): MappedUsage {
  const prompt = count(usage, "promptTokenCount", "usageMetadata.");
  const cached = count(usage, "cachedContentTokenCount", "usageMetadata.");
  const tool = count(usage, "toolUsePromptTokenCount", "usageMetadata.");
  within(cached, "cachedContentTokenCount", prompt, "promptTokenCount");
  const unpriced: UnpricedPart[] = [];
  const audioOf = (key: string): number => {
    const details = usage[key];
    if (details === undefined || details === null) return 0;
    if (!Array.isArray(details)) throw new UsageError(`usageMetadata.${key} must be a list`);
    let n = 0;
    for (const d of details)
      if (isObject(d) && d.modality === "AUDIO") n += count(d, "tokenCount", `usageMetadata.${key}[].`);
    audio(n, `${key} (modality AUDIO)`, unpriced);
    return n;
  };
  const audioPrompt = audioOf("promptTokensDetails");
  const audioTool = audioOf("toolUsePromptTokensDetails");
  const audioOut = audioOf("candidatesTokensDetails");
  const candidates = count(usage, "candidatesTokenCount", "usageMetadata.");
  within(audioPrompt + cached, "promptTokensDetails AUDIO + cachedContentTokenCount", prompt, "promptTokenCount");
  within(audioOut, "candidatesTokensDetails AUDIO", candidates, "candidatesTokenCount");
  let queries = 0;
  if (Array.isArray(envelope.candidates))
    for (const c of envelope.candidates) {
      const g = isObject(c) && isObject(c.groundingMetadata) ? c.groundingMetadata : null;
      if (g && Array.isArray(g.webSearchQueries)) queries += g.webSearchQueries.length;
    }
  if (queries > 0)
    unpriced.push({
      part: "candidates[].groundingMetadata.webSearchQueries",
      quantity: queries,
      reason:
        "Grounding with Google Search is billed per grounded prompt (Gemini 2.x) or per search query (Gemini 3) " +
        "beyond a free daily allowance, which a usage record does not show",
    });
  return {
    format: "gemini",
    ...NOTHING_ELSE,
    inputTokens: prompt - cached - audioPrompt + Math.max(0, tool - audioTool),
    cachedInputTokens: cached,
    cacheWriteTokens: 0,
    outputTokens: candidates - audioOut,
    reasoningTokens: count(usage, "thoughtsTokenCount", "usageMetadata."),
    tier: null,
    model: envelope.model,
    provider: "google",
    unpriced,
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
    ...NOTHING_ELSE,
    unpriced: [],
    inputTokens: input - read - write,
    cachedInputTokens: read,
    cacheWriteTokens: write,
    outputTokens: output - reasoning,
    reasoningTokens: reasoning,
    tier: null,
    model: text(attributes["gen_ai.response.model"]) ?? text(attributes["gen_ai.request.model"]),
    provider: text(attributes["gen_ai.provider.name"]) ?? text(attributes["gen_ai.system"]),
  };
}
