import { z } from "zod";

/**
 * Zod schemas of genai-prices' `data.json` (pydantic/genai-prices, MIT), the parts the adapter reads.
 *
 * The same schemas read the v1 feed (`prices/data.json`, all recorded snapshots, including the
 * 2025-07-01 drift `pricing_url` / `max_tokens`) and the v2 feed (`prices/new_data/v2/data.json`,
 * JSON Schema in `data/schemas/genai-prices-v2.data.schema.json`): both are an array of providers
 * with the same model / price shape; v2 only adds price keys. Every object is loose (unknown keys
 * allowed) because the upstream format grows.
 *
 * Only the outer shape (array of providers with an `id` and a `models` array) is validated as a
 * whole; each model is validated on its own with {@link GenaiModel} so one malformed model is
 * skipped instead of failing the payload.
 */

/** A provider: its own id (`aws`, `google`, `huggingface_novita`, …) and its models (validated one by one). */
export const GenaiProvider = z.looseObject({
  id: z.string().min(1),
  name: z.string().nullish(),
  /** v1 since 2025-08-01 and v2. */
  pricing_urls: z.array(z.string()).nullish(),
  /** v1 before 2025-08-01. */
  pricing_url: z.string().nullish(),
  models: z.array(z.unknown()),
});
export type GenaiProvider = z.infer<typeof GenaiProvider>;

/** The whole file: a JSON array of providers (v1 and v2 alike). */
export const GenaiPricesFile = z.array(GenaiProvider);
export type GenaiPricesFile = z.infer<typeof GenaiPricesFile>;

/**
 * A model-match rule: `equals` / `starts_with` / `ends_with` / `contains` / `regex`, combinable with
 * `or` / `and` (recursive).
 */
export type GenaiMatch = {
  equals?: string | undefined;
  starts_with?: string | undefined;
  ends_with?: string | undefined;
  contains?: string | undefined;
  regex?: string | undefined;
  or?: GenaiMatch[] | undefined;
  and?: GenaiMatch[] | undefined;
};
export const GenaiMatch: z.ZodType<GenaiMatch> = z.lazy(() =>
  z.looseObject({
    equals: z.string().optional(),
    starts_with: z.string().optional(),
    ends_with: z.string().optional(),
    contains: z.string().optional(),
    regex: z.string().optional(),
    or: z.array(GenaiMatch).optional(),
    and: z.array(GenaiMatch).optional(),
  }),
);

/** One tier of a tiered price: `price` applies once the prompt reaches `start` tokens. */
export const GenaiTier = z.looseObject({ start: z.number().int().nonnegative(), price: z.number() });
export type GenaiTier = z.infer<typeof GenaiTier>;

/** A price value: a plain number, or `{base, tiers: [{start, price}]}` (prompt-length brackets). */
export const GenaiPriceValue = z.union([z.number(), z.looseObject({ base: z.number(), tiers: z.array(GenaiTier) })]);
export type GenaiPriceValue = z.infer<typeof GenaiPriceValue>;

/**
 * A model's price set: price key (`input_mtok`, `requests_kcount`, …) → value. Values are checked
 * one by one with {@link GenaiPriceValue} so a single odd value only drops that key.
 */
export const GenaiModelPrice = z.record(z.string(), z.unknown());
export type GenaiModelPrice = z.infer<typeof GenaiModelPrice>;

/** `constraint.start_date`: the price applies from that date (YYYY-MM-DD). */
export const GenaiStartDateConstraint = z.looseObject({ start_date: z.string().regex(/^\d{4}-\d{2}-\d{2}/) });
export type GenaiStartDateConstraint = z.infer<typeof GenaiStartDateConstraint>;

/** `constraint.start_time` / `end_time`: a daily window (`00:30:00Z`) in which the price applies. */
export const GenaiTimeWindowConstraint = z.looseObject({ start_time: z.string(), end_time: z.string() });
export type GenaiTimeWindowConstraint = z.infer<typeof GenaiTimeWindowConstraint>;

/** One entry of a conditional price list. */
export const GenaiConditionalPrice = z.looseObject({
  constraint: z.union([GenaiStartDateConstraint, GenaiTimeWindowConstraint]).nullish(),
  prices: GenaiModelPrice,
});
export type GenaiConditionalPrice = z.infer<typeof GenaiConditionalPrice>;

/** One model of a provider. `max_tokens` is the pre-2025-08 name of `context_window`. */
export const GenaiModel = z.looseObject({
  id: z.string().min(1),
  name: z.string().nullish(),
  match: GenaiMatch,
  context_window: z.number().int().positive().nullish(),
  max_tokens: z.number().int().positive().nullish(),
  deprecated: z.boolean().nullish(),
  prices: z.union([GenaiModelPrice, z.array(GenaiConditionalPrice)]),
});
export type GenaiModel = z.infer<typeof GenaiModel>;
