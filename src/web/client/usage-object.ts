import { mapUsage, type UsageFormat } from "../../domain/usage.js";

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

/**
 * Reads a pasted usage object (JSON text; a whole response is fine, its `usage` or `usageMetadata`
 * is used) with the reading `tariff cost` and `/cost?usage=` use (`src/domain/usage.ts`, T211,
 * T277): one place knows which provider's counts include which.
 * @throws Error with a sentence saying what is wrong (not JSON, not a known usage object, a count
 * that is not a whole number, parts that exceed their total)
 */
export function parseUsageObject(text: string): { tokens: RequestTokens; shape: UsageFormat } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error("this is not JSON: paste the usage object as the API returned it");
  }
  const usage = mapUsage(value);
  return {
    shape: usage.format,
    tokens: {
      input: usage.inputTokens,
      cached: usage.cachedInputTokens,
      write: usage.cacheWriteTokens,
      output: usage.outputTokens,
      reasoning: usage.reasoningTokens,
    },
  };
}
