import type { CatalogueView } from "../src/catalogue/view.js";

/**
 * The price moves of a price-file export against the recorded file it extends (issue 38 §3, T311):
 * every key both files price where the export's amount is 2× or more away from the recorded one
 * (or one of them is 0 and the other not), field by field. Shared by the export suites and the
 * reviewed list `test/golden/export-moves.json`.
 */
export interface ExportMove {
  readonly export: "litellm" | "models-dev";
  /** LiteLLM: the key; models.dev: `<provider>/<model key>`. */
  readonly key: string;
  readonly field: string;
  /** USD per token (LiteLLM) or per 1M tokens (models.dev), as each file states it. */
  readonly recorded: number;
  readonly exported: number;
}

/** A reviewed move: the move, what Tariff's price rests on, and why it stands. */
export interface ReviewedMove extends ExportMove {
  readonly evidence: string;
  readonly reason: string;
}

const LITELLM_FIELDS = [
  "input_cost_per_token",
  "output_cost_per_token",
  "cache_read_input_token_cost",
  "cache_creation_input_token_cost",
  "output_cost_per_reasoning_token",
  "output_cost_per_image_token",
  "input_cost_per_audio_token",
  "output_cost_per_audio_token",
];
const MODELS_DEV_FIELDS = ["input", "output", "cache_read", "cache_write", "reasoning", "input_audio", "output_audio"];

/** 2× or more apart, or one zero and the other not. */
function moved(a: number, b: number): boolean {
  if (a === b) return false;
  if (a === 0 || b === 0) return true;
  return Math.max(a / b, b / a) >= 2;
}

type Entry = Record<string, unknown>;
const isObject = (v: unknown): v is Entry => typeof v === "object" && v !== null && !Array.isArray(v);

/** The moves of the LiteLLM export against the recorded LiteLLM file. */
export function litellmMoves(recorded: Entry, exported: Entry): ExportMove[] {
  const moves: ExportMove[] = [];
  for (const [key, r] of Object.entries(recorded)) {
    const x = exported[key];
    if (!isObject(r) || !isObject(x)) continue;
    for (const field of LITELLM_FIELDS) {
      const a = r[field];
      const b = x[field];
      if (typeof a === "number" && typeof b === "number" && moved(a, b))
        moves.push({ export: "litellm", key, field, recorded: a, exported: b });
    }
  }
  return moves;
}

/** The moves of the models.dev export against the recorded `api.json`. */
export function modelsDevMoves(recorded: Entry, exported: Entry): ExportMove[] {
  const moves: ExportMove[] = [];
  for (const [provider, p] of Object.entries(recorded)) {
    const xp = exported[provider];
    if (!isObject(p) || !isObject(p.models) || !isObject(xp) || !isObject(xp.models)) continue;
    for (const [key, m] of Object.entries(p.models)) {
      const x = xp.models[key];
      if (!isObject(m) || !isObject(x) || !isObject(m.cost) || !isObject(x.cost)) continue;
      for (const field of MODELS_DEV_FIELDS) {
        const a = m.cost[field];
        const b = x.cost[field];
        if (typeof a === "number" && typeof b === "number" && moved(a, b))
          moves.push({ export: "models-dev", key: `${provider}/${key}`, field, recorded: a, exported: b });
      }
    }
  }
  return moves;
}

/** One line per move, for comparing lists. */
export function moveLine(m: ExportMove): string {
  return `${m.export} ${m.key} ${m.field}: ${m.recorded} → ${m.exported}`;
}

/** What the export's price of `model` at `seller` rests on: confidence and agreeing sources of its text input and output. */
export function evidenceOf(view: CatalogueView, model: string, seller: string): string {
  const prices = view.dataset.prices.filter(
    (p) =>
      p.modelId === model &&
      p.seller === seller &&
      p.tier === "standard" &&
      p.cache === "none" &&
      p.modality === "text" &&
      p.contextMin === 0 &&
      (p.direction === "input" || p.direction === "output"),
  );
  if (prices.length === 0) return `${model} at ${seller}`;
  return `${model} at ${seller}: ${prices
    .map((p) => `${p.direction} ${p.amount} ${p.confidence} (${p.sources.join(", ")})`)
    .join("; ")}`;
}
