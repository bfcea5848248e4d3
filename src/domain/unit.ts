/**
 * Units of a published amount. An amount is always in display units (api-v1.md §6, D7): the unit
 * says what one amount pays for, `denomination` whether it is money or plan credit.
 */
export const UNITS = {
  mtok: "1M tokens",
  image: "image",
  request: "request",
  krequests: "1K requests",
  kcalls: "1K calls",
  second: "second",
  minute: "minute",
  hour: "hour",
  mchars: "1M characters",
  page: "page",
} as const;
export type Unit = keyof typeof UNITS;

/** `currency` for money amounts; `credit` for plan-billed amounts, which are never converted to money (D7). */
export type Denomination = "currency" | "credit";

/**
 * Currency code of credit-billed amounts: ISO 4217 `XXX` ("no currency involved"), so no client
 * can read a plan's included usage as a money price.
 */
export const NO_CURRENCY = "XXX";

/** The human unit text of D7, e.g. `USD per 1M tokens`, `credits per 1M tokens (included in plan)`. */
export function displayUnit(unit: Unit, denomination: Denomination, currency: string): string {
  if (denomination === "credit") return `credits per ${UNITS[unit]} (included in plan)`;
  return `${currency} per ${UNITS[unit]}`;
}
