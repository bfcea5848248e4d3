import type { RawAmount } from "../../domain/amount.js";
import { scaleAmount } from "../../domain/amount.js";
import type { Dimension } from "../../domain/dimension.js";
import { dimensionKey } from "../../domain/dimension.js";
import type { PriceObservation } from "../../domain/observation.js";
import { type FieldRule, ruleDimension } from "../field-map.js";

/** Where a price was read: the bracket, tier and extra qualifiers its rule's dimension takes. */
export type RuleAt = Parameters<typeof ruleDimension>[1];

/**
 * The per-unit price mapper every rule-table adapter shares (T151): an upstream amount, read by a
 * {@link FieldRule}, becomes one observation in the rule's unit (`raw × rule.factor`, exact decimal,
 * e.g. USD per token × 1e6 → USD per 1M tokens). The first price per dimension wins, so callers add
 * in their upstream's precedence order; a negative amount (a router's "variable price" marker) is
 * no price.
 * @throws AmountError from {@link add} when `raw` is not a decimal (callers skip that entry)
 */
export class PriceSet {
  readonly #byKey = new Map<string, PriceObservation>();

  /** @param currency ISO 4217 code of every amount added (upstreams in cents convert by factor). */
  constructor(private readonly currency = "USD") {}

  /** Adds `raw` as priced by `rule`, at `at` (bracket, tier, qualifiers); a dimension already set is kept. */
  add(rule: FieldRule, raw: RawAmount, at: RuleAt = {}): void {
    this.addAt(ruleDimension(rule, at), rule, raw);
  }

  /** {@link add} for a dimension the caller built itself. */
  addAt(dimension: Dimension, rule: Pick<FieldRule, "unit" | "factor">, raw: RawAmount): void {
    const key = dimensionKey(dimension);
    if (this.#byKey.has(key)) return;
    const amount = scaleAmount(raw, rule.factor);
    if (amount < 0) return;
    this.#byKey.set(key, { dimension, amount, unit: rule.unit, denomination: "currency", currency: this.currency });
  }

  /** The observations, in the order they were first added. */
  values(): PriceObservation[] {
    return [...this.#byKey.values()];
  }
}

/**
 * An upstream amount when it is a finite, non-negative decimal (a JSON number or a decimal
 * string); null for anything else (absent, `""`, `"N/A"`, negative, an object).
 */
export function amountOrNull(value: unknown): RawAmount | null {
  if (typeof value !== "number" && typeof value !== "string") return null;
  if (typeof value === "string" && value.trim() === "") return null;
  const n = typeof value === "number" ? value : Number(value.trim());
  return Number.isFinite(n) && n >= 0 ? value : null;
}
