import { isDiscount, TIME_WINDOW } from "../src/core/maker-agreement.js";
import { CURRENCY_PLATFORMS } from "../src/core/plausibility.js";
import { BOUNDS, DIRECTION_BOUNDS, MODALITY_UNITS } from "../src/core/price-bounds.js";
import { amountsAgree } from "../src/domain/amount.js";
import { CURRENCY_QUALIFIER, currencyQualifierOf } from "../src/domain/currency-qualifier.js";
import type { Dataset, PublishedPrice } from "../src/domain/dataset.js";
import { dimensionKey } from "../src/domain/dimension.js";
import { SOURCES } from "../src/sources/registry.js";

/**
 * Catalogue-wide invariants of issue 13 ("Must show"), as functions over a published dataset so
 * the test and the before/after figures of the closing note count the same way. Each returns the
 * violating prices (or groups), never throws.
 */

/** A positive amount outside its unit's bounds (T73). */
export function outOfBounds(dataset: Dataset): PublishedPrice[] {
  return dataset.prices.filter((p) => {
    if (p.amount === 0) return false;
    const [min, max] = DIRECTION_BOUNDS[`${p.unit}/${p.direction}`] ?? BOUNDS[p.unit];
    return p.amount < min || p.amount > max;
  });
}

/**
 * A money price of 0 that no source says is free (T74): not a free offer (a `:free` variant, a
 * model the seller itself names `…-free`) and not an output the seller does not bill beside a
 * positive input of the same dimension (an embedding's output), nor a model its maker offers free
 * (T330): the maker's own uncached standard input or output at 0, which two sources state or the
 * maker's own platform ({@link CURRENCY_PLATFORMS}) prices at 0 beside it.
 */
/** Each source's makers whose own list it is (`authoritativeFor`, D8). */
const MAKER_LISTS = new Map(SOURCES.map((a) => [a.id, a.info.authoritativeFor]));

export function zeroNotFree(dataset: Dataset): PublishedPrice[] {
  const offered = (p: PublishedPrice) =>
    p.tier === "standard" && p.cache === "none" && (p.direction === "input" || p.direction === "output");
  const free = (p: PublishedPrice, seller: string) =>
    `${p.modelId}|${seller}|${dimensionKey({ ...p, qualifiers: {} })}|${p.unit}`;
  const directZeros = new Set(
    dataset.prices.filter((p) => p.channel === "direct" && p.amount === 0 && offered(p)).map((p) => free(p, p.seller)),
  );
  const platformZeros = new Set(
    dataset.prices
      .filter((p) => p.amount === 0 && offered(p) && CURRENCY_PLATFORMS[p.seller] !== undefined)
      .map((p) => free(p, CURRENCY_PLATFORMS[p.seller]!.maker)),
  );
  const makerFree = (p: PublishedPrice) =>
    offered(p) &&
    ((p.channel === "direct" && (p.sources.length >= 2 || platformZeros.has(free(p, p.seller)))) ||
      (CURRENCY_PLATFORMS[p.seller] !== undefined && directZeros.has(free(p, CURRENCY_PLATFORMS[p.seller]!.maker))));
  const billedInputs = new Set(
    dataset.prices
      .filter((p) => p.direction === "input" && p.amount > 0)
      .map((p) => `${p.modelId}|${p.channel}|${p.seller}|${dimensionKey({ ...p, direction: "input" })}`),
  );
  return dataset.prices.filter(
    (p) =>
      p.amount === 0 &&
      p.denomination === "currency" &&
      p.qualifiers.variant !== "free" &&
      !/\bfree$/i.test(p.modelId) &&
      !makerFree(p) &&
      // The maker's own list states it free (issue 48, T434: Z.ai's `Free`, Mistral's `free: true`).
      !(p.channel === "direct" && p.sources.some((s) => MAKER_LISTS.get(s)?.includes(p.seller))) &&
      !(
        p.direction === "output" &&
        billedInputs.has(`${p.modelId}|${p.channel}|${p.seller}|${dimensionKey({ ...p, direction: "input" })}`)
      ),
  );
}

