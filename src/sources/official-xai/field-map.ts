import { lookupTable } from "../../domain/lookup-table.js";
import { type FieldRule, rule } from "../field-map.js";

/**
 * The field map of xAI's "Models and Pricing" page (T70, issue 48). The "Model Pricing" table is
 * read by header (`| Model | … | Context | Rate limits | Pricing |`); section rows inside it
 * (`| Language models |  | Per million tokens |`) say what the Pricing cells of the rows under them
 * bill. A Language-model cell glues input and output (`$0.20$0.50`): two amounts, in that order.
 * The "Tool Invocation Costs" table gives USD per 1,000 calls per tool.
 */

/** Model Pricing columns. */
export const COLUMNS = { model: /^model$/i, context: /^context$/i, pricing: /^pricing$/i } as const;

/** A section row's unit text → the rules of the Pricing cell's amounts, in order. */
export const SECTIONS: readonly { readonly unit: RegExp; readonly rules: readonly FieldRule[] }[] = [
  { unit: /^per million tokens$/i, rules: [rule("input", "mtok", "1"), rule("output", "mtok", "1")] },
  { unit: /^per image output$/i, rules: [rule("output", "image", "1", { modality: "image" })] },
];

/** The Tool Invocation Costs columns. */
export const TOOL_COLUMNS = { tool: /^tool$/i, cost: /^cost per 1,?000 calls$/i } as const;

/** Tool names as the page writes them → the `tool` qualifier (USD per 1K calls, factor 1). */
export const TOOLS: Readonly<Record<string, string>> = lookupTable({
  "web search": "web_search",
  "x search": "x_search",
  "code execution": "code_execution",
  "document search": "document_search",
  "collections search": "collections_search",
});

/** A tool price rule. */
export function toolRule(tool: string): FieldRule {
  return rule("tool", "kcalls", "1", { qualifiers: { tool } });
}
