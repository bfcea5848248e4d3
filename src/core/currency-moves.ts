import type { ChangeRecord } from "../domain/change.js";
import type { Dataset, PublishedPrice } from "../domain/dataset.js";
import { sellerCurrency } from "../domain/seller-currencies.js";

/**
 * Currency moves are not price moves (issue 52 §2, T494). Pure.
 *
 * A seller known to price in another currency ({@link sellerCurrency}) whose list the sources
 * convert to USD: when its list moves by one factor in one run — the median ratio of its
 * continuing prices is {@link CURRENCY_FACTOR_RANGE} away from 1, and at least
 * {@link CURRENCY_LIST_SHARE} of them (and {@link CURRENCY_MIN_ROWS} or more) moved by that factor,
 * to the rounding of the new amount — the sources converted its list at a new rate: each of those
 * rows' `price_increase` / `price_decrease` is a `currency_change` (shown only when asked for). A
 * row that moved by another factor in the same run moved on the seller's own list too: it stays a
 * market move. Berget.AI's euro list on models.dev, 2026-05-01: six of its eight continuing rows ×1.1
 * (0.9 → 0.99, 0.3 → 0.33), two by more (gpt-oss-120b input 0.3 → 0.44).
 */
export function currencyChanges(changes: readonly ChangeRecord[], previous: Dataset, next: Dataset): ChangeRecord[] {
  const moved = new Set(
    changes
      .filter((c) => (c.kind === "price_increase" || c.kind === "price_decrease") && sellerCurrency(c.seller) !== null)
      .map((c) => c.seller),
  );
  if (moved.size === 0) return [...changes];
  const converted = new Set<string>();
  for (const seller of moved) for (const key of convertedRows(seller, previous, next)) converted.add(key);
  return changes.map((c) =>
    (c.kind === "price_increase" || c.kind === "price_decrease") && converted.has(rowKey(c))
      ? { ...c, kind: "currency_change" as const }
      : c,
  );
}

/** A move of a whole list is this far from 1 at least and at most (exchange rates, not price lists). */
export const CURRENCY_FACTOR_RANGE = [0.01, 0.25] as const;
/** Share of the seller's continuing rows that must move by the list's factor. */
export const CURRENCY_LIST_SHARE = 0.75;
/** Fewest rows moving by the factor. */
export const CURRENCY_MIN_ROWS = 3;

/**
 * The rows (`modelId|channel|seller|label`) of `seller`'s list that moved by its list's factor from
 * `previous` to `next`, when its whole list moved so ({@link currencyChanges}); else none.
 */
function convertedRows(seller: string, previous: Dataset, next: Dataset): string[] {
  const before = new Map(previous.prices.filter((p) => p.seller === seller).map((p) => [rowKey(p), p]));
  const pairs = next.prices.flatMap((now) => {
    const then = now.seller === seller ? before.get(rowKey(now)) : undefined;
    return then && then.unit === now.unit && then.currency === now.currency && then.amount > 0 && now.amount > 0
      ? [{ then, now }]
      : [];
  });
  if (pairs.length < CURRENCY_MIN_ROWS) return [];
  const ratios = pairs.map(({ then, now }) => now.amount / then.amount).sort((a, b) => a - b);
  const factor = ratios[Math.floor(ratios.length / 2)]!;
  const off = Math.abs(factor - 1);
  if (off < CURRENCY_FACTOR_RANGE[0] || off > CURRENCY_FACTOR_RANGE[1]) return [];
  const atFactor = pairs.filter(({ then, now }) => convertedBy(then, now, factor));
  if (atFactor.length < CURRENCY_MIN_ROWS || atFactor.length < CURRENCY_LIST_SHARE * pairs.length) return [];
  return atFactor.map(({ now }) => rowKey(now));
}

/** `now` is `then` × `factor`, to within 1% or the rounding of `now` (0.08 × 1.1 stated 0.09). */
export function convertedBy(
  then: Pick<PublishedPrice, "amount">,
  now: Pick<PublishedPrice, "amount">,
  factor: number,
): boolean {
  const expected = then.amount * factor;
  if (Math.abs(now.amount / expected - 1) <= 0.01) return true;
  const places = decimalsOf(now.amount);
  return places <= 2 && Math.abs(now.amount - expected) <= 0.5 * 10 ** -places + 1e-12;
}

function decimalsOf(x: number): number {
  const text = String(x);
  const dot = text.indexOf(".");
  return dot < 0 || text.includes("e") ? 0 : text.length - dot - 1;
}

function rowKey(p: Pick<ChangeRecord, "modelId" | "channel" | "seller" | "label">): string {
  return `${p.modelId}|${p.channel}|${p.seller}|${p.label}`;
}
