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
  internal_reasoning: tok("reasoning"),
  audio: tok("input", { modality: "audio" }),
  input_audio_cache: tok("input", { modality: "audio", cache: "read" }),
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
