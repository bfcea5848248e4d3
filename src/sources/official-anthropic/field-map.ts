import { type FieldRule, rule } from "../field-map.js";

/**
 * The field map of Anthropic's pricing page (T70): which table column bills what. Amounts are
 * `$X / MTok` (USD per 1M tokens); the web search fee is `$X per 1,000 searches`. The long-context
 * bracket starts at the threshold the page's "Long context pricing" table states (`> 200K`).
 */

/** "Model pricing" columns, matched on the header text. */
export const MODEL_PRICING_COLUMNS = {
  input: { header: /base input/i, rule: rule("input", "mtok", "1") },
  cacheWrite5m: { header: /5m cache write/i, rule: rule("input", "mtok", "1", { cache: "write" }) },
  cacheWrite1h: { header: /1h cache write/i, rule: rule("input", "mtok", "1", { cache: "write_1h" }) },
  cacheRead: { header: /cache hit/i, rule: rule("input", "mtok", "1", { cache: "read" }) },
  output: { header: /output/i, rule: rule("output", "mtok", "1") },
} as const satisfies Record<string, { header: RegExp; rule: FieldRule }>;

/** "Batch processing" columns. */
export const BATCH_COLUMNS = {
  input: { header: /batch input/i, rule: rule("input", "mtok", "1", { tier: "batch" }) },
  output: { header: /batch output/i, rule: rule("output", "mtok", "1", { tier: "batch" }) },
} as const satisfies Record<string, { header: RegExp; rule: FieldRule }>;

/** "Long context pricing" rows (`Input: $6 / MTok`, `Output: …`) under the `> <N>K input tokens` column. */
export const LONG_CONTEXT_ROWS = {
  input: rule("input", "mtok", "1"),
  output: rule("output", "mtok", "1"),
} as const;

/**
 * "Fast mode pricing" columns (2026-03 on: `| Input | Output |`, one row, naming no model: the prose
 * above names the models, "Currently supported on Opus 4.6"). Fast mode is the `priority` tier
 * (T370: one axis value for paid faster processing, as OpenAI's `fast` is, T302). No bracket: "Fast
 * mode pricing applies across the full context window, including requests over 200K input tokens".
 */
export const FAST_MODE_COLUMNS = {
  input: { header: /^input$/i, rule: rule("input", "mtok", "1", { tier: "priority" }) },
  output: { header: /^output$/i, rule: rule("output", "mtok", "1", { tier: "priority" }) },
} as const satisfies Record<string, { header: RegExp; rule: FieldRule }>;

/** The web search fee: USD per 1,000 searches. */
export const WEB_SEARCH = rule("tool", "kcalls", "1", { qualifiers: { tool: "web_search" } });

/** The column naming the model in every table. */
export const MODEL_COLUMN = /^model$/i;
