import { rule } from "../field-map.js";
import type { ColumnMap } from "../shared/page-table.js";

/**
 * The field map of Anthropic's pricing page (T70, issue 46 §1, T405): which table column bills what,
 * keyed on the header text as {@link normaliseHeader} writes it (lower case, `&` → `and`), so a column
 * is found by its name on every copy, wherever it stands. Amounts are `$X / MTok` (USD per 1M tokens);
 * the web search fee is `$X per 1,000 searches`. A header no entry matches is counted unmapped.
 */

/** The column naming the model in every table. */
const MODEL = { field: "model", header: /^model(?: name)?$/ } as const;

/** "Model pricing" columns ("Base Input Tokens", "Input", "Input tokens" are one field). */
export const MODEL_PRICING_COLUMNS = [
  MODEL,
  { field: "input", header: /^(?:base )?input(?: tokens)?$/, rule: rule("input", "mtok", "1") },
  {
    field: "cacheWrite5m",
    header: /^(?:5m|5-minute|5 minute) cache writes?(?: tokens)?$/,
    rule: rule("input", "mtok", "1", { cache: "write" }),
  },
  {
    field: "cacheWrite1h",
    header: /^(?:1h|1-hour|1 hour) cache writes?(?: tokens)?$/,
    rule: rule("input", "mtok", "1", { cache: "write_1h" }),
  },
  {
    field: "cacheRead",
    header: /^cache (?:hits?|reads?)(?: and refreshes)?(?: tokens)?$/,
    rule: rule("input", "mtok", "1", { cache: "read" }),
  },
  { field: "output", header: /^(?:base )?output(?: tokens)?$/, rule: rule("output", "mtok", "1") },
] as const satisfies ColumnMap;

/** "Batch processing" columns: the section is the tier. */
export const BATCH_COLUMNS = [
  MODEL,
  { field: "input", header: /^(?:batch )?input(?: tokens)?$/, rule: rule("input", "mtok", "1", { tier: "batch" }) },
  { field: "output", header: /^(?:batch )?output(?: tokens)?$/, rule: rule("output", "mtok", "1", { tier: "batch" }) },
] as const satisfies ColumnMap;

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
export const FAST_MODE_COLUMNS = [
  MODEL,
  { field: "input", header: /^input(?: tokens)?$/, rule: rule("input", "mtok", "1", { tier: "priority" }) },
  { field: "output", header: /^output(?: tokens)?$/, rule: rule("output", "mtok", "1", { tier: "priority" }) },
] as const satisfies ColumnMap;

/** The web search fee: USD per 1,000 searches. */
export const WEB_SEARCH = rule("tool", "kcalls", "1", { qualifiers: { tool: "web_search" } });

/** The unit every price cell states after its amount. */
export const MTOK = /^\/\s*mtok$/i;
