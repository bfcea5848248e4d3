import { rule } from "../field-map.js";
import type { ColumnMap } from "../shared/page-table.js";

/**
 * The field map of OpenAI's pricing page (T70, T290; issue 46 §1, T405): what each value of a
 * `<TextTokenPricingTables tier="…" rows={[…]} />` row bills, keyed on the column's name as
 * {@link normaliseHeader} writes it. The page reads a pane's columns from what the pane gives: a
 * `columns={[…]}` header prop, or object rows keyed by column (`cachedInput` → `cached input`);
 * the recorded copies give neither (the component renders its headers client-side), so a pane with
 * no header has the component's {@link DEFAULT_COLUMNS}, and a row of another length fails the page
 * rather than being read by position. USD per 1M tokens ("Prices per 1M tokens." above the panes).
 */

/** The component whose rows are text-token prices. */
export const TEXT_TOKEN_COMPONENT = "TextTokenPricingTables";

/** Columns by name. */
export const TEXT_TOKEN_COLUMNS = [
  { field: "model", header: /^model(?: name)?$/ },
  { field: "input", header: /^input(?: tokens)?$/, rule: rule("input", "mtok", "1") },
  {
    field: "cachedInput",
    header: /^(?:cached input|cache reads?|cached input tokens)$/,
    rule: rule("input", "mtok", "1", { cache: "read" }),
  },
  {
    field: "cacheWrite",
    header: /^(?:cache writes?|cached writes?|cache write tokens)$/,
    rule: rule("input", "mtok", "1", { cache: "write" }),
  },
  { field: "output", header: /^output(?: tokens)?$/, rule: rule("output", "mtok", "1") },
] as const satisfies ColumnMap;

/** The component's own header, for a pane that gives none (every recorded copy). */
export const DEFAULT_COLUMNS = ["Model", "Input", "Cached input", "Output"] as const;

/** The `tier` attribute of a pane → the dimension's tier. */
export const TIERS = { standard: "standard", batch: "batch", flex: "flex", priority: "priority" } as const;

/**
 * A model cell's bracket suffix (`gpt-5.5 (<272K context length)`): the row is the base bracket
 * (from 0), which is what every other source's unbracketed price means too; the page states no
 * price above the threshold, so nothing above it is published.
 */
export const BASE_BRACKET_SUFFIX = /\s*\(\s*<\s*\d+\s*K\s+context\s+length\s*\)\s*$/i;
