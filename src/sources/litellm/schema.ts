import { z } from "zod";

/**
 * Zod schemas of LiteLLM's `model_prices_and_context_window.json`. Only the fields the adapter
 * reads are typed; the ~90 price keys are read by name pattern from the loose entry (see index.ts); a cost is a JSON number
 * (USD per unit) or, defensively, a decimal string.
 */

/** One `tiered_pricing` element: prices that apply for prompts in `range: [lo, hi]` tokens. */
export const LitellmTier = z.looseObject({
  range: z.tuple([z.number(), z.number()]),
});
export type LitellmTier = z.infer<typeof LitellmTier>;

/** One model entry (keyed by LiteLLM model key). */
export const LitellmEntry = z.looseObject({
  litellm_provider: z.string(),
  mode: z.string().optional(),
  max_input_tokens: z.number().nullish(),
  max_output_tokens: z.number().nullish(),
  max_tokens: z.number().nullish(),
  deprecation_date: z.string().nullish(),
  search_context_cost_per_query: z.record(z.string(), z.unknown()).optional(),
  tiered_pricing: z.array(z.unknown()).optional(),
});
export type LitellmEntry = z.infer<typeof LitellmEntry>;

/** The whole file: an object keyed by model key (entries validated one by one). */
export const LitellmFile = z.record(z.string(), z.unknown());
export type LitellmFile = z.infer<typeof LitellmFile>;
