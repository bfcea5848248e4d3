import type { PriceObservation } from "./observation.js";

/**
 * A price list's currency in the price's identity (issue 48 §2, T508). Pure.
 *
 * A slot of the catalogue is keyed by model, channel, seller, dimension and unit — not by currency
 * (T431) — so a maker's CNY list (Moonshot's platform.moonshot.cn) would land in the slot of the USD
 * amounts the aggregators state for the same dimension, be compared and reconciled with them, and
 * win it as the authoritative statement. A money price in any currency but USD therefore carries the
 * qualifier `currency` (the ISO 4217 code, `Input (currency: CNY)` by D27): its dimension, slot,
 * series and label are its own, and every comparison between sources (the plausibility guards,
 * reconciliation, the maker-agreement rules, which all key by dimension) keeps it apart from USD.
 * USD, the currency every aggregator states, carries none, so no existing price's key changes.
 * Applied at the adapter boundary (`listing-boundary.ts`), the one place every source's listings
 * pass, so no adapter can forget it; a `currency` qualifier an upstream wrote is replaced by the
 * price's own currency (or removed from a USD or credit price). Never a conversion: the amount is
 * the list's own.
 */

/** The qualifier that names a non-USD money price's currency. */
export const CURRENCY_QUALIFIER = "currency";

/** The currency whose money prices carry no {@link CURRENCY_QUALIFIER}: the one every aggregator states. */
export const KEY_CURRENCY = "USD";

/** The `currency` qualifier value `p` must carry: its currency for a non-USD money price, else none (undefined). */
export function currencyQualifierOf(p: Pick<PriceObservation, "denomination" | "currency">): string | undefined {
  return p.denomination === "currency" && p.currency !== KEY_CURRENCY ? p.currency : undefined;
}

/** `p` with its `currency` qualifier set as {@link currencyQualifierOf} says (the same object when it already is). */
export function withCurrencyQualifier(p: PriceObservation): PriceObservation {
  const want = currencyQualifierOf(p);
  const has = p.dimension.qualifiers[CURRENCY_QUALIFIER];
  if (want === has) return p;
  const { [CURRENCY_QUALIFIER]: _, ...rest } = p.dimension.qualifiers;
  const qualifiers = want === undefined ? rest : { ...rest, [CURRENCY_QUALIFIER]: want };
  return { ...p, dimension: { ...p.dimension, qualifiers } };
}
