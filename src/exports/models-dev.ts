import type { Modality } from "../domain/dimension.js";
import { canonicalSeller, planKind } from "../domain/sellers.js";
import { jsonObject } from "./json-object.js";
import { FINE_TUNE_QUALIFIERS, isFineTuneKey, meaningMismatch } from "./key-meaning.js";
import {
  type ExportIndex,
  exportIndex,
  offerKey,
  type Placement,
  placementKey,
  type TokenSheet,
  tokenSheet,
} from "./offers.js";
import { type ExportInput, modelUrl, type RecordedFile } from "./types.js";

/**
 * The `models-dev` export (issue 29 §1, T214): models.dev's `api.json`, which OpenCode reads from
 * `${OPENCODE_MODELS_URL}/api.json`. The recorded tree of the version's date is kept as it is —
 * the same provider and model keys and every field OpenCode reads — and each model Tariff places
 * gets Tariff's reconciled `cost` (USD per 1M tokens, models.dev's unit). A model whose usage a plan
 * includes has no `cost` and says so (`tariff.includedInPlan`), never a $0 price. Every model carries
 * `tariff`: its Tariff page, the dataset version, and whether its cost is Tariff's.
 */

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The modalities a models.dev `cost.output` can stand for (T311). */
type OutputModality = "text" | "image" | "audio" | "video";

/**
 * Which output price a recorded model's `cost.output` states (issue 38 §3, T311): models.dev writes a
 * media-generating model's output price as the media's (Google's Gemini 2.5 Flash Image: 30, the
 * image-token price) or as the text's (OpenRouter's same model: 2.50). Of the output modalities the
 * recorded model lists that Tariff prices, the one whose price is nearest the recorded amount keeps
 * the field's meaning; text when the model outputs no media or the recorded file states no amount.
 */
function outputModalityOf(sheet: TokenSheet, model: Json): OutputModality {
  const modalities =
    isObject(model.modalities) && Array.isArray(model.modalities.output) ? model.modalities.output : [];
  const recordedOutput = isObject(model.cost) ? model.cost.output : undefined;
  if (typeof recordedOutput !== "number" || recordedOutput <= 0) return "text";
  let best: { modality: OutputModality; distance: number } | null = null;
  for (const modality of ["text", "image", "audio", "video"] as const) {
    if (modality !== "text" && !modalities.includes(modality)) continue;
    const amount = sheet.get("standard", 0, "output", "none", modality)?.amount;
    if (amount === undefined || amount <= 0) continue;
    const distance = Math.abs(Math.log(amount / recordedOutput));
    if (!best || distance < best.distance) best = { modality, distance };
  }
  return best?.modality ?? "text";
}

/** A models.dev `cost` object (USD per 1M tokens) of one bracket of a sheet; null without input and output. */
function costFields(
  sheet: TokenSheet,
  tier: "standard" | "priority",
  min: number,
  outputModality: OutputModality = "text",
): Json | null {
  const get = (
    direction: "input" | "output" | "reasoning",
    cache: "none" | "read" | "write",
    modality: Modality = "text",
  ) => sheet.get(tier, min, direction, cache, modality)?.amount;
  const input = get("input", "none");
  const output = get("output", "none", outputModality) ?? get("output", "none");
  if (input === undefined || output === undefined) return null;
  const fields: Json = Object.assign(jsonObject(), { input, output });
  const optional: [string, number | undefined][] = [
    ["cache_read", get("input", "read")],
    ["cache_write", get("input", "write")],
  ];
  if (min === 0)
    optional.push(
      ["reasoning", get("reasoning", "none")],
      ["input_audio", get("input", "none", "audio")],
      ["output_audio", get("output", "none", "audio")],
    );
  for (const [k, v] of optional) if (v !== undefined) fields[k] = v;
  return fields;
}

/**
 * Tariff's `cost` of a sheet in models.dev's shape: the base prices, `tiers` for each prompt-length
 * bracket (`{…, tier: {type: "context", size}}`), and `context_over_200k` only for a bracket that
 * starts at exactly 200K tokens (OpenCode applies it above 200K; a 256K or 272K threshold stated
 * as "over 200K" would bill 200K–272K prompts at the long-context rate).
 */
