import { z } from "zod";

/**
 * Shapes of the literals read from a Mistral model file (`src/schema/models/models/<slug>.ts` of
 * mistralai/platform-docs-public): `pricing` and `identifiers` (issue 48).
 */

/** One meter of a price list: `{ type: 'range' | 'flat', price: 0.4, denominator: '/M Tokens' }`. */
export const Meter = z.object({
  type: z.string().optional(),
  price: z.number().nonnegative(),
  denominator: z.string(),
});
export type Meter = z.infer<typeof Meter>;

/** `pricing`: input and output meter lists (`type: 'custom'`), or one flat price (`type: 'flat'`, moderation). */
export const Pricing = z.union([
  z.object({
    type: z.string().optional(),
    free: z.boolean().optional(),
    input: z.array(Meter),
    output: z.array(Meter),
  }),
  z.object({
    type: z.literal("flat"),
    free: z.boolean().optional(),
    price: z.number().nonnegative(),
    denominator: z.string(),
  }),
]);
export type Pricing = z.infer<typeof Pricing>;

/** `identifiers`: the API ids the model answers to. */
export const Identifiers = z.object({ apiNames: z.array(z.string().min(1)).min(1) });
