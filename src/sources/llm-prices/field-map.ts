import { lookupTable } from "../../domain/lookup-table.js";
import { type FieldRule, rule } from "../field-map.js";

/**
 * The field map of llm-prices `current-v1.json` / `historical-v1.json` rows (T70). Amounts are USD
 * per 1M tokens. A row `<base>-<N>k` named `… >Nk` is the base model's bracket from N×1000 tokens
 * (a threshold llm-prices states for that model, see `index.ts`).
 */
export const ROW_RULES: Readonly<Record<string, FieldRule>> = lookupTable({
  input: rule("input", "mtok", "1"),
  output: rule("output", "mtok", "1"),
  input_cached: rule("input", "mtok", "1", { cache: "read" }),
});

/** Row keys that are not prices. */
export const ROW_METADATA: ReadonlySet<string> = new Set(["id", "vendor", "name", "from_date", "to_date"]);
