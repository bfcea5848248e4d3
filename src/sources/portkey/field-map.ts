import { lookupTable } from "../../domain/lookup-table.js";
import { type FieldRule, type FieldSkip, perToken, rule } from "../field-map.js";

/**
 * The field map of Portkey's pricing files (T70; README "Mapping"). Every amount is US cents per
 * unit: token rates ×1e4 → USD per 1M tokens, per-unit rates (image, second, minute) ×0.01, per
 * call ×10 → USD per 1K calls.
 */

/** Cents per token → USD per 1M tokens. */
export const TOKEN = "1e4";
/** Cents per unit → USD per unit. */
export const CENTS = "0.01";
/** Cents per call → USD per 1K calls (or requests). */
export const PER_K = "10";

const tok = perToken(TOKEN);
const tool = (name: string, extra: Record<string, string> = {}) =>
  rule("tool", "kcalls", PER_K, { qualifiers: { tool: name, ...extra } });

/**
 * Token rate keys of `pay_as_you_go` / `batch_config`, in precedence order: when two keys land on
 * the same dimension, the first one present wins (modality-specific keys before generic ones).
 */
export const TOKEN_RULES: ReadonlyArray<readonly [string, FieldRule]> = [
  ["request_text_token", tok("input")],
  ["request_token", tok("input")],
  ["response_text_token", tok("output")],
  ["response_token", tok("output")],
  ["reasoning_token", tok("reasoning")],
  ["cache_read_text_input_token", tok("input", { cache: "read" })],
  ["cached_text_input_token", tok("input", { cache: "read" })],
  ["cache_read_input_token", tok("input", { cache: "read" })],
  ["cache_write_input_token", tok("input", { cache: "write" })],
  ["request_image_token", tok("input", { modality: "image" })],
  ["response_image_token", tok("output", { modality: "image" })],
  ["cache_read_image_input_token", tok("input", { modality: "image", cache: "read" })],
  ["cached_image_input_token", tok("input", { modality: "image", cache: "read" })],
  ["request_audio_token", tok("input", { modality: "audio" })],
  ["response_audio_token", tok("output", { modality: "audio" })],
  ["cache_read_audio_input_token", tok("input", { modality: "audio", cache: "read" })],
  // Issue 37 §6 (T306): generated video billed per token (Veo-style models).
  ["output_video_token", tok("output", { modality: "video" })],
];

/** Keys of a rates object that are not a rate of their own (read by the adapter as structure). */
export const STRUCTURE_KEYS: ReadonlySet<string> = new Set(["additional_units", "image"]);

/** `additional_units` keys we publish. */
export const UNIT_RULES: Readonly<Record<string, FieldRule>> = lookupTable({
  embedding_text_token: tok("input"),
  embedding_image_token: tok("input", { modality: "image" }),
  cache_write_1h: tok("input", { cache: "write_1h" }),
  thinking_token: tok("reasoning"),
  image_token: tok("output", { modality: "image" }),
  request_audio_token: tok("input", { modality: "audio" }),
  response_audio_token: tok("output", { modality: "audio" }),
  web_search: tool("web_search"),
  search: tool("web_search"),
  web_search_low_context: tool("web_search", { context_size: "low" }),
  web_search_medium_context: tool("web_search", { context_size: "medium" }),
  web_search_high_context: tool("web_search", { context_size: "high" }),
  enterprise_web_search: tool("enterprise_web_search"),
  file_search: tool("file_search"),
  // Issue 37 §6 (T306): server-side tools billed per call, cents per call like `web_search`
  // (Portkey-AI/models docs/SCHEMA.md "Additional Units": `{price}` per call): xAI's code execution,
  // X search and collections (attachment) search, Google Maps grounding.
  code_execution: tool("code_execution"),
  x_search: tool("x_search"),
  attachment_search: tool("attachment_search"),
  maps: tool("google_maps"),
  output_video_token: tok("output", { modality: "video" }),
  video_seconds: rule("output", "second", CENTS, { modality: "video" }),
  generated_images: rule("output", "image", CENTS, { modality: "image" }),
  image_1k: rule("output", "image", CENTS, { modality: "image", qualifiers: { size: "1k" } }),
  input_image: rule("input", "image", CENTS, { modality: "image" }),
  input_video_plus: rule("input", "second", CENTS, { modality: "video", qualifiers: { quality: "plus" } }),
  input_video_standard: rule("input", "second", CENTS, { modality: "video", qualifiers: { quality: "standard" } }),
  input_video_essential: rule("input", "second", CENTS, { modality: "video", qualifiers: { quality: "essential" } }),
});

