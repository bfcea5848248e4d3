/**
 * A provider's usage object (what an API response reports under `usage` / `usageMetadata`) as the
 * exclusive token counts of `/cost` (T140): `inputTokens` holds no cached or cache-write token,
 * `outputTokens` no reasoning token. The calculator fills one request's counts from it (T208).
 */
export interface RequestTokens {
  readonly input: number;
  readonly cached: number;
  readonly write: number;
  readonly output: number;
  readonly reasoning: number;
}

/** The shapes read, by the provider that reports them. */
export type UsageShape = "openai-chat" | "openai-responses" | "anthropic" | "gemini";

/**
 * Reads a pasted usage object (JSON text; a whole response is fine, its `usage` or
 * `usageMetadata` is used):
 * - OpenAI Chat Completions: `prompt_tokens` includes `prompt_tokens_details.cached_tokens`,
 *   `completion_tokens` includes `completion_tokens_details.reasoning_tokens`;
 * - OpenAI Responses: `input_tokens` includes `input_tokens_details.cached_tokens`, `output_tokens`
 *   includes `output_tokens_details.reasoning_tokens`;
 * - Anthropic Messages: `input_tokens` excludes `cache_read_input_tokens` and
 *   `cache_creation_input_tokens`;
 * - Gemini: `promptTokenCount` includes `cachedContentTokenCount`; `candidatesTokenCount` excludes
 *   `thoughtsTokenCount`.
 * @throws Error with a sentence saying what is wrong (not JSON, not a known usage object, a count
 * that is not a whole number ≥ 0)
 */
export function parseUsageObject(text: string): { tokens: RequestTokens; shape: UsageShape } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error("this is not JSON: paste the usage object as the API returned it");
  }
  let u = record(value);
  if (!u) throw new Error('a usage object is a JSON object, e.g. {"input_tokens": 1200, "output_tokens": 300}');
  u = record(u.usage) ?? record(u.usageMetadata) ?? u;
  const n = (v: unknown, name: string): number => {
    if (v === undefined || v === null) return 0;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw new Error(`${name} must be a whole number ≥ 0`);
    return v;
  };
  if ("promptTokenCount" in u || "candidatesTokenCount" in u) {
    const prompt = n(u.promptTokenCount, "promptTokenCount");
    const cached = n(u.cachedContentTokenCount, "cachedContentTokenCount");
    return {
      shape: "gemini",
      tokens: checked({
        input: prompt - cached,
        cached,
        write: 0,
        output: n(u.candidatesTokenCount, "candidatesTokenCount"),
        reasoning: n(u.thoughtsTokenCount, "thoughtsTokenCount"),
      }),
    };
  }
  if ("prompt_tokens" in u || "completion_tokens" in u) {
    const cached = n(record(u.prompt_tokens_details)?.cached_tokens, "prompt_tokens_details.cached_tokens");
    const reasoning = n(
      record(u.completion_tokens_details)?.reasoning_tokens,
      "completion_tokens_details.reasoning_tokens",
    );
    return {
      shape: "openai-chat",
      tokens: checked({
        input: n(u.prompt_tokens, "prompt_tokens") - cached,
        cached,
        write: 0,
        output: n(u.completion_tokens, "completion_tokens") - reasoning,
        reasoning,
      }),
    };
  }
  if ("input_tokens_details" in u || "output_tokens_details" in u) {
    const cached = n(record(u.input_tokens_details)?.cached_tokens, "input_tokens_details.cached_tokens");
    const reasoning = n(record(u.output_tokens_details)?.reasoning_tokens, "output_tokens_details.reasoning_tokens");
    return {
      shape: "openai-responses",
      tokens: checked({
        input: n(u.input_tokens, "input_tokens") - cached,
        cached,
        write: 0,
        output: n(u.output_tokens, "output_tokens") - reasoning,
        reasoning,
      }),
    };
  }
  if ("input_tokens" in u || "output_tokens" in u) {
    return {
      shape: "anthropic",
      tokens: checked({
        input: n(u.input_tokens, "input_tokens"),
        cached: n(u.cache_read_input_tokens, "cache_read_input_tokens"),
        write: n(u.cache_creation_input_tokens, "cache_creation_input_tokens"),
        output: n(u.output_tokens, "output_tokens"),
        reasoning: 0,
      }),
    };
  }
  throw new Error(
    "no token counts found: expected OpenAI's prompt_tokens / completion_tokens or input_tokens_details, " +
      "Anthropic's input_tokens / output_tokens, or Gemini's promptTokenCount / candidatesTokenCount",
  );
}

function record(v: unknown): Record<string, unknown> | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

function checked(t: RequestTokens): RequestTokens {
  if (t.input < 0) throw new Error("the cached tokens are more than the prompt tokens that include them");
  if (t.output < 0) throw new Error("the reasoning tokens are more than the output tokens that include them");
  return t;
}
