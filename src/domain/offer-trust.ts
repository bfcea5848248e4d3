import { type Confidence, confidenceRank } from "./confidence.js";

/**
 * Which offers may lead a ranking by cost (issue 38 §2, T340): every offer is ranked, but the
 * headline ("cheapest") and the first rows are offers a careful buyer would trust — at least
 * `medium` confidence, and not far below the maker's own price on one source's word. Pure; the
 * `/cost` verb (API, MCP, the web calculator) and the web model page's offers read this one rule.
 */

/** The weakest confidence an offer may lead with (T340). */
export const LEADING_CONFIDENCE: Confidence = "medium";

/**
 * An offer this many times below the maker's own price, or more, is unconfirmed until a second
 * source states the same amount (T340; 5× until issue 50 §1, T452): one threshold, the one the web
 * pages flag an offer at, so nothing the page calls implausible leads a ranking.
 */
export const UNCONFIRMED_BELOW_MAKER = 3;

/**
 * Maker ÷ offer ratios that read as a yuan amount taken for dollars (T341): the CNY per USD rate
 * moved between 6.3 and 7.4 over the years the catalogue covers; the band is widened by rounding
 * of the amounts (a 0.43 for 3 is 6.98).
 */
export const CURRENCY_SLIP_RATIOS = { min: 6.2, max: 7.6 } as const;

/** Why an offer may not lead (empty when it may). */
export const TRUST_FLAGS = [
  "below_medium_confidence",
  "unconfirmed_below_maker",
  "suspected_currency_slip",
  "single_source",
] as const;
export type TrustFlag = (typeof TRUST_FLAGS)[number];

/** What the rule reads of an offer. Amounts in one currency and unit (USD per 1M tokens, or a total in USD). */
export interface TrustInput {
  /** The offer's (weakest) confidence; null when nothing is priced. */
  readonly confidence: Confidence | null;
  /** The offer's amount: a headline price or a workload's total. */
  readonly amount: number;
  /** The maker's own amount for the same thing and currency; null for the maker's own offer or when it states none. */
  readonly makerAmount: number | null;
  /** The fewest agreeing sources behind any price the amount is made of. */
  readonly agreeingSources: number;
  /**
   * The offer's price rests on the seller's own price list ({@link statedBySeller}), so one source is
   * enough (T452). Absent is false. Read only where there is a maker's amount to fall back on.
   */
  readonly sellerStated?: boolean;
}

/** The verdict: whether the offer may lead, the maker ÷ offer ratio it was judged on, and why not. */
export interface OfferTrust {
  readonly trusted: boolean;
  /** The maker's amount ÷ the offer's, 2 decimals (above 1: the offer is cheaper); null without a maker's amount or for a 0. */
  readonly makerRatio: number | null;
  readonly flags: readonly TrustFlag[];
}

/**
 * Judges one offer (T340, T341): `below_medium_confidence` when its confidence is under
 * {@link LEADING_CONFIDENCE} (or unknown); `unconfirmed_below_maker` when it is
 * {@link UNCONFIRMED_BELOW_MAKER}× or more below the maker's amount and fewer than two sources state
 * its price; `suspected_currency_slip` beside it when that ratio is a CNY/USD rate
 * ({@link CURRENCY_SLIP_RATIOS}); `single_source` when an offer of a model the maker prices rests on
 * fewer than two sources and not on the seller's own price list (T452). A maker's own offer is judged on its confidence alone.
 */
export function offerTrust(input: TrustInput): OfferTrust {
  const flags: TrustFlag[] = [];
  if (input.confidence === null || confidenceRank(input.confidence) < confidenceRank(LEADING_CONFIDENCE))
    flags.push("below_medium_confidence");
  // A 0 against a priced maker is infinitely below it: judged like any far-below offer.
  const ratio =
    input.makerAmount !== null && input.makerAmount > 0 && input.amount >= 0
      ? input.amount === 0
        ? Number.POSITIVE_INFINITY
        : input.makerAmount / input.amount
      : null;
  if (ratio !== null && ratio >= UNCONFIRMED_BELOW_MAKER && input.agreeingSources < 2) {
    flags.push("unconfirmed_below_maker");
    if (ratio >= CURRENCY_SLIP_RATIOS.min && ratio <= CURRENCY_SLIP_RATIOS.max) flags.push("suspected_currency_slip");
  }
  // T452: beside a maker's price, another offer leads on two sources' word, or on its own price list's.
  if (input.makerAmount !== null && input.agreeingSources < 2 && input.sellerStated !== true)
    flags.push("single_source");
  return {
    trusted: flags.length === 0,
    makerRatio: ratio === null || !Number.isFinite(ratio) ? null : Math.round(ratio * 100) / 100,
    flags,
  };
}

/**
 * True when one of `sources` is `seller`'s own price list (T452): the source of the same id
 * (`openrouter` for OpenRouter's offers) or its maker page (`official-<seller>`). Source ids as the
 * registry spells them.
 */
export function statedBySeller(seller: string, sources: readonly string[]): boolean {
  return sources.some((s) => s === seller || s === `official-${seller}`);
}
