import type { Modality } from "../../domain/dimension.js";
import { lookupTable } from "../../domain/lookup-table.js";
import { type FieldRule, rule } from "../field-map.js";

/**
 * The field map of models.dev `api.json` (T70; README "Prices"). Every `cost` field is USD per 1M
 * tokens. Brackets come from `cost.tiers[]` (`{tier: {type: "context", size}}`, the size models.dev
 * states for that model) and, without tiers, the legacy `cost.context_over_200k` (from 200K); the
 * experimental `fast` mode is tier `priority` (see `index.ts`).
 */
export const COST_RULES: Readonly<Record<string, FieldRule>> = lookupTable({
  input: rule("input", "mtok", "1"),
  output: rule("output", "mtok", "1"),
  cache_read: rule("input", "mtok", "1", { cache: "read" }),
  cache_write: rule("input", "mtok", "1", { cache: "write" }),
  reasoning: rule("reasoning", "mtok", "1"),
  input_audio: rule("input", "mtok", "1", { modality: "audio" }),
  output_audio: rule("output", "mtok", "1", { modality: "audio" }),
});

/** Keys of a `cost` object that are structure, not a price of their own. */
export const COST_STRUCTURE: ReadonlySet<string> = new Set(["tiers", "context_over_200k", "tier"]);

/** Modalities models.dev names that we price (`pdf` is read as text). */
const PRICED: ReadonlySet<string> = new Set(["image", "audio", "video"]);

/**
 * The modality `cost.input` / `cost.output` bill on one side of a model. models.dev prices a
 * model's tokens without naming their modality; when the side's stated `modalities` hold no text
 * and exactly one priced modality (an image generator's output, a speech model's audio output),
 * that is the modality billed — a TTS model's `output` is audio tokens, not text. Otherwise text.
 */
export function sideModality(modalities: readonly string[] | undefined): Modality {
  if (!modalities || modalities.length === 0 || modalities.includes("text")) return "text";
  const priced = [...new Set(modalities.filter((m) => PRICED.has(m)))];
  return priced.length === 1 ? (priced[0] as Modality) : "text";
}
