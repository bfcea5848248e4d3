import Big from "big.js";

/**
 * Exact decimal conversion of upstream amounts to display units (D7).
 *
 * Upstreams give amounts as JSON numbers (`3e-06` USD per token), decimal strings (`"0.00000175"`)
 * or cents. Multiplying binary floats leaves noise (`0.26999999999999996`); these helpers go through
 * decimal arithmetic and round to 10 significant digits, so the resulting JS number prints exactly
 * as its decimal (`0.27`).
 */

/** Raised when an upstream amount is not a finite decimal number. */
export class AmountError extends Error {
  override name = "AmountError";
}

/** Anything an upstream uses for an amount: a JSON number or a decimal string. */
export type RawAmount = number | string;

/**
 * Converts `raw × factor` exactly and returns a JS number with at most 10 significant digits.
 * @param raw upstream amount (number or decimal string)
 * @param factor exact scale, e.g. `"1e6"` for USD per token → USD per 1M tokens, `"1e4"` for cents per token → USD per 1M tokens
 * @throws AmountError when `raw` is not a finite decimal
 */
export function scaleAmount(raw: RawAmount, factor: string | number = 1): number {
  let value: Big;
  try {
    // String(number) is the shortest round-trip decimal of the float, so `3e-06` becomes exactly 0.000003.
    value = new Big(typeof raw === "number" ? String(raw) : raw.trim());
  } catch {
    throw new AmountError(`not a decimal amount: ${JSON.stringify(raw)}`);
  }
  if (typeof raw === "number" && !Number.isFinite(raw)) {
    throw new AmountError(`not a finite amount: ${raw}`);
  }
  return roundAmount(value.times(new Big(factor)));
}

/** Rounds a decimal to 10 significant digits (D7) and returns it as a JS number. */
export function roundAmount(value: Big | number): number {
  const big = value instanceof Big ? value : new Big(String(value));
  if (big.eq(0)) return 0;
  return Number(big.toPrecision(10));
}

/** Relative agreement of two amounts (D8: equal within 0.5 % relative). Two zeros agree. */
export function amountsAgree(a: number, b: number): boolean {
  if (a === b) return true;
  const scale = Math.max(Math.abs(a), Math.abs(b));
  return Math.abs(a - b) <= scale * 0.005;
}
