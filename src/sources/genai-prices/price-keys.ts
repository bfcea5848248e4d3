import type { CacheKind, Direction, Modality } from "../../domain/dimension.js";
import type { Unit } from "../../domain/unit.js";

/**
 * How one genai-prices price key maps to our dimension vocabulary (D27) and unit.
 * `factor` converts the upstream amount to the unit's amount with `scaleAmount` (exact decimals, D7).
 */
export interface PriceKeySpec {
  readonly direction: Direction;
  readonly modality: Modality;
  readonly cache: CacheKind;
  readonly qualifiers: Readonly<Record<string, string>>;
  readonly unit: Unit;
  readonly factor: string;
}

const NONE: Readonly<Record<string, string>> = {};

function mtok(
  direction: Direction,
  modality: Modality,
  cache: CacheKind = "none",
  qualifiers: Readonly<Record<string, string>> = NONE,
): PriceKeySpec {
  return { direction, modality, cache, qualifiers, unit: "mtok", factor: "1" };
}

function perThousandCalls(tool: string): PriceKeySpec {
  return { direction: "tool", modality: "text", cache: "none", qualifiers: { tool }, unit: "kcalls", factor: "1" };
}

/**
 * The closed price-key set of the v1 feed (`prices/data.json`, every recorded snapshot). Amounts
 * are USD per 1M tokens (`*_mtok`) or USD per 1,000 requests (`requests_kcount`).
 */
export const V1_PRICE_KEYS: Readonly<Record<string, PriceKeySpec>> = {
  input_mtok: mtok("input", "text"),
  output_mtok: mtok("output", "text"),
  cache_read_mtok: mtok("input", "text", "read"),
  cache_write_mtok: mtok("input", "text", "write"),
  input_audio_mtok: mtok("input", "audio"),
  output_audio_mtok: mtok("output", "audio"),
  cache_audio_read_mtok: mtok("input", "audio", "read"),
  requests_kcount: {
    direction: "request",
    modality: "text",
    cache: "none",
    qualifiers: NONE,
    unit: "krequests",
    factor: "1",
  },
};

/**
 * Price keys of the v2 feed (`prices/new_data/v2/data.json`, `ModelPrice` of its JSON Schema) on top
 * of the v1 keys. Order matters: when two keys land on the same dimension (`input_text_mtok` and
 * `input_mtok`, `cache_write_5m_mtok` and `cache_write_mtok`), the key listed first wins, so the
 * explicit (modality- or TTL-specific) keys come before the generic v1 ones.
 *
 * Not mapped (no unit or no direction in our vocabulary): `audio_hours` (direction not stated),
 * `input_gpixels`, `input_text_messages_kcount`.
 */
export const V2_PRICE_KEYS: Readonly<Record<string, PriceKeySpec>> = {
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
  input_mchars: { direction: "input", modality: "text", cache: "none", qualifiers: NONE, unit: "mchars", factor: "1" },
  input_audio_hours: {
    direction: "input",
    modality: "audio",
    cache: "none",
    qualifiers: NONE,
    unit: "hour",
    factor: "1",
  },
  output_audio_hours: {
    direction: "output",
    modality: "audio",
    cache: "none",
    qualifiers: NONE,
    unit: "hour",
    factor: "1",
  },
  // USD per 1,000 pages → USD per page
  input_document_kpages: {
    direction: "input",
    modality: "text",
    cache: "none",
    qualifiers: { content: "document" },
    unit: "page",
    factor: "0.001",
  },
  input_annotated_document_kpages: {
    direction: "input",
    modality: "text",
    cache: "none",
    qualifiers: { content: "annotated-document" },
    unit: "page",
    factor: "0.001",
  },
  web_searches_kcount: perThousandCalls("web_search"),
  social_searches_kcount: perThousandCalls("social_search"),
  storage_searches_kcount: perThousandCalls("storage_search"),
  rerank_searches_kcount: perThousandCalls("rerank"),
  code_executions_kcount: perThousandCalls("code_execution"),
};
