import type { CacheKind, Dimension, Direction, Modality, Tier } from "../domain/dimension.js";
import { dimension } from "../domain/dimension.js";
import type { Unit } from "../domain/unit.js";

/**
 * The vocabulary of the per-adapter field maps (issue 13 §2, T70). Every adapter keeps, beside its
 * code, a `field-map.ts` that says for each upstream price field what it bills: direction,
 * modality, unit, tier, cache kind, qualifiers and the exact factor from the upstream's unit to
 * ours. Context brackets come from the upstream's own grammar (tier lists, `_above_<N>k_tokens`
 * suffixes), documented in each map. A field the map does not know is never published: the
 * adapter counts it ({@link UnmappedTally}) and `/sources` shows the count as `unmappedLastRun`.
 */

/** What one upstream price field bills. */
export interface FieldRule {
  readonly direction: Direction;
  readonly modality: Modality;
  readonly unit: Unit;
  readonly tier: Tier;
  readonly cache: CacheKind;
  readonly qualifiers: Readonly<Record<string, string>>;
  /** Exact decimal factor from the upstream's amount to the unit's (`"1e6"`: per token → per 1M tokens). */
  readonly factor: string;
}

/** A price field the adapter knows and deliberately does not publish, with the reason (no unit of ours, a fee of a plan…). */
export interface FieldSkip {
  readonly skip: string;
}

export type FieldEntry = FieldRule | FieldSkip;

export function isSkip(entry: FieldEntry): entry is FieldSkip {
  return "skip" in entry;
}

/** A rule with the common defaults (text, standard tier, no cache, no qualifiers). */
export function rule(
  direction: Direction,
  unit: Unit,
  factor: string,
  partial: Partial<Pick<FieldRule, "modality" | "tier" | "cache" | "qualifiers">> = {},
): FieldRule {
  return {
    direction,
    unit,
    factor,
    modality: partial.modality ?? "text",
    tier: partial.tier ?? "standard",
    cache: partial.cache ?? "none",
    qualifiers: partial.qualifiers ?? {},
  };
}

/**
 * The rule builder of an upstream's per-token fields: `perToken("1e6")("input", { cache: "read" })`
 * bills cache reads per 1M tokens from an amount per token (T151). The factor is the upstream's
 * unit to USD per 1M tokens: `"1"` (already per 1M), `"1e6"` (USD per token), `"1e4"` (cents per token).
 */
export function perToken(factor: string) {
  return (direction: Direction, partial: Parameters<typeof rule>[3] = {}): FieldRule =>
    rule(direction, "mtok", factor, partial);
}

/** The dimension a rule prices, with the bracket and extra qualifiers of where it was read. */
export function ruleDimension(
  r: FieldRule,
  at: Partial<Pick<Dimension, "tier" | "contextMin" | "contextMax" | "qualifiers">> = {},
): Dimension {
  return dimension(r.direction, {
    modality: r.modality,
    cache: r.cache,
    tier: at.tier ?? r.tier,
    contextMin: at.contextMin ?? 0,
    contextMax: at.contextMax ?? null,
    qualifiers: { ...r.qualifiers, ...(at.qualifiers ?? {}) },
  });
}

/** Occurrences of price fields a field map does not know, per field name. */
export class UnmappedTally {
  readonly #counts = new Map<string, number>();
  add(field: string, times = 1): void {
    this.#counts.set(field, (this.#counts.get(field) ?? 0) + times);
  }
  /** Field → occurrences, fields in byte order. */
  toRecord(): Record<string, number> {
    return Object.fromEntries([...this.#counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}
