import type { PublishedModel } from "../domain/dataset.js";

/**
 * Whether a consumer's key keeps its meaning on the model Tariff would place it on (issue 38 §3,
 * T311). Pure. An export that places a recorded LiteLLM or models.dev key on a Tariff offer replaces
 * the consumer's prices with Tariff's; that is right only when the key names that model. A key that
 * names something else passes through as the consumer has it (marked not reconciled, with the reason).
 */

/** The spelling's qualifiers a fine-tuned model's key asks for (T181: `fine_tuning: inference`). */
export const FINE_TUNE_QUALIFIERS: Readonly<Record<string, string>> = { fine_tuning: "inference" };

/** True for OpenAI's fine-tuned model keys (`ft:gpt-3.5-turbo-0125`, `ft:gpt-4o-mini-2024-07-18:org::id`). */
export function isFineTuneKey(spelling: string): boolean {
  return /(^|\/)ft:/.test(spelling);
}

/**
 * Words that make a model a different product from the one without them, priced differently: a
 * variant of speed (`fast`, `turbo`, `lightning`), of size (`mini`, `nano`, `lite`, `instant`), of
 * serving (`precision`, `tput`). A key spelling one is never placed on a model whose id lacks it
 * (`claude-instant-1` is not `claude-v1`, `claude-opus-4.6-fast` is not `claude-opus-4-6`).
 */
export const VARIANT_WORDS: ReadonlySet<string> = new Set([
  "instant",
  "fast",
  "turbo",
  "lightning",
  "precision",
  "tput",
  "mini",
  "nano",
  "lite",
]);

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * Why `spelling` (the key's model, after its routing prefix) does not name `model`, or null when it
 * may be placed there:
 * - a moving alias (`…-latest`) names whatever generation the seller serves today, so it is placed
 *   only on a model that is itself such an alias (`google/gemini-flash-latest`); `gemini-pro-latest`
 *   is not Gemini 1.0 Pro;
 * - a variant word of {@link VARIANT_WORDS} in the key that the model's id lacks.
 * Fine-tunes are not judged here: their keys are placed on the fine-tune's own prices
 * ({@link FINE_TUNE_QUALIFIERS}).
 */
export function meaningMismatch(spelling: string, model: Pick<PublishedModel, "id">): string | null {
  const keyWords = words(spelling);
  const modelWords = new Set(words(model.id));
  if (keyWords.at(-1) === "latest" && !modelWords.has("latest"))
    return `a moving alias (-latest): which generation it serves is the seller's to say, not ${model.id}`;
  const variant = keyWords.find((w) => VARIANT_WORDS.has(w) && !modelWords.has(w));
  if (variant) return `the key names a "${variant}" variant, which ${model.id} is not`;
  return null;
}