/**
 * Currency and credit mixed in one dimension (D7, T5): a credit price must be in `XXX` with a
 * credits display unit, a money price in a real currency, and one model, channel, seller and
 * dimension never holds both. Nor two currencies (T508): a money price in another currency than USD
 * carries the qualifier `currency` naming it (a dimension of its own), a USD or credit price none.
 */
export function currencyCreditMix(dataset: Dataset): string[] {
  const bad: string[] = [];
  const denominations = new Map<string, Set<string>>();
  for (const p of dataset.prices) {
    const credit = p.denomination === "credit";
    if (credit !== (p.currency === "XXX") || credit !== p.displayUnit.startsWith("credits"))
      bad.push(`${p.modelId} ${p.channel} ${p.label}`);
    if (p.qualifiers[CURRENCY_QUALIFIER] !== currencyQualifierOf(p))
      bad.push(`${p.modelId} ${p.channel} ${p.label}: ${p.currency} without its currency qualifier`);
    const key = `${p.modelId}|${p.channel}|${p.seller}|${dimensionKey(p)}`;
    const set = denominations.get(key) ?? new Set<string>();
    set.add(p.denomination);
    denominations.set(key, set);
  }
  for (const [key, set] of denominations) if (set.size > 1) bad.push(key);
  return bad;
}

/** A price no source re-confirmed (`staleSince` set) that is still `verified` or `high` (T75). */
export function staleButConfident(dataset: Dataset): PublishedPrice[] {
  return dataset.prices.filter(
    (p) => p.staleSince !== null && (p.confidence === "verified" || p.confidence === "high"),
  );
}

/** A unit that does not fit the modality (an image price per 1M text tokens, a text price per image). */
export function unitModalityMismatch(dataset: Dataset): PublishedPrice[] {
  return dataset.prices.filter((p) => !MODALITY_UNITS[p.modality].includes(p.unit));
}

/** All counts at once, for the closing note's before → after table. */
export function invariantCounts(dataset: Dataset): Record<string, number> {
  return {
    outOfBounds: outOfBounds(dataset).length,
    zeroNotFree: zeroNotFree(dataset).length,
    currencyCreditMix: currencyCreditMix(dataset).length,
    staleButConfident: staleButConfident(dataset).length,
    unitModalityMismatch: unitModalityMismatch(dataset).length,
  };
}

/** The standard price a discount (batch, flex, off-peak) price is judged against (T331). */
function standardOf(dataset: Dataset, p: PublishedPrice): PublishedPrice | undefined {
  const { [TIME_WINDOW]: _, ...qualifiers } = p.qualifiers;
  const same = (a: Record<string, string>, b: Record<string, string>) =>
    JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
  return dataset.prices.find(
    (s) =>
      !isDiscount(s) &&
      s.tier === "standard" &&
      s.modelId === p.modelId &&
      s.channel === p.channel &&
      s.seller === p.seller &&
      s.direction === p.direction &&
      s.modality === p.modality &&
      s.cache === p.cache &&
      s.contextMin === p.contextMin &&
      s.contextMax === p.contextMax &&
      s.unit === p.unit &&
      s.currency === p.currency &&
      same(s.qualifiers, qualifiers),
  );
}

/** Discount prices above their standard price, by how many sources state them (issue 36 §4 Must show). */
export function discountsAboveStandard(dataset: Dataset): { lone: PublishedPrice[]; agreed: PublishedPrice[] } {
  const above = dataset.prices.filter((p) => {
    if (!isDiscount(p)) return false;
    const s = standardOf(dataset, p);
    return s !== undefined && p.amount > s.amount && !amountsAgree(p.amount, s.amount);
  });
  return { lone: above.filter((p) => p.sources.length < 2), agreed: above.filter((p) => p.sources.length >= 2) };
}
