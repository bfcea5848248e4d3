import { z } from "zod";

/**
 * Zod schemas of the OpenRouter Models API response (`GET https://openrouter.ai/api/v1/models`),
 * only the parts the adapter reads. Objects are loose (upstream adds keys over time). Optional
 * leaves use `.catch(undefined)`: a value of the wrong type is dropped on its own instead of
 * failing the whole model.
 */

/** A price as OpenRouter sends it: a decimal string in USD per unit (`"0.00000175"`); numbers tolerated. */
export const OpenRouterAmount = z.union([z.string(), z.number()]).optional().catch(undefined);
export type OpenRouterAmount = z.infer<typeof OpenRouterAmount>;

/**
 * `pricing` of a model. Per token: `prompt`, `completion`, `internal_reasoning`, `input_cache_read`,
 * `input_cache_write`, `audio`, `input_audio_cache`, `image_output`; per request: `request`; per
 * input image: `image`; per call: `web_search`. `"-1"` marks variable (router) pricing. From
 * 2026-02 zero-valued keys are left out.
 */
export const OpenRouterPricing = z.looseObject({
  prompt: OpenRouterAmount,
  completion: OpenRouterAmount,
  internal_reasoning: OpenRouterAmount,
  input_cache_read: OpenRouterAmount,
  input_cache_write: OpenRouterAmount,
  audio: OpenRouterAmount,
  input_audio_cache: OpenRouterAmount,
  image_output: OpenRouterAmount,
  request: OpenRouterAmount,
  image: OpenRouterAmount,
  web_search: OpenRouterAmount,
});
export type OpenRouterPricing = z.infer<typeof OpenRouterPricing>;

/** A token count that may be null upstream; a value of another type is dropped. */
const optionalCount = z.number().int().nonnegative().nullish().catch(undefined);

/** One entry of `data`: `id` and `pricing` are required; everything else is optional metadata. */
export const OpenRouterModel = z.looseObject({
  id: z.string().min(1),
  name: z.string().optional().catch(undefined),
  /** Unix seconds when OpenRouter added the model. */
  created: z.number().int().positive().optional().catch(undefined),
  context_length: optionalCount,
  /** `YYYY-MM-DD` or null (key present from 2026-02). */
  expiration_date: z.string().nullish().catch(undefined),
  /** The Hugging Face repo of the weights, when open (issue 12: open-weights evidence). */
  hugging_face_id: z.string().nullish().catch(undefined),
  /** OpenRouter's permanent id of the model, often dated. */
  canonical_slug: z.string().nullish().catch(undefined),
  pricing: OpenRouterPricing,
  top_provider: z
    .looseObject({ context_length: optionalCount, max_completion_tokens: optionalCount })
    .nullish()
    .catch(undefined),
});
export type OpenRouterModel = z.infer<typeof OpenRouterModel>;

/** The response: `{data: [model…]}`; entries are validated one by one. */
export const OpenRouterModels = z.looseObject({ data: z.array(z.unknown()) });
export type OpenRouterModels = z.infer<typeof OpenRouterModels>;
