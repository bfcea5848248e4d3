import { lookupTable } from "../../domain/lookup-table.js";
import { type FieldRule, perToken, rule } from "../field-map.js";

/**
 * The field map of the OpenRouter Models API (T70): each `pricing` key → what it bills. Amounts
 * are decimal strings in USD per token (×1e6 → per 1M tokens), per request, per input image, per
 * web search (×1e3 → per 1K calls). OpenRouter states no context brackets.
 */
const tok = perToken("1e6");

export const PRICING_RULES: Readonly<Record<string, FieldRule>> = lookupTable({
  prompt: tok("input"),
  completion: tok("output"),
  input_cache_read: tok("input", { cache: "read" }),
  input_cache_write: tok("input", { cache: "write" }),
  // Issue 37 §6 (T306): Anthropic's 1-hour cache writes, and audio output tokens.
  input_cache_write_1h: tok("input", { cache: "write_1h" }),
  internal_reasoning: tok("reasoning"),
  audio: tok("input", { modality: "audio" }),
  input_audio_cache: tok("input", { modality: "audio", cache: "read" }),
  audio_output: tok("output", { modality: "audio" }),
  image_output: tok("output", { modality: "image" }),
  request: rule("request", "request", "1"),
  image: rule("input", "image", "1", { modality: "image" }),
  web_search: rule("tool", "kcalls", "1e3", { qualifiers: { tool: "web_search" } }),
});

/**
 * `image` priced per input image *token*: from 2026-02 OpenRouter fills `image` with the prompt's
 * per-token price for models that bill images as tokens (Gemini: `image` = `prompt` =
 * `"0.0000003"`; also `openai/gpt-5-image` in 2025-12). A non-zero `image` equal to `prompt` is
 * read as this rule (USD per 1M image tokens); any other `image` is USD per input image.
 */
export const IMAGE_TOKEN_RULE: FieldRule = tok("input", { modality: "image" });

/**
 * `pricing.overrides` (issue 37 §6, T306): a list of price sets that replace the base ones under a
 * condition. An entry with `min_prompt_tokens` only is a long-context bracket: its per-token keys
 * (the {@link PRICING_RULES} keys) bill prompts of at least that many tokens, i.e. more than
 * `min_prompt_tokens − 1` (our `contextMin`, T7's `>`). An entry with a time window (`utc_start`,
 * `utc_end`, `utc_days`: peak / off-peak prices) has no dimension of ours and is deliberately not
 * published ({@link OVERRIDE_SKIPS}).
 */
export const OVERRIDE_THRESHOLD_KEY = "min_prompt_tokens";
/** Override keys that make a price set conditional on the time of day: not published. */
export const OVERRIDE_TIME_KEYS: readonly string[] = ["utc_start", "utc_end", "utc_days"];

/** Fields the adapter knows and deliberately does not publish, with the reason (`/sources`, T306). */
export const OVERRIDE_SKIPS: Readonly<Record<string, string>> = {
  "pricing.overrides[utc_start/utc_end/utc_days]":
    "time-of-day (peak / off-peak) prices: Tariff has no time-of-day dimension",
};
