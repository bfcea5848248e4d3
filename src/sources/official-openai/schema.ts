import { z } from "zod";

/**
 * Shapes read from OpenAI's pricing page (`pricing.md`, Astro/MDX). The page is text; these
 * schemas validate what the component reader extracted: one `rows={[…]}` array of a
 * `TextTokenPricingTables` pane, each row a JS array literal that is also JSON.
 */

/** One cell after the model: a number (USD per 1M tokens) or a "no price" spelling. */
export const PriceCell = z.union([z.number().nonnegative(), z.literal(""), z.literal("-"), z.null()]);

/** One row: the model cell, then the price cells. */
export const TextTokenRow = z.tuple([z.string().min(1)], PriceCell);
export type TextTokenRow = z.infer<typeof TextTokenRow>;

/** The rows of one pane. */
export const TextTokenRows = z.array(TextTokenRow);
