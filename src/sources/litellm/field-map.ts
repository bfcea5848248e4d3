import { lookupTable } from "../../domain/lookup-table.js";
import { type FieldRule, type FieldSkip, perToken, rule } from "../field-map.js";

/**
 * The field map of LiteLLM's `model_prices_and_context_window.json` (T70; README "Prices").
 *
 * A price key reads `<base>[_above_<N>k_tokens][_batches|_batch_requests|_flex|_priority]`: the
 * base names what is billed ({@link BASE_RULES}), `_above_<N>k_tokens` the context bracket from
 * N×1000 tokens (the threshold LiteLLM states for that model), the suffix the service tier.
 * Amounts are USD per single token (×1e6 → per 1M tokens), per image, per second, per character
 * (×1e6 → per 1M characters), per request or query (×1000 → per 1K requests).
 */

const tok = perToken("1e6");

/**
 * Base keys in precedence order: when two keys give one dimension, the earlier wins (aliases last).
 */
export const BASE_RULES: ReadonlyArray<readonly [string, FieldRule]> = [
  ["input_cost_per_token", tok("input")],
  ["output_cost_per_token", tok("output")],
  ["output_cost_per_reasoning_token", tok("reasoning")],
  ["cache_read_input_token_cost", tok("input", { cache: "read" })],
  ["cache_creation_input_token_cost", tok("input", { cache: "write" })],
  ["cache_creation_input_token_cost_above_1hr", tok("input", { cache: "write_1h" })],
  ["input_cost_per_audio_token", tok("input", { modality: "audio" })],
  ["output_cost_per_audio_token", tok("output", { modality: "audio" })],
  ["input_cost_per_image_token", tok("input", { modality: "image" })],
  ["output_cost_per_image_token", tok("output", { modality: "image" })],
  ["output_cost_per_video_token", tok("output", { modality: "video" })],
  ["cache_read_input_audio_token_cost", tok("input", { modality: "audio", cache: "read" })],
  ["cache_creation_input_audio_token_cost", tok("input", { modality: "audio", cache: "write" })],
  ["cache_read_input_image_token_cost", tok("input", { modality: "image", cache: "read" })],
  ["input_cost_per_image", rule("input", "image", "1", { modality: "image" })],
  ["output_cost_per_image", rule("output", "image", "1", { modality: "image" })],
  [
    "output_cost_per_image_premium_image",
    rule("output", "image", "1", { modality: "image", qualifiers: { quality: "premium" } }),
  ],
  [
    "output_cost_per_image_above_512_and_512_pixels",
    rule("output", "image", "1", { modality: "image", qualifiers: { size: "above-512x512" } }),
  ],
  [
    "output_cost_per_image_above_512_and_512_pixels_and_premium_image",
    rule("output", "image", "1", { modality: "image", qualifiers: { size: "above-512x512", quality: "premium" } }),
  ],
  [
    "output_cost_per_image_above_1024_and_1024_pixels",
    rule("output", "image", "1", { modality: "image", qualifiers: { size: "above-1024x1024" } }),
  ],
  [
    "output_cost_per_image_above_1024_and_1024_pixels_and_premium_image",
    rule("output", "image", "1", { modality: "image", qualifiers: { size: "above-1024x1024", quality: "premium" } }),
  ],
  ["input_cost_per_audio_per_second", rule("input", "second", "1", { modality: "audio" })],
  ["input_cost_per_video_per_second", rule("input", "second", "1", { modality: "video" })],
  ["output_cost_per_video_per_second", rule("output", "second", "1", { modality: "video" })],
  ["input_cost_per_character", rule("input", "mchars", "1e6")],
  ["output_cost_per_character", rule("output", "mchars", "1e6")],
  ["input_cost_per_request", rule("request", "krequests", "1000")],
  ["input_cost_per_query", rule("request", "krequests", "1000")],
  ["file_search_cost_per_1k_calls", rule("tool", "kcalls", "1", { qualifiers: { tool: "file_search" } })],
  // aliases of keys above (the canonical key wins when both are present)
  ["input_cost_per_token_cache_hit", tok("input", { cache: "read" })],
  ["cache_read_input_token_cost_per_audio_token", tok("input", { modality: "audio", cache: "read" })],
];

