import { type FieldRule, rule } from "../field-map.js";
import type { ColumnMap } from "../shared/page-table.js";

/**
 * The field map of Moonshot's "模型推理价格说明" page (platform.moonshot.cn/docs/pricing/chat; T70,
 * issue 48, T509): which column of its tables bills what. Every table is read by its header
 * (normalised, `page-table.ts`), never by position: the tables differ in columns — the Kimi K2 table
 * has a cache-hit column, the kimi-latest table a request-size column, the moonshot-v1 table neither
 * (`输入价格` alone is the uncached input). Amounts are CNY (`￥4.00`) per the row's billing unit,
 * which must be `1M tokens` ("此处 1M = 1,000,000").
 */

/** The price fields, in the order a listing carries them, and what each bills (CNY per 1M tokens). */
export const PRICE_RULES = {
  input: rule("input", "mtok", "1"),
  cacheRead: rule("input", "mtok", "1", { cache: "read" }),
  output: rule("output", "mtok", "1"),
} as const satisfies Record<string, FieldRule>;

/** The price fields, in the order a listing carries them. */
export const PRICE_FIELDS = ["input", "cacheRead", "output"] as const;

/**
 * A table's columns → fields (normalised headers, the first match claims a column); the model cell is
 * read by the grammar of `model-names.ts`.
 */
export const COLUMNS = [
  { field: "model", header: /^模型$/ },
  { field: "bracket", header: /^请求上下文长度范围/ },
  { field: "unit", header: /^计费单位$/ },
  { field: "cacheRead", header: /^输入价格\s*[（(]缓存命中[）)]$/, rule: PRICE_RULES.cacheRead },
  { field: "input", header: /^输入价格(?:\s*[（(]缓存未命中[）)])?$/, rule: PRICE_RULES.input },
  { field: "output", header: /^输出价格$/, rule: PRICE_RULES.output },
  { field: "context", header: /^模型上下文长度$/ },
] as const satisfies ColumnMap;

/** A field of {@link COLUMNS}. */
export type Field = (typeof COLUMNS)[number]["field"];

/** Fields a row must price to be read; a cache-hit price is optional (the moonshot-v1 table has none). */
export const REQUIRED: readonly Field[] = ["input", "output"];

/** The one billing unit read (the `计费单位` cell, normalised): 1M tokens. */
export const BILLING_UNIT = /^1m tokens$/;

/**
 * The request-size bracket of a kimi-latest row ("自动选择计费模型": the request's context length picks
 * the price): `≤ 8,192 tokens` → [0, 8192]; `8,192 < 长度 ≤ 32,768 tokens` → [8192, 32768]. The
 * bounds are request tokens; a request is billed whole in the bracket its length falls in (T141).
 */
export const BRACKET = /^(?:(\d[\d,]*)\s*<\s*长度\s*)?≤\s*(\d[\d,]*)\s*tokens$/i;

/** The page's currency (ISO 4217), written `￥` before the amount. */
export const CURRENCY = "CNY";
