import { type FieldRule, rule } from "../field-map.js";

/**
 * The field map of OpenAI's pricing page (T70, T290): what each value of a
 * `<TextTokenPricingTables tier="…" rows={[…]} />` row bills. The page does not print column
 * headers (the component renders them client-side), so the meaning of a position is the
 * component's, written down here once: model, input, cached input, output, USD per 1M tokens
 * ("Prices per 1M tokens." above the panes). A row of another length is a component this map does
 * not know, and fails the page rather than being read by position.
 */

/** The component whose rows are text-token prices. */
export const TEXT_TOKEN_COMPONENT = "TextTokenPricingTables";

/** The values of one row, in order, after the model cell. */
export const TEXT_TOKEN_COLUMNS = [
  { field: "input", rule: rule("input", "mtok", "1") },
  { field: "cached input", rule: rule("input", "mtok", "1", { cache: "read" }) },
  { field: "output", rule: rule("output", "mtok", "1") },
] as const satisfies readonly { field: string; rule: FieldRule }[];

/** The `tier` attribute of a pane → the dimension's tier. */
export const TIERS = { standard: "standard", batch: "batch", flex: "flex", priority: "priority" } as const;

/** How the page writes "no price" in a cell: `""`, `"-"` and `null`. */
export const NO_PRICE: readonly unknown[] = ["", "-", null];

/**
 * A model cell's bracket suffix (`gpt-5.5 (<272K context length)`): the row is the base bracket
 * (from 0), which is what every other source's unbracketed price means too; the page states no
 * price above the threshold, so nothing above it is published.
 */
export const BASE_BRACKET_SUFFIX = /\s*\(\s*<\s*\d+\s*K\s+context\s+length\s*\)\s*$/i;
