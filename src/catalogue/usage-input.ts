import type { TokenUsage } from "../domain/cost.js";
import type { Tier } from "../domain/dimension.js";
import { mapUsage, USAGE_FORMATS, UsageError, type UsageFormat } from "../domain/usage.js";
import { enumParam, textParam } from "./endpoint.js";
import { badRequest } from "./errors.js";

/**
 * The `usage` and `usageFormat` parameters of `/cost` and MCP `estimate_cost` (issue 29 §3, T211):
 * a provider's usage object as it comes, or a span's OpenTelemetry GenAI attributes, instead of the
 * token parameters. The mapping itself is `src/domain/usage.ts`.
 */
export const usageParam = textParam(
  "A usage record as JSON instead of the token parameters: OpenAI Chat Completions or Responses `usage`, " +
    "Anthropic Messages `usage`, Gemini `usageMetadata` (or a whole response holding one), or a span's " +
    "OpenTelemetry GenAI attributes (`gen_ai.usage.*`, flat or as an OTLP attribute list). Mapped onto " +
    "exclusive counts (T211): cached tokens are never billed twice.",
  '{"prompt_tokens":10000,"completion_tokens":800,"prompt_tokens_details":{"cached_tokens":6000}}',
).optional();

export const usageFormatParam = enumParam(
  "usageFormat",
  USAGE_FORMATS,
  "The format of `usage`; detected from its field names when left out.",
).optional();

/** The `/cost` input fields the usage is made of. */
export interface UsageInput {
  readonly usage?: string | undefined;
  readonly usageFormat?: UsageFormat | undefined;
  readonly inputTokens: number;
  readonly cachedInputTokens: number;
  readonly cacheWriteTokens: number;
  readonly cacheTtl: TokenUsage["cacheTtl"];
  readonly outputTokens: number;
  readonly reasoningTokens: number;
  readonly requests: number;
  readonly tier: Tier;
}

/**
 * The usage to price: the token parameters as given, or the `usage` record mapped (T211). With a
 * record, the token parameters must be left at 0; its stated cache lifetime sets `cacheTtl`, and a
 * service tier it states must be the `tier` asked for.
 * @throws CatalogueError bad_request: `usageFormat` without `usage`, `usage` that is not JSON or
 * cannot be mapped (the mapping's message), token parameters beside it, or a tier mismatch
 */
export function usageOf(input: UsageInput): TokenUsage {
  const given = {
    inputTokens: input.inputTokens,
    cachedInputTokens: input.cachedInputTokens,
    cacheWriteTokens: input.cacheWriteTokens,
    outputTokens: input.outputTokens,
    reasoningTokens: input.reasoningTokens,
  };
  const base = { requests: input.requests, tier: input.tier };
  if (input.usage === undefined) {
    if (input.usageFormat !== undefined) throw badRequest("usageFormat needs usage (a usage record as JSON)");
    return { ...given, cacheTtl: input.cacheTtl, ...base };
  }
  const named = Object.entries(given).filter(([, n]) => n > 0);
  if (named.length > 0)
    throw badRequest(
      `give either usage or token counts, not both (${named.map(([k]) => k).join(", ")} given beside usage)`,
    );
  let record: unknown;
  try {
    record = JSON.parse(input.usage);
  } catch {
    throw badRequest("usage must be JSON: a usage object or a span's attributes");
  }
  try {
    const mapped = mapUsage(record, input.usageFormat);
    if (mapped.tier !== null && mapped.tier !== input.tier)
      throw badRequest(
        `the usage record was served in the ${mapped.tier} tier; pass tier=${mapped.tier} to price it (tier is ${input.tier})`,
      );
    return {
      inputTokens: mapped.inputTokens,
      cachedInputTokens: mapped.cachedInputTokens,
      cacheWriteTokens: mapped.cacheWriteTokens,
      outputTokens: mapped.outputTokens,
      reasoningTokens: mapped.reasoningTokens,
      cacheTtl: mapped.cacheTtl ?? input.cacheTtl,
      ...base,
    };
  } catch (error) {
    if (error instanceof UsageError) throw badRequest(`usage: ${error.message}`);
    throw error;
  }
}