/**
 * Keys whose meaning depends on the entry's `mode`: per-second prices are speech in (transcription)
 * or out (speech); in `image_generation`, `input_cost_per_image` is what one generated image costs
 * (DALL·E, gpt-image sizes) unless the entry also states `output_cost_per_image` (then it is the
 * input image, as in chat).
 */
export const MODE_RULES: Readonly<Record<string, Partial<Record<string, FieldRule>>>> = lookupTable({
  // The inner tables are indexed by the entry's `mode`, upstream text too (T250).
  input_cost_per_second: lookupTable({ audio_transcription: rule("input", "second", "1", { modality: "audio" }) }),
  output_cost_per_second: lookupTable({ audio_speech: rule("output", "second", "1", { modality: "audio" }) }),
  input_cost_per_image: lookupTable({ image_generation: rule("output", "image", "1", { modality: "image" }) }),
});

/**
 * A speech model (`mode: audio_speech`) bills its output as audio: its generic
 * `output_cost_per_token` is the audio output price (Gemini 2.5 Flash TTS), unless the entry states
 * `output_cost_per_audio_token` too — then that is the audio price and the generic key, a text output
 * a speech model does not have, is not published (T177).
 */
export const SPEECH_OUTPUT = tok("output", { modality: "audio" });

/**
 * Providers for which `input_cost_per_image` is LiteLLM's own per-image estimate of a seller that
 * bills images as prompt tokens: OpenRouter's list (its own source, authoritative for it) states no
 * per-image fee for Claude, LiteLLM's `openrouter/anthropic/*` 0.0048 per image is Anthropic's token
 * price of a typical image. Not published (T177).
 */
export const ESTIMATED_IMAGE_PROVIDERS: ReadonlySet<string> = new Set(["openrouter"]);

/** `search_context_cost_per_query.search_context_size_<s>`: USD per web search → per 1K calls. */
export function webSearchRule(contextSize: string): FieldRule {
  return rule("tool", "kcalls", "1000", { qualifiers: { tool: "web_search", context_size: contextSize } });
}

/** Base keys we know and do not publish (README "Skipped"). */
export const SKIPPED: Readonly<Record<string, FieldSkip>> = lookupTable({
  input_dbu_cost_per_token: { skip: "Databricks DBU, not money" },
  output_dbu_cost_per_token: { skip: "Databricks DBU, not money" },
  output_db_cost_per_token: { skip: "Databricks DBU, not money" },
  ocr_cost_per_credit: { skip: "credits, not money" },
  ocr_cost_per_page: { skip: "ocr mode is not carried" },
  annotation_cost_per_page: { skip: "ocr mode is not carried" },
  input_cost_per_pixel: { skip: "no per-pixel unit" },
  output_cost_per_pixel: { skip: "no per-pixel unit" },
  code_interpreter_cost_per_session: { skip: "no per-session unit" },
  computer_use_input_cost_per_1k_tokens: { skip: "a tool's token price, no dimension of ours" },
  computer_use_output_cost_per_1k_tokens: { skip: "a tool's token price, no dimension of ours" },
  citation_cost_per_token: { skip: "citation tokens, no dimension of ours" },
  file_search_cost_per_gb_per_day: { skip: "storage, not usage" },
  vector_store_cost_per_gb_per_day: { skip: "storage, not usage" },
  output_cost_per_second_1080p: { skip: "a resolution surcharge without its base" },
  guardrail_cost_per_unit: { skip: "no unit stated" },
  input_cost_per_second: { skip: "per-second keys outside transcription: provisioned throughput" },
  output_cost_per_second: { skip: "per-second keys outside speech: provisioned throughput, duplicates" },
});

/** `…_above_<N>s_interval`: a video-length surcharge; no dimension of ours. */
export const SKIPPED_PATTERN = /_above_\d+s_interval$/;

/**
 * Providers whose image-generation entries state per-token keys that are not token prices
 * (Fireworks bills its FLUX models per inference step: 0.00035 "per token" is per step).
 */
export const IMAGE_STEP_PROVIDERS: ReadonlySet<string> = new Set(["fireworks_ai"]);

/** Modes whose prices we carry; entries without `mode` are kept when they have token prices. */
export const MODES: ReadonlySet<string> = new Set([
  "chat",
  "completion",
  "responses",
  "embedding",
  "image_generation",
  "audio_transcription",
  "audio_speech",
  "rerank",
]);
