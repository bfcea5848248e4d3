import { CHANNEL_NAMES, CHANNELS, type Channel } from "../../domain/channel.js";
import { CONFIDENCE_LEVELS } from "../../domain/confidence.js";
import { isHeadlinePrice } from "../../domain/listed-price.js";
import { UNCONFIRMED_BELOW_MAKER } from "../../domain/offer-trust.js";
import type { Price } from "./types.js";

export { CONFIDENCE_LEVELS };

const currencyFormats = new Map<string, Intl.NumberFormat>();
const plain = new Intl.NumberFormat("en", { maximumFractionDigits: 6 });

/**
 * An amount as a person reads it: money in its currency with 2 to 6 decimals (`$15.00`,
 * `$0.0048`, `$15.00002`), credits as a plain number with the word (D7: never converted).
 */
export function formatAmount(amount: number, price: Pick<Price, "denomination" | "currency">): string {
  if (price.denomination === "credit") return `${plain.format(amount)} credits`;
  let format = currencyFormats.get(price.currency);
  if (!format) {
    format = new Intl.NumberFormat("en", {
      style: "currency",
      currency: price.currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: 6,
    });
    currencyFormats.set(price.currency, format);
  }
  return format.format(amount);
}

/** The unit of a display unit without its currency: "USD per 1M tokens" → "per 1M tokens". */
export function unitOnly(displayUnit: string): string {
  const i = displayUnit.indexOf(" per ");
  return i < 0 ? displayUnit : displayUnit.slice(i + 1);
}

/** The date part of an ISO timestamp (`2026-06-01`), or "—" for null. */
export function formatDate(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 10) : "—";
}

/** A whole number with thousands separators, or "—" for null. */
export function formatCount(n: number | null | undefined): string {
  return n === null || n === undefined ? "—" : plain.format(n);
}

/** A signed percentage with one decimal (`+25.0 %`), or "—" for null. */
export function formatPct(pct: number | null): string {
  if (pct === null) return "—";
  return `${pct > 0 ? "+" : ""}${pct.toFixed(1)} %`;
}

/**
 * The headline price of a direction (T202): text, standard tier, no cache, no context bracket, no
 * qualifier but a seller, money per million tokens (what a catalogue row and the compare chart show).
 */
export function headline(prices: readonly Price[], direction: "input" | "output"): Price | undefined {
  return prices.find((p) => p.direction === direction && isHeadlinePrice(p));
}

/** A money total: `$60.00`, at least 2 and at most 4 decimals (`$0.0012`). */
export function formatMoney(amount: number, currency: string): string {
  return new Intl.NumberFormat("en", {
    style: "currency",
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: amount !== 0 && Math.abs(amount) < 0.01 ? 6 : 2,
  }).format(amount);
}

/** How far an amount is from a reference: "7.0× below", "2.5× above", or null within 1 %. */
export function formatRatio(amount: number, reference: number): string | null {
  if (reference <= 0 || amount <= 0) return null;
  const ratio = amount / reference;
  if (Math.abs(ratio - 1) < 0.01) return null;
  return ratio < 1 ? `${(1 / ratio).toFixed(1)}× below` : `${ratio.toFixed(1)}× above`;
}

/**
 * An offer this far from the maker's list price is flagged for checking (T209): 3× either way, the
 * same threshold under which an offer on one source's word may not lead (T452): one number.
 */
export const OUTLIER_RATIO = UNCONFIRMED_BELOW_MAKER;

/** True when `amount` is {@link OUTLIER_RATIO} times or more below or above `reference` (T209). */
export function isOutlier(amount: number, reference: number): boolean {
  return amount * OUTLIER_RATIO <= reference || amount >= reference * OUTLIER_RATIO;
}

/** The weaker of the given confidence levels (a row is as sure as its least sure price). */
export function weakest(levels: readonly string[]): string | undefined {
  let worst = -1;
  for (const level of levels) worst = Math.max(worst, CONFIDENCE_LEVELS.indexOf(level as never));
  return worst < 0 ? undefined : CONFIDENCE_LEVELS[worst];
}

/**
 * A channel's name (D2), the same words `/meta` serves, known without waiting for it: a name that
 * arrived late would change a line's length and move what follows (T208).
 */
export function channelName(id: string): string {
  return CHANNEL_NAMES[id as Channel] ?? id;
}

/** Every channel of D2 with its name, in D2 order (for the channel selects). */
export const CHANNEL_OPTIONS: readonly { readonly id: Channel; readonly name: string }[] = CHANNELS.map((id) => ({
  id,
  name: CHANNEL_NAMES[id],
}));
