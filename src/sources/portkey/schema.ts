import { z } from "zod";

/**
 * Zod schemas of Portkey's pricing files (`https://configs.portkey.ai/pricing/<provider>.json`).
 * Only the parts the adapter reads are typed; unknown keys are kept (`loose`), because the format
 * grows (see data/upstream/README.md "Format changes over time (portkey)").
 */

/** One rate: `{price}` in US cents per unit (per token for token units). */
export const PortkeyRate = z.looseObject({ price: z.union([z.number(), z.string()]) });
export type PortkeyRate = z.infer<typeof PortkeyRate>;

/** `image`: `{<quality>: {<size>: {price}}}`, cents per generated image. */
export const PortkeyImageRates = z.record(z.string(), z.record(z.string(), z.unknown()));
export type PortkeyImageRates = z.infer<typeof PortkeyImageRates>;

/** `pay_as_you_go` / `batch_config`: rate keys → rate, plus `additional_units` and `image`. */
export const PortkeyRates = z.record(z.string(), z.unknown());
export type PortkeyRates = z.infer<typeof PortkeyRates>;

/** `fixed_cost`: per-request fixed fees in cents (`request`, `response`). */
export const PortkeyFixedCost = z.looseObject({ request: PortkeyRate.optional(), response: PortkeyRate.optional() });
export type PortkeyFixedCost = z.infer<typeof PortkeyFixedCost>;

/** `pricing_config` of a model entry (or of the file's `default` entry). */
export const PortkeyPricingConfig = z.looseObject({
  pay_as_you_go: PortkeyRates.optional(),
  batch_config: PortkeyRates.optional(),
  /** Older placement of `additional_units` (gone from 2026-05-01). */
  additional_units: z.record(z.string(), z.unknown()).optional(),
  fixed_cost: z.unknown().optional(),
  currency: z.string().optional(),
});
export type PortkeyPricingConfig = z.infer<typeof PortkeyPricingConfig>;

/** One model entry; `pricing_config: null` occurs (Azure `code-davinci-002`) and is skipped. */
export const PortkeyModelEntry = z.looseObject({ pricing_config: PortkeyPricingConfig.nullable() });
export type PortkeyModelEntry = z.infer<typeof PortkeyModelEntry>;

/** A provider file: model id → entry, plus `default`. Entries are validated one by one. */
export const PortkeyProviderFile = z.record(z.string(), z.unknown());
export type PortkeyProviderFile = z.infer<typeof PortkeyProviderFile>;
