import { lookupTable } from "../../domain/lookup-table.js";
import { type FieldRule, rule } from "../field-map.js";

/**
 * The field map of Z.ai's pricing page (T70, issue 48): which column of which table bills what.
 * The "Text Models" table is read by header (`| Model | Input | Cached Input | Cached Input Storage |
 * Output |`, "Prices per 1M tokens", USD); the "Built-in Tools" table's `$X / use`; the "Image
 * Generation Models" table's price per image.
 */

/** "Text Models" columns, matched on the header text; `Cached Input Storage` is counted, not published (no unit stated). */
export const TEXT_COLUMNS = {
  input: { header: /^input$/i, rule: rule("input", "mtok", "1") },
  cachedInput: { header: /^cached input$/i, rule: rule("input", "mtok", "1", { cache: "read" }) },
  output: { header: /^output$/i, rule: rule("output", "mtok", "1") },
} as const satisfies Record<string, { header: RegExp; rule: FieldRule }>;

/** Columns of the "Text Models" table that are known and not published, with why. */
export const TEXT_SKIPPED = [
  { header: /^cached input storage$/i, reason: 'cache storage: no amount or unit stated ("Limited-time Free")' },
] as const;

/** The model column of every table. */
export const MODEL_COLUMN = /^model$/i;

/** A cell that states the model is free: a price of 0. */
export const FREE_CELL = /^free$/i;

/** A cell that states no price. */
export const NO_PRICE_CELL = /^(-|—|)$/;

/** "Built-in Tools": `Web Search` at `$X / use` → USD per 1K calls (×1000), tool `web_search`. */
export const TOOLS: Readonly<Record<string, FieldRule>> = lookupTable({
  "web search": rule("tool", "kcalls", "1000", { qualifiers: { tool: "web_search" } }),
});

/** "Image Generation Models": USD per image generated. */
export const IMAGE_PRICE = rule("output", "image", "1", { modality: "image" });