/** `additional_units` keys we know and do not publish. */
export const SKIPPED_UNITS: Readonly<Record<string, FieldSkip>> = lookupTable({
  routing_units: { skip: "Portkey's own routing fee, not the seller's price" },
  megapixels: { skip: "no per-megapixel unit" },
  default_duration_seconds: { skip: "a request default, not a price" },
  default_sample_count: { skip: "a request default, not a price" },
  default_steps: { skip: "a request default, not a price" },
});

/** `video_duration_seconds_<w>_<h>`: cents per generated second at that resolution. */
export const VIDEO_SIZE_KEY = /^video_duration_seconds_(\d+)_(\d+)$/;

/** The rule of a `video_duration_seconds_<w>_<h>` key. */
export function videoSizeRule(width: string, height: string): FieldRule {
  return rule("output", "second", CENTS, { modality: "video", qualifiers: { size: `${width}x${height}` } });
}

/** Context tiers as separate keys: `<model>-lte-<N>k` (the base) and `<model>-gt-<N>k` (from N×1000 tokens). */
export const CONTEXT_TIER_KEY = /^(.+)-(lte|gt)-(\d+)k$/;

/**
 * Context-tier keys Portkey writes by a template, not from the maker's price list: every Google
 * Gemini entry of the `google` and `vertex-ai` files is split at 128K, Gemini 2.5 Pro and 3 Pro
 * included (their `-gt-128k` entries hold Google's > 200K prices), Flash models that have no
 * bracket at all too. Google priced at 128K only Gemini 1.5, so for every other model the
 * threshold is not one Portkey states for that model (T72): the `-lte-` entry is the base price
 * and the `-gt-` entry is not published.
 */
export const TEMPLATE_BRACKETS: readonly {
  readonly files: readonly string[];
  readonly threshold: number;
  readonly realFor: RegExp;
}[] = [{ files: ["google", "vertex-ai"], threshold: 128_000, realFor: /^gemini-1\.5/ }];

/** Speech-to-text models whose audio rate is cents per MINUTE of audio. */
export const TRANSCRIPTION = /whisper|transcribe/i;
/** OpenAI-style TTS models whose `request_token` is cents per input CHARACTER. */
export const TTS_PER_CHAR = /^tts(-1)?(-hd)?(-\d+)?$/i;
/**
 * Speech models billed per token (`-tts` ids other than OpenAI's per-character TTS, {@link TTS_PER_CHAR}):
 * they write audio, so `response_token` is the audio output price (Gemini 2.5 Flash TTS 0.001 ¢ = 10
 * USD per 1M audio tokens), or, beside a `response_audio_token`, no price (its 0 is a placeholder) (T177).
 */
export const SPEECH = /(^|[-_./])tts([-_./]|$)/i;
/** The rule of a speech model's `response_token`. */
export const SPEECH_OUTPUT = perToken(TOKEN)("output", { modality: "audio" });
/** Rerankers; with a `request_token` ≥ 0.01 ¢ it is cents per search, not per token. */
export const RERANK = /rerank|ranker/i;

/** Special-case rules of the model families above. */
export const TRANSCRIPTION_AUDIO = rule("input", "minute", CENTS, { modality: "audio" });
/**
 * A transcription model's `request_audio_token` below this many cents is cents per audio TOKEN, not
 * per minute (T366): Portkey's dated and diarize entries (`gpt-4o-mini-transcribe-2025-03-20` 0.0003 ¢
 * = 3 USD per 1M audio tokens, `gpt-4o-transcribe-diarize` 0.0006 ¢ = 6, OpenAI's audio input
 * prices), where its aliases and Whisper state cents per minute (0.3 ¢ = 0.003 USD/min). 0.01 ¢ a
 * minute would be 0.006 USD an hour, and 0.01 ¢ a token 100 USD per 1M audio tokens: neither is sold.
 */
export const TRANSCRIPTION_PER_TOKEN_BELOW = 0.01;
/** The rule of a transcription model's per-token audio rate (T366). */
export const TRANSCRIPTION_AUDIO_TOKEN = tok("input", { modality: "audio" });
export const TTS_CHARS = rule("input", "mchars", TOKEN);
export const RERANK_SEARCH = rule("request", "krequests", PER_K);
/** `fixed_cost.request`: cents per request → USD per 1K requests. */
export const FIXED_REQUEST = rule("request", "krequests", PER_K);
/** `image: {quality: {size: {price}}}`: cents per generated image. */
export function imageRule(qualifiers: Record<string, string>): FieldRule {
  return rule("output", "image", CENTS, { modality: "image", qualifiers });
}
