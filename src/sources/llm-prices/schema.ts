import { z } from "zod";

/**
 * Zod schemas of llm-prices (simonw/llm-prices) feeds `current-v1.json` and `historical-v1.json`.
 * Amounts are USD per 1M tokens. Objects are loose (unknown keys allowed). The files are validated
 * as a whole only down to the `prices` array; each row is validated on its own so a malformed row
 * is skipped instead of failing the payload.
 */

/** A `YYYY-MM-DD` date. */
const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** An amount: a number; null / absent = no such price; any other value is read as null (skipped, not an error). */
const Amount = z.number().nullish().catch(null);

/**
 * One price row: `input` / `output` / `input_cached` in USD per 1M tokens; `input_cached: null` = no
 * cached price. A row without `id` or `vendor` does not validate.
 */
export const LlmPricesRow = z.looseObject({
  id: z.string().min(1),
  vendor: z.string().min(1),
  name: z.string().nullish(),
  input: Amount,
  output: Amount,
  input_cached: Amount,
});
export type LlmPricesRow = z.infer<typeof LlmPricesRow>;

/** `current-v1.json`: `{updated_at, prices: [row]}`. */
export const LlmPricesCurrentFile = z.looseObject({
  updated_at: z.string().nullish(),
  prices: z.array(z.unknown()),
});
export type LlmPricesCurrentFile = z.infer<typeof LlmPricesCurrentFile>;

/** A historical row: a price row valid from `from_date` (inclusive) to `to_date` (exclusive); null = open. */
export const LlmPricesHistoricalRow = LlmPricesRow.extend({
  from_date: IsoDate.nullish(),
  to_date: IsoDate.nullish(),
});
export type LlmPricesHistoricalRow = z.infer<typeof LlmPricesHistoricalRow>;

/** `historical-v1.json`: `{prices: [historical row]}`. */
export const LlmPricesHistoricalFile = z.looseObject({
  prices: z.array(z.unknown()),
});
export type LlmPricesHistoricalFile = z.infer<typeof LlmPricesHistoricalFile>;
