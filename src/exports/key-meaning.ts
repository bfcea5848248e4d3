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

/**
 * A consumer's key whose meaning was reviewed against the recorded payloads (T527): the Tariff model
 * it names at its seller, whatever model the source's listing was reconciled into, and why.
 */
export interface ReviewedKeyMeaning {
  /** The LiteLLM adapter's listing of the key: its seller and its spelling after the routing prefix. */
  readonly seller: string;
  readonly spelling: string;
  /** The Tariff model the key names. */
  readonly model: string;
  readonly reason: string;
}

/** Reviewed LiteLLM key meanings (T527), by seller and spelling. */
export const REVIEWED_LITELLM_MEANINGS: readonly ReviewedKeyMeaning[] = [
  {
    seller: "mistral",
    spelling: "mistral-medium",
    model: "mistral/mistral-medium-2312",
    reason:
      "LiteLLM's mistral/mistral-medium states the first Mistral Medium in every recorded file, 2025-07-01 to " +
      "2026-06-01: 32,000 tokens, $2.7 / $8.1 per 1M, the entry of mistral/mistral-medium-2312 field for field; " +
      "Mistral's own model pages (2025-11-01 to 2026-06-01) name Medium 3, 3.1 and 3.5 mistral-medium-2505, " +
      "-2508, -latest, -3-5 and -3, never the bare mistral-medium, and models.dev lists no such key at Mistral. " +
      "Reconciliation read the listing into Medium 3.1 (2508) as a stale alias, which repriced the key 6.75× lower.",
  },
];

/** The reviewed meaning of a LiteLLM key's listing at its seller (T527), or undefined. */
export function reviewedLitellmMeaning(seller: string, spelling: string): ReviewedKeyMeaning | undefined {
  return REVIEWED_LITELLM_MEANINGS.find((r) => r.seller === seller && r.spelling === spelling.toLowerCase());
}
