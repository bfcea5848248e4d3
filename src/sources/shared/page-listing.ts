import { scaleAmount } from "../../domain/amount.js";
import type { Listing, PriceObservation } from "../../domain/observation.js";
import { EMPTY_LISTING_META } from "../../domain/observation.js";
import { type FieldRule, ruleDimension } from "../field-map.js";
import type { RuleAt } from "./price-set.js";

/**
 * The listing and price builders of the makers' page sources (issue 48): a price a page states,
 * read by a field-map rule, in the page's currency; a listing sold by the maker itself.
 */

/**
 * One observation: `amount` (a decimal string as the page writes it, e.g. `"0.28"`) scaled by the
 * rule's factor to the rule's unit, at the bracket/tier/qualifiers `at` (T70).
 * @param currency ISO 4217 code the page states (`USD`; `CNY` for Moonshot's list, which the adapter
 *   boundary keys apart from USD, T508)
 */
export function pagePrice(rule: FieldRule, amount: string, at: RuleAt = {}, currency = "USD"): PriceObservation {
  return {
    dimension: ruleDimension(rule, at),
    amount: scaleAmount(amount, rule.factor),
    unit: rule.unit,
    denomination: "currency",
    currency,
  };
}

/** A listing of `model` sold by its maker (`seller` = `makerHint` = `maker`), the rest of its metadata from `meta`. */
export function makerListing(
  maker: string,
  model: string,
  prices: readonly PriceObservation[],
  meta: Partial<Omit<Listing, "seller" | "model" | "makerHint" | "prices">> = {},
): Listing {
  return { ...EMPTY_LISTING_META, ...meta, seller: maker, model, makerHint: maker, prices };
}

/** Amounts written `$0.20`, `\$0.6`, `$1,000` in `text`, in order, as decimal strings without separators. */
export function dollarAmounts(text: string): string[] {
  return [...text.matchAll(/\\?\$\s*(\d[\d,]*(?:\.\d+)?)/g)].map((m) => (m[1] as string).replace(/,/g, ""));
}
