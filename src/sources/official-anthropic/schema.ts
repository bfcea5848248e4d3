import { z } from "zod";

/**
 * Shapes read from Anthropic's pricing page (`pricing.md`, Mintlify Markdown). The page is text,
 * so these schemas validate what the Markdown table parser extracted, not JSON.
 */

/** A `$X / MTok` amount as written (decimal string, USD per 1M tokens). */
export const MtokAmount = z.string().regex(/^\d+(\.\d+)?$/);
export type MtokAmount = z.infer<typeof MtokAmount>;

/** One row of the "Model pricing" table. Cache columns may be absent on older pages. */
export const ModelPricingRow = z.object({
  /** Display name without notes, e.g. `Claude Opus 4.1`. */
  name: z.string().min(1),
  deprecated: z.boolean(),
  input: MtokAmount,
  cacheWrite5m: MtokAmount.nullable(),
  cacheWrite1h: MtokAmount.nullable(),
  cacheRead: MtokAmount.nullable(),
  output: MtokAmount,
});
export type ModelPricingRow = z.infer<typeof ModelPricingRow>;

/** One row of the "Batch processing" table. */
export const BatchRow = z.object({ name: z.string().min(1), input: MtokAmount, output: MtokAmount });
export type BatchRow = z.infer<typeof BatchRow>;

/** The "Long context pricing" section: models it names, threshold and the prices above it. */
export const LongContext = z.object({
  models: z.array(z.string().min(1)),
  threshold: z.number().int().positive(),
  input: MtokAmount.nullable(),
  output: MtokAmount.nullable(),
});
export type LongContext = z.infer<typeof LongContext>;

/** The "Fast mode pricing" section (T370): the models it names and their fast-mode prices (USD per 1M tokens). */
export const FastMode = z.object({
  models: z.array(z.string().min(1)).min(1),
  input: MtokAmount,
  output: MtokAmount,
});
export type FastMode = z.infer<typeof FastMode>;
