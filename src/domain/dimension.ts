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

/**
 * The enumerated axes of a dimension, described once (issue 30 §4, T236): per axis, its values in
 * reading order, each with the words a label names it by (D27; null: the default, which labels
 * leave out). The first value is the axis's default (`direction` has none: a dimension always
 * names it). The value lists, {@link dimension}'s defaults, {@link dimensionKey},
 * {@link compareDimensions}, the labels (`src/core/labels.ts`), the store's column schemas
 * (`src/store/columns.ts`) and the API's field descriptions (`src/catalogue/schemas.ts`) are all
 * derived from this table: a new tier or cache kind is one line here, plus the field-map rows of
 * the sources that publish it.
 */
export const AXES = {
  direction: { input: "input", output: "output", reasoning: "reasoning", request: "request", tool: "tool" },
  modality: { text: null, image: "image", audio: "audio", video: "video" },
  tier: { standard: null, batch: "batch", flex: "flex", priority: "priority" },
  cache: { none: null, read: "cache read", write: "cache write", write_1h: "cache write 1h" },
} as const satisfies Record<string, Readonly<Record<string, string | null>>>;

/** An enumerated axis of a dimension: `direction`, `modality`, `tier`, `cache`. */
export type Axis = keyof typeof AXES;
/** The values of one axis. */
export type AxisValue<A extends Axis> = keyof (typeof AXES)[A] & string;
export type Direction = AxisValue<"direction">;
export type Modality = AxisValue<"modality">;
export type Tier = AxisValue<"tier">;
export type CacheKind = AxisValue<"cache">;

/** The enumerated axes, in the order of {@link Dimension}'s fields (and of the store's columns). */
export const AXIS_NAMES = Object.keys(AXES) as Axis[];

/** The values of `axis` in reading order, the default first (a non-empty tuple, as zod's `z.enum` takes). */
export function axisValues<A extends Axis>(axis: A): readonly [AxisValue<A>, ...AxisValue<A>[]] {
  return Object.keys(AXES[axis]) as [AxisValue<A>, ...AxisValue<A>[]];
}

export const DIRECTIONS = axisValues("direction");
export const MODALITIES = axisValues("modality");
export const TIERS = axisValues("tier");
export const CACHE_KINDS = axisValues("cache");

/** How a label names `value` of `axis` (D27), or null for the default a label leaves out. */
export function axisLabel<A extends Axis>(axis: A, value: AxisValue<A>): string | null {
  return (AXES[axis] as Readonly<Record<string, string | null>>)[value] ?? null;
}

/** `a`, `b` or `c` / `a` or `b`: the values of an axis for a sentence of documentation. */
export function axisValuesText(axis: Axis): string {
  const values = axisValues(axis).map(String);
  return values.length < 2 ? values.join("") : `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`;
}

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
    modality: partial.modality ?? MODALITIES[0],
    tier: partial.tier ?? TIERS[0],
    cache: partial.cache ?? CACHE_KINDS[0],
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
  let key = "";
  for (const a of AXIS_NAMES) key += `${d[a]}|`;
  return `${key}${d.contextMin}|${d.contextMax ?? ""}|${q}`;
}

/**
 * A price's history series key (D17): its dimension key and its unit, `<dimensionKey>|<unit>`. The
 * ingest records history points under it and the history reads them back by it, so both use this one.
 */
export function seriesKey(p: Dimension & { readonly unit: string }): string {
  return `${dimensionKey(p)}|${p.unit}`;
}

/** True for the dimension a rate is made of (D30): text, standard, no cache, bracket [0, open), no qualifiers. */
export function isBaseTextDimension(d: Dimension): boolean {
  return (
    AXIS_NAMES.every((a) => a === "direction" || d[a] === axisValues(a)[0]) &&
    d.contextMin === 0 &&
    d.contextMax === null &&
    Object.keys(d.qualifiers).length === 0
  );
}

/** Position of each value of each axis in reading order. */
const RANK = {} as Record<Axis, ReadonlyMap<string, number>>;
for (const a of AXIS_NAMES) RANK[a] = new Map(axisValues(a).map((v, i) => [v, i]));

function byAxis(axis: Axis, a: Dimension, b: Dimension): number {
  return RANK[axis].get(a[axis])! - RANK[axis].get(b[axis])!;
}

/**
 * Reading order of the dimensions of one offer (issue 17, T146): tier, context bracket, modality,
 * direction, cache kind, each axis in the order of {@link AXES}; 0 for dimensions that differ in
 * qualifiers (or the bracket's upper bound) only.
 */
export function compareDimensions(a: Dimension, b: Dimension): number {
  return (
    byAxis("tier", a, b) ||
    a.contextMin - b.contextMin ||
    byAxis("modality", a, b) ||
    byAxis("direction", a, b) ||
    byAxis("cache", a, b)
  );
}
