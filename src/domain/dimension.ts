/**
 * A price dimension: what one amount pays for (api-v1.md "Price"; labels per D27).
 *
 * Two prices of one model in one channel and seller are the same dimension exactly when
 * {@link dimensionKey} of both is equal.
 */
export interface Dimension {
  /** `input`, `output`, `reasoning` (reasoning tokens billed apart), `request` (per call), `tool` (per tool use). */
  readonly direction: Direction;
  /** `text`, `image`, `audio`, `video`. */
  readonly modality: Modality;
  /** Service tier: `standard`, `batch`, `flex`, `priority`. */
  readonly tier: Tier;
  /** Prompt-cache kind: `none`, `read`, `write` (5-minute), `write_1h`. */
  readonly cache: CacheKind;
  /** Lower bound of the prompt-length bracket in tokens (0 when unbracketed). */
  readonly contextMin: number;
  /** Upper bound of the bracket, or null when open. */
  readonly contextMax: number | null;
  /**
   * Raw qualifiers (e.g. `region`, `seller`, `tool`, `size`, {@link FINE_TUNING_QUALIFIER}); `{}` when
   * none. Values are slugs.
   */
  readonly qualifiers: Readonly<Record<string, string>>;
}

export const DIRECTIONS = ["input", "output", "reasoning", "request", "tool"] as const;
export type Direction = (typeof DIRECTIONS)[number];
export const MODALITIES = ["text", "image", "audio", "video"] as const;
export type Modality = (typeof MODALITIES)[number];
export const TIERS = ["standard", "batch", "flex", "priority"] as const;
export type Tier = (typeof TIERS)[number];
export const CACHE_KINDS = ["none", "read", "write", "write_1h"] as const;
export type CacheKind = (typeof CACHE_KINDS)[number];

/**
 * The qualifier of a fine-tuning price of a base model (issue 25 §3, T181): `training` (the price of
 * training tokens, direction `input`) or `inference` (serving a fine-tuned model: its input, output
 * and cache prices). `openai/gpt-4o`'s `Input (fine_tuning: inference)` is what OpenAI's `ft:gpt-4o`
 * costs per 1M input tokens; no id of its own.
 */
export const FINE_TUNING_QUALIFIER = "fine_tuning";
export const FINE_TUNING_KINDS = ["training", "inference"] as const;
export type FineTuningKind = (typeof FINE_TUNING_KINDS)[number];

/** Builds a dimension with the defaults of the common case (text, standard tier, no cache, no bracket). */
export function dimension(direction: Direction, partial: Partial<Omit<Dimension, "direction">> = {}): Dimension {
  return {
    direction,
    modality: partial.modality ?? "text",
    tier: partial.tier ?? "standard",
    cache: partial.cache ?? "none",
    contextMin: partial.contextMin ?? 0,
    contextMax: partial.contextMax ?? null,
    qualifiers: partial.qualifiers ?? {},
  };
}

/** Stable identity string of a dimension: equal keys mean the same dimension. Qualifiers are key-sorted. */
export function dimensionKey(d: Dimension): string {
  const q = Object.keys(d.qualifiers)
    .sort()
    .map((k) => `${k}=${d.qualifiers[k]}`)
    .join("&");
  return `${d.direction}|${d.modality}|${d.tier}|${d.cache}|${d.contextMin}|${d.contextMax ?? ""}|${q}`;
}

/** True for the dimension a rate is made of (D30): text, standard, no cache, bracket [0, open), no qualifiers. */
export function isBaseTextDimension(d: Dimension): boolean {
  return (
    d.modality === "text" &&
    d.tier === "standard" &&
    d.cache === "none" &&
    d.contextMin === 0 &&
    d.contextMax === null &&
    Object.keys(d.qualifiers).length === 0
  );
}