function tariffCost(sheet: TokenSheet, outputModality: OutputModality): Json | null {
  const base = costFields(sheet, "standard", 0, outputModality);
  if (!base) return null;
  const tiers: Json[] = [];
  for (const size of sheet.thresholds("standard")) {
    const fields = costFields(sheet, "standard", size, outputModality);
    if (!fields) continue;
    tiers.push({ ...fields, tier: { type: "context", size } });
    if (size === 200_000) {
      const { input, output, cache_read, cache_write } = fields;
      base.context_over_200k = {
        input,
        output,
        ...(cache_read !== undefined ? { cache_read } : {}),
        ...(cache_write !== undefined ? { cache_write } : {}),
      };
    }
  }
  if (tiers.length > 0) base.tiers = tiers;
  return base;
}

/** True for a recorded cost that prices nothing (every amount 0): a plan's included usage as models.dev writes it. */
function allZero(cost: unknown): boolean {
  return isObject(cost) && Object.values(cost).every((v) => v === 0 || isObject(v) || Array.isArray(v));
}

/**
 * The model a recorded (provider, key) names at its seller and the qualifiers of its prices: the
 * models-dev listing's placement (a Bedrock `au.` key: the `region: au` prices, with their premium),
 * else an alias, unqualified; a fine-tune's key asks for the fine-tune's prices (T311).
 */
function placedModel(index: ExportIndex, seller: string, key: string): Placement | null {
  const found = index.placements.get(placementKey("models-dev", seller, key));
  const fineTune = isFineTuneKey(key) ? FINE_TUNE_QUALIFIERS : {};
  if (found) return { ...found, qualifiers: { ...found.qualifiers, ...fineTune } };
  const id = index.spelledAs.get(key.toLowerCase());
  return id && index.offers.has(offerKey(id, seller)) ? { modelId: id, seller, qualifiers: fineTune } : null;
}

/** One recorded model with Tariff's cost and the `tariff` note. */
function exportModel(input: ExportInput, index: ExportIndex, seller: string, key: string, model: Json): Json {
  const out: Json = { ...model };
  const plan = planKind(seller) !== null;
  const placement = placedModel(index, seller, key);
  const modelId = placement?.modelId ?? null;
  // T311: a key is never repointed to a model it does not name (another generation, a variant).
  const mismatch = modelId ? meaningMismatch(key, { id: modelId }) : null;
  const offer = modelId && !mismatch ? index.offers.get(offerKey(modelId, seller)) : undefined;
  const sheet = offer ? tokenSheet(offer.prices, placement?.qualifiers) : null;
  const cost = sheet ? tariffCost(sheet, outputModalityOf(sheet, model)) : null;
  const note: Json = { datasetVersion: input.version };
  if (modelId && !mismatch) note.url = modelUrl(input, modelId);
  if (modelId && !mismatch) note.model = modelId;
  if (mismatch) note.reason = `not placed on a Tariff offer: ${mismatch}`;
  if (sheet?.includedInPlan || (!cost && plan && allZero(model.cost))) {
    // A plan's included usage is not a price: no `cost`, never $0 (T214).
    delete out.cost;
    note.includedInPlan = true;
    note.reconciled = Boolean(sheet?.includedInPlan);
  } else if (cost) {
    out.cost = cost;
    note.reconciled = true;
    const fast =
      isObject(model.experimental) && isObject(model.experimental.modes) ? model.experimental.modes.fast : undefined;
    const fastCost = sheet ? costFields(sheet, "priority", 0) : null;
    if (isObject(fast) && fastCost)
      out.experimental = {
        ...(model.experimental as Json),
        modes: { ...((model.experimental as Json).modes as Json), fast: { ...fast, cost: fastCost } },
      };
  } else note.reconciled = false;
  out.tariff = note;
  return out;
}

/**
 * Builds models.dev's `api.json` for a dataset version from the recorded tree of its date; without
 * a recorded tree the export is `{}` (the keys OpenCode uses are models.dev's, T214).
 */
export function buildModelsDevExport(
  input: ExportInput,
  recorded: RecordedFile<Readonly<Record<string, unknown>>> | null,
): Record<string, Json> {
  const index = exportIndex(input);
  // Keyed by models.dev's provider and model keys: every Object.prototype name is an ordinary key (T315).
  const tree: Record<string, Json> = jsonObject();
  for (const [providerId, provider] of Object.entries(recorded?.data ?? {})) {
    if (!isObject(provider) || !isObject(provider.models)) {
      tree[providerId] = provider as Json;
      continue;
    }
    const seller = canonicalSeller(providerId);
    const models: Json = jsonObject();
    for (const [key, model] of Object.entries(provider.models))
      models[key] = isObject(model) ? exportModel(input, index, seller, key, model) : model;
    tree[providerId] = { ...provider, models };
  }
  return tree;
}
