import { CURRENCY_QUALIFIER } from "../domain/currency-qualifier.js";
import { axisLabel, type Dimension, FINE_TUNING_QUALIFIER } from "../domain/dimension.js";
import { UNITS, type Unit } from "../domain/unit.js";

/**
 * Human labels of price dimensions (D27). Pure.
 *
 * The base label names the direction, then what is not the default: modality, tier, cache kind,
 * context bracket — `Input (cache read, > 200K tokens)`. Dimensions that still share a label differ
 * in qualifiers (or, rarely, unit) alone; they are extended with every qualifier that tells them
 * apart, in key order: `Input (seller: groq)`.
 */
export function baseLabel(d: Dimension): string {
  const direction = axisLabel("direction", d.direction)!;
  const parts: string[] = [];
  // The words of each axis value are described once, with the axis (T236).
  const modality = axisLabel("modality", d.modality);
  if (modality) parts.push(`${modality} ${direction}`);
  const tier = axisLabel("tier", d.tier);
  if (tier) parts.push(tier);
  const cache = axisLabel("cache", d.cache);
  if (cache) parts.push(cache);
  const bracket = bracketText(d.contextMin, d.contextMax);
  if (bracket) parts.push(bracket);
  const name = direction.charAt(0).toUpperCase() + direction.slice(1);
  return parts.length > 0 ? `${name} (${parts.join(", ")})` : name;
}

/** `> 200K tokens`, `≤ 128K tokens`, `32K–128K tokens`; null for the unbracketed default. */
export function bracketText(min: number, max: number | null): string | null {
  if (min === 0 && max === null) return null;
  if (max === null) return `> ${tokens(min)} tokens`;
  if (min === 0) return `≤ ${tokens(max)} tokens`;
  return `${tokens(min)}–${tokens(max)} tokens`;
}

function tokens(n: number): string {
  if (n >= 1_000_000 && n % 1_000_000 === 0) return `${n / 1_000_000}M`;
  if (n >= 1000 && n % 1000 === 0) return `${n / 1000}K`;
  return String(n);
}

/** The qualifiers every label names when a price carries them (T344, T530), in this order. */
const ALWAYS_NAMED = [FINE_TUNING_QUALIFIER, CURRENCY_QUALIFIER] as const;

/** A dimension to label; `unit` only breaks ties the qualifiers cannot. */
export interface Labelable {
  readonly dimension: Dimension;
  readonly unit: Unit;
}

/**
 * Labels every dimension of one model in one channel; returns labels in input order, all distinct
 * when the dimensions are.
 */
export function labelDimensions(items: readonly Labelable[]): string[] {
  const labels = items.map((i) => baseLabel(i.dimension));
  const groups = new Map<string, number[]>();
  labels.forEach((label, i) => {
    groups.set(label, [...(groups.get(label) ?? []), i]);
  });
  for (const [label, members] of groups) {
    if (members.length < 2) continue;
    const keys = [...new Set(members.flatMap((i) => Object.keys(items[i]!.dimension.qualifiers)))].sort();
    const telling = keys.filter((k) => new Set(members.map((i) => items[i]!.dimension.qualifiers[k] ?? "")).size > 1);
    for (const i of members) {
      const q = items[i]!.dimension.qualifiers;
      const named = telling.filter((k) => q[k] !== undefined).map((k) => `${k}: ${qualifierText(k, q[k]!)}`);
      let extended = named.length > 0 ? `${label} (${named.join(", ")})` : label;
      const sameUnitPeers = members.filter((j) => j !== i && labelsEqualQualifiers(items[j]!, items[i]!, telling));
      if (sameUnitPeers.length > 0) extended = `${extended} (per ${UNITS[items[i]!.unit]})`;
      labels[i] = extended;
    }
  }
  // Qualifiers a label always names, even when no other price shares its label:
  // - T344 (T181's `Input (fine_tuning: inference)`): a price of a fine-tuned model, so a base
  //   model's answer never seems to list it as its own (gpt-4o's lone fine-tuned cache write read
  //   "Input (cache write)");
  // - T530: a non-USD list's currency (T508), so Moonshot's CNY bracket `Input (≤ 8192 tokens)` never
  //   reads as dollars beside LiteLLM's USD `Input` of the same model.
  labels.forEach((label, i) => {
    for (const key of ALWAYS_NAMED) {
      const value = items[i]!.dimension.qualifiers[key];
      const named = `${key}: ${value}`;
      if (value !== undefined && !label.includes(named)) labels[i] = `${labels[i]} (${named})`;
    }
  });
  return labels;
}

function labelsEqualQualifiers(a: Labelable, b: Labelable, keys: readonly string[]): boolean {
  return keys.every((k) => a.dimension.qualifiers[k] === b.dimension.qualifiers[k]);
}

/**
 * A qualifier value as a label shows it: verbatim (a slug, D27), except a `time_window`, which a
 * reader gets as hours (T71): `1630-0030-utc-off-peak` → `16:30–00:30 UTC (off-peak)`.
 */
export function qualifierText(key: string, value: string): string {
  if (key !== "time_window") return value;
  const m = /^((?:\d{4}-\d{4})(?:_\d{4}-\d{4})*)-utc(?:-(off-peak|peak))?$/.exec(value);
  if (!m) return value;
  const hours = m[1]!
    .split("_")
    .map((span) =>
      span
        .split("-")
        .map((t) => `${t.slice(0, 2)}:${t.slice(2)}`)
        .join("–"),
    )
    .join(", ");
  return `${hours} UTC${m[2] ? ` (${m[2]})` : ""}`;
}
