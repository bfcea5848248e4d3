import type { TokenUsage } from "../domain/cost.js";
import type { Tier } from "../domain/dimension.js";
import { ServedMismatchError, servedAs } from "../domain/served-usage.js";
import { mapUsage, type UnpricedPart, USAGE_FORMATS, UsageError, type UsageFormat } from "../domain/usage.js";
import { enumParam, textParam } from "./endpoint.js";
import { badRequest } from "./errors.js";

/**
 * The `usage` and `usageFormat` parameters of `/cost` and MCP `estimate_cost` (issue 29 §3, T211):
 * a provider's usage object as it comes, or a span's OpenTelemetry GenAI attributes, instead of the
 * token parameters. The mapping itself is `src/domain/usage.ts`.
 */
export const usageParam = textParam(
  "A usage record as JSON instead of the token parameters: OpenAI Chat Completions or Responses `usage`, " +
    "Anthropic Messages `usage`, Gemini `usageMetadata`, Bedrock Converse `usage` (or a whole response holding " +
    "one: an OpenAI Responses response's web_search_call items are its web searches), or a span's " +
    "OpenTelemetry GenAI attributes (`gen_ai.usage.*`, flat or as an OTLP attribute list). Mapped onto " +
    "exclusive counts (T211): cached tokens are never billed twice. Parts no price rule reaches (audio tokens, " +
    "Scale Tier) are listed in `unpriced` with the reason; the rest is priced (T300).",
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
  readonly cacheWrite1hTokens: number;
  readonly cacheTtl: TokenUsage["cacheTtl"];
  readonly outputTokens: number;
  readonly reasoningTokens: number;
  readonly webSearchRequests: number;
  readonly requests: number;
  /** The tier the request names; undefined: the record's own, else standard (T480). */
  readonly tier?: Tier | undefined;
  readonly region?: string | undefined;
}

/** A usage to price and the parts of its record no price rule reaches (T300). */
export interface PricedUsage extends TokenUsage {
  readonly unpriced: readonly UnpricedPart[];
}

/** A region as `/cost` takes it: a lower-case slug (`us`, `eu`, `us-east5`, `global`). */
const REGION = /^[a-z0-9][a-z0-9-]{0,39}$/;

/**
 * The usage to price: the token parameters as given, or the `usage` record mapped (T211). With a
 * record, the token parameters must be left at 0; its stated cache lifetime sets `cacheTtl`, and the
 * service tier and region it states (OpenAI `service_tier`, Anthropic `speed`, `service_tier`,
 * `inference_geo`) price it where the request names none, and must be the ones named if it does
 * (T303, T480). The record's parts no price rule reaches come back in `unpriced` (T300).
 * @throws CatalogueError bad_request: `usageFormat` without `usage`, `usage` that is not JSON or
 * cannot be mapped (the mapping's message), token parameters beside it, a tier or region the record
 * contradicts (naming both, T480), a region that is not a slug
 */
export function usageOf(input: UsageInput): PricedUsage {
  const given = {
    inputTokens: input.inputTokens,
    cachedInputTokens: input.cachedInputTokens,
    cacheWriteTokens: input.cacheWriteTokens,
    cacheWrite1hTokens: input.cacheWrite1hTokens,
    outputTokens: input.outputTokens,
    reasoningTokens: input.reasoningTokens,
    webSearchRequests: input.webSearchRequests,
  };
  const asked = input.region?.trim().toLowerCase() || null;
  if (asked !== null && !REGION.test(asked))
    throw badRequest(
      `region must be a region slug such as us, eu, us-east5 or global (letters, digits, hyphens), got ${JSON.stringify(input.region)}`,
    );
  if (input.usage === undefined) {
    if (input.usageFormat !== undefined) throw badRequest("usageFormat needs usage (a usage record as JSON)");
    const tier = input.tier ?? "standard";
    return { ...given, cacheTtl: input.cacheTtl, requests: input.requests, tier, region: asked, unpriced: [] };
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
    const served = servedAs(mapped, { tier: input.tier, region: asked });
    return {
      inputTokens: mapped.inputTokens,
      cachedInputTokens: mapped.cachedInputTokens,
      cacheWriteTokens: mapped.cacheWriteTokens,
      cacheWrite1hTokens: mapped.cacheWrite1hTokens,
      outputTokens: mapped.outputTokens,
      reasoningTokens: mapped.reasoningTokens,
      webSearchRequests: mapped.webSearchRequests,
      cacheTtl: mapped.cacheTtl ?? input.cacheTtl,
      requests: input.requests,
      ...served,
      unpriced: mapped.unpriced,
    };
  } catch (error) {
    if (error instanceof ServedMismatchError) throw badRequest(error.message);
    if (error instanceof UsageError) throw badRequest(`usage: ${error.message}`);
    throw error;
  }
}
