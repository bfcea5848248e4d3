import type { CacheKind, Direction, Modality } from "../../domain/dimension.js";
import { lookupTable } from "../../domain/lookup-table.js";
import { type FieldRule, type FieldSkip, rule } from "../field-map.js";

/**
 * The field map of genai-prices (T70): each price key of a `ModelPrice` object → what it bills.
 * Amounts are USD per 1M tokens (`*_mtok`), per 1,000 requests or calls (`*_kcount`), per 1M
 * characters, per hour of audio, per 1,000 pages. Context brackets come from a tiered value
 * `{base, tiers: [{start, price}]}` (the base at [0, open), each tier from its `start`); time
 * windows and dated lists from the conditional `prices` list (see `index.ts`, T71).
 */

function mtok(
  direction: Direction,
  modality: Modality,
  cache: CacheKind = "none",
  qualifiers: Readonly<Record<string, string>> = {},
): FieldRule {
  return rule(direction, "mtok", "1", { modality, cache, qualifiers });
}

function perThousandCalls(tool: string): FieldRule {
  return rule("tool", "kcalls", "1", { qualifiers: { tool } });
}

const NONE: Readonly<Record<string, string>> = lookupTable({});

/**
 * The closed price-key set of the v1 feed (`prices/data.json`, every recorded snapshot). Amounts
 * are USD per 1M tokens (`*_mtok`) or USD per 1,000 requests (`requests_kcount`).
 */
export const V1_PRICE_KEYS: Readonly<Record<string, FieldRule>> = lookupTable({
  input_mtok: mtok("input", "text"),
  output_mtok: mtok("output", "text"),
  cache_read_mtok: mtok("input", "text", "read"),
  cache_write_mtok: mtok("input", "text", "write"),
  input_audio_mtok: mtok("input", "audio"),
  output_audio_mtok: mtok("output", "audio"),
  cache_audio_read_mtok: mtok("input", "audio", "read"),
  requests_kcount: rule("request", "krequests", "1", { qualifiers: NONE }),
});

/**
 * Price keys of the v2 feed (`prices/new_data/v2/data.json`, `ModelPrice` of its JSON Schema) on top
 * of the v1 keys. Order matters: when two keys land on the same dimension (`input_text_mtok` and
 * `input_mtok`, `cache_write_5m_mtok` and `cache_write_mtok`), the key listed first wins, so the
 * explicit (modality- or TTL-specific) keys come before the generic v1 ones.
 *
 * Known and not published: {@link V2_SKIPPED_KEYS}. Any other key is unmapped (counted, T70).
 */
export const V2_PRICE_KEYS: Readonly<Record<string, FieldRule>> = lookupTable({
  input_text_mtok: mtok("input", "text"),
  output_text_mtok: mtok("output", "text"),
  cache_text_read_mtok: mtok("input", "text", "read"),
  cache_text_write_5m_mtok: mtok("input", "text", "write"),
  cache_write_5m_mtok: mtok("input", "text", "write"),
  cache_text_write_mtok: mtok("input", "text", "write"),
  cache_text_write_1h_mtok: mtok("input", "text", "write_1h"),
  cache_write_1h_mtok: mtok("input", "text", "write_1h"),
  ...V1_PRICE_KEYS,
  cache_audio_write_5m_mtok: mtok("input", "audio", "write"),
  cache_audio_write_mtok: mtok("input", "audio", "write"),
  cache_audio_write_1h_mtok: mtok("input", "audio", "write_1h"),
  input_image_mtok: mtok("input", "image"),
  output_image_mtok: mtok("output", "image"),
  cache_image_read_mtok: mtok("input", "image", "read"),
  cache_image_write_5m_mtok: mtok("input", "image", "write"),
  cache_image_write_mtok: mtok("input", "image", "write"),
  cache_image_write_1h_mtok: mtok("input", "image", "write_1h"),
  input_video_mtok: mtok("input", "video"),
  output_video_mtok: mtok("output", "video"),
  cache_video_read_mtok: mtok("input", "video", "read"),
  cache_video_write_5m_mtok: mtok("input", "video", "write"),
  cache_video_write_mtok: mtok("input", "video", "write"),
  cache_video_write_1h_mtok: mtok("input", "video", "write_1h"),
  input_text_tool_mtok: mtok("input", "text", "none", { token_kind: "tool" }),
  input_tool_mtok: mtok("input", "text", "none", { token_kind: "tool" }),
  input_audio_tool_mtok: mtok("input", "audio", "none", { token_kind: "tool" }),
  input_image_tool_mtok: mtok("input", "image", "none", { token_kind: "tool" }),
  input_video_tool_mtok: mtok("input", "video", "none", { token_kind: "tool" }),
  output_text_reasoning_mtok: mtok("reasoning", "text"),
  output_reasoning_mtok: mtok("reasoning", "text"),
  output_audio_reasoning_mtok: mtok("reasoning", "audio"),
  output_image_reasoning_mtok: mtok("reasoning", "image"),
  output_video_reasoning_mtok: mtok("reasoning", "video"),
  output_text_citation_mtok: mtok("output", "text", "none", { token_kind: "citation" }),
  output_citation_mtok: mtok("output", "text", "none", { token_kind: "citation" }),
  output_audio_citation_mtok: mtok("output", "audio", "none", { token_kind: "citation" }),
  output_image_citation_mtok: mtok("output", "image", "none", { token_kind: "citation" }),
  output_video_citation_mtok: mtok("output", "video", "none", { token_kind: "citation" }),
  input_mchars: rule("input", "mchars", "1"),
  input_audio_hours: rule("input", "hour", "1", { modality: "audio" }),
  output_audio_hours: rule("output", "hour", "1", { modality: "audio" }),
  // USD per 1,000 pages → USD per page
  input_document_kpages: rule("input", "page", "0.001", { qualifiers: { content: "document" } }),
  input_annotated_document_kpages: rule("input", "page", "0.001", { qualifiers: { content: "annotated-document" } }),
  web_searches_kcount: perThousandCalls("web_search"),
  social_searches_kcount: perThousandCalls("social_search"),
  storage_searches_kcount: perThousandCalls("storage_search"),
  rerank_searches_kcount: perThousandCalls("rerank"),
  code_executions_kcount: perThousandCalls("code_execution"),
});

/** v2 keys we know and do not publish: no unit or no direction of ours. */
export const V2_SKIPPED_KEYS: Readonly<Record<string, FieldSkip>> = lookupTable({
  audio_hours: { skip: "direction not stated (input or output audio)" },
  input_gpixels: { skip: "no per-gigapixel unit" },
  input_text_messages_kcount: { skip: "no per-message unit" },
});
