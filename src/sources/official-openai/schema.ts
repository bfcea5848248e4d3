import { z } from "zod";

/**
 * Shapes read from OpenAI's pricing page (`pricing.md`, Astro/MDX). The page is text; these
 * schemas validate what the component reader extracted: one `rows={[…]}` array of a
 * `TextTokenPricingTables` pane — each row a JS array literal (model cell, then values in the
 * pane's column order) or an object keyed by column — and its optional `columns={[…]}` header.
 */

/** One value after the model: a number (USD per 1M tokens), a "not offered" spelling, or text (not read as a price). */
export const PriceCell = z.union([z.number().nonnegative(), z.string(), z.null()]);
export type PriceCell = z.infer<typeof PriceCell>;

/** One array row: the cells in the pane's column order (the model's cell first unless the pane's header says otherwise). */
export const TextTokenRow = z.array(PriceCell).min(1);
export type TextTokenRow = z.infer<typeof TextTokenRow>;

/** One object row: values keyed by column (`{ model: "gpt-5", input: 1.25, cachedInput: 0.125, output: 10 }`). */
export const TextTokenObjectRow = z.record(z.string(), PriceCell);

/** The rows of one pane. */
export const TextTokenRows = z.union([z.array(TextTokenRow), z.array(TextTokenObjectRow)]);

/** A pane's header prop: the column names, model first. */
export const TextTokenColumns = z.array(z.string());
