import { z } from "zod";

/**
 * Zod schemas of models.dev `api.json` (https://models.dev/api.json), only the parts the adapter
 * reads. Objects are loose (upstream adds fields over time). Leaf values use `.catch(undefined)`:
 * a value of the wrong type is dropped on its own (and its price or field skipped) instead of
 * failing the whole model. All amounts are USD per 1M tokens.
 */

/** One amount in USD per 1M tokens; a non-number is dropped (`undefined`). */
export const ModelsDevAmount = z.number().optional().catch(undefined);
export type ModelsDevAmount = z.infer<typeof ModelsDevAmount>;

/** The per-token fields shared by `cost`, `cost.context_over_200k`, `cost.tiers[]` and experimental mode costs. */
const costFields = {
  input: ModelsDevAmount,
  output: ModelsDevAmount,
  cache_read: ModelsDevAmount,
  cache_write: ModelsDevAmount,
  reasoning: ModelsDevAmount,
  input_audio: ModelsDevAmount,
  output_audio: ModelsDevAmount,
};

/** Flat per-token prices: `{input, output, cache_read?, cache_write?, reasoning?, input_audio?, output_audio?}`. */
export const ModelsDevCostFields = z.looseObject(costFields);
export type ModelsDevCostFields = z.infer<typeof ModelsDevCostFields>;

/** One `cost.tiers[]` entry (2026-06 on): prices applying above `tier.size` prompt tokens when `tier.type` is `context`. */
export const ModelsDevCostTier = z.looseObject({
  ...costFields,
  tier: z.looseObject({ type: z.string(), size: z.number().int().nonnegative() }),
});
export type ModelsDevCostTier = z.infer<typeof ModelsDevCostTier>;

/**
 * `cost` of a model. `context_over_200k` (2025-12 on) is the legacy >200k-token bracket; `tiers`
 * (2026-06 on) supersedes it. A malformed tier entry is kept as `unknown` and skipped by the adapter.
 */
export const ModelsDevCost = z.looseObject({
  ...costFields,
  context_over_200k: ModelsDevCostFields.optional().catch(undefined),
  tiers: z.array(z.unknown()).optional().catch(undefined),
});
export type ModelsDevCost = z.infer<typeof ModelsDevCost>;

/** One alternative request mode of `experimental.modes` (2026-05 on), e.g. `fast`. */
export const ModelsDevMode = z.looseObject({ cost: ModelsDevCost.optional().catch(undefined) });
export type ModelsDevMode = z.infer<typeof ModelsDevMode>;

/** `experimental`: a boolean flag in 2025-10, an object `{modes: {<name>: {cost, provider}}}` from 2026-05. */
export const ModelsDevExperimental = z.union([
  z.boolean(),
  z.looseObject({ modes: z.record(z.string(), ModelsDevMode).optional().catch(undefined) }),
]);
export type ModelsDevExperimental = z.infer<typeof ModelsDevExperimental>;

/** An optional string field; a value of another type is dropped. */
const optionalString = z.string().optional().catch(undefined);
/** An optional non-negative integer; a value of another type is dropped. */
const optionalCount = z.number().int().nonnegative().optional().catch(undefined);

/**
 * One model of a provider. `provider` is a per-model SDK override (`{npm, api?, shape?}`) in every
 * snapshot; a plain string is accepted too in case upstream ever names a vendor there.
 */
export const ModelsDevModel = z.looseObject({
  id: optionalString,
  name: optionalString,
  family: optionalString,
  release_date: optionalString,
  /** The day the entry was last edited: models.dev's statement of how current it is (T170). */
  last_updated: optionalString,
  open_weights: z.boolean().optional().catch(undefined),
  status: optionalString,
  limit: z.looseObject({ context: optionalCount, output: optionalCount }).optional().catch(undefined),
  /** What the model reads and writes (`text`, `image`, `audio`, `video`, `pdf`); decides the modality `cost.input`/`output` bill (T70). */
  modalities: z
    .looseObject({
      input: z.array(z.string()).optional().catch(undefined),
      output: z.array(z.string()).optional().catch(undefined),
    })
    .optional()
    .catch(undefined),
  cost: ModelsDevCost.optional().catch(undefined),
  experimental: ModelsDevExperimental.optional().catch(undefined),
  provider: z
    .union([z.string(), z.looseObject({})])
    .optional()
    .catch(undefined),
});
export type ModelsDevModel = z.infer<typeof ModelsDevModel>;

/** One provider: `{id, name, npm, env, doc, api?, models: {<model id>: model}}`; models are validated one by one. */
export const ModelsDevProvider = z.looseObject({
  id: optionalString,
  name: optionalString,
  /** The provider's API base URL (`https://app.frogbot.ai/api/v1`): the seller's identity across runs (T515). */
  api: optionalString,
  models: z.record(z.string(), z.unknown()),
});
export type ModelsDevProvider = z.infer<typeof ModelsDevProvider>;

/** The whole `api.json`: an object keyed by provider id; providers are validated one by one. */
export const ModelsDevApi = z.record(z.string(), z.unknown());
export type ModelsDevApi = z.infer<typeof ModelsDevApi>;
