import { type FieldRule, rule } from "../field-map.js";

/**
 * The field map of DeepSeek's "Models & Pricing" page (T70, issue 48), English (USD) and Chinese
 * (CNY) editions. The page's model table is a recorder's flattening of an HTML table into one bold
 * pseudo-table (`**MODEL| deepseek-chat| deepseek-reasoner` … `**`): the MODEL row names the
 * columns (the API ids), the PRICING row and the lines after it are `label| price[| price]`, one
 * price for every model when the page merged the cells. Amounts are per 1M tokens ("The prices
 * listed below are in units of per 1M tokens").
 */

/** The row that names the models (its first cell), per edition. */
export const MODEL_ROW = /^\*\*(MODEL|模型)\|/;
/** The row that opens the prices (its first cell). */
export const PRICING_ROW = /^(PRICING|价格)\|/;

/**
 * Price row labels → rule. Anything else under PRICING (an off-peak/discount row, which DeepSeek's
 * page had before 2025-09 with its UTC hours) is counted, never read as the standard price.
 */
export const PRICE_ROWS: readonly { readonly label: RegExp; readonly rule: FieldRule }[] = [
  {
    label: /^1M INPUT TOKENS \(CACHE HIT\)$|^百万tokens输入（缓存命中）$/i,
    rule: rule("input", "mtok", "1", { cache: "read" }),
  },
  { label: /^1M INPUT TOKENS \(CACHE MISS\)$|^百万tokens输入（缓存未命中）$/i, rule: rule("input", "mtok", "1") },
  { label: /^1M OUTPUT TOKENS$|^百万tokens输出$/i, rule: rule("output", "mtok", "1") },
];

/** A price cell: `$0.028` (USD, English page) or `0.2元` (CNY, Chinese page). */
export const PRICE_CELL = /^(?:\$(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)元)$/;
