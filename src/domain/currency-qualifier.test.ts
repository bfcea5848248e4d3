import { describe, expect, it } from "vitest";
import { withCurrencyQualifier } from "./currency-qualifier.js";
import { dimension, dimensionKey } from "./dimension.js";
import type { PriceObservation } from "./observation.js";

// T508: a non-USD money price has a dimension of its own; USD and credits keep theirs.
const price = (
  currency: string,
  qualifiers: Record<string, string> = {},
  denomination = "currency",
): PriceObservation => ({
  dimension: dimension("input", { qualifiers }),
  amount: 4,
  unit: "mtok",
  denomination: denomination as PriceObservation["denomination"],
  currency,
});

describe("withCurrencyQualifier", () => {
  it("names a CNY or EUR price's currency in its qualifiers, so its key differs from the USD price's", () => {
    const cny = withCurrencyQualifier(price("CNY"));
    expect(cny.dimension.qualifiers).toEqual({ currency: "CNY" });
    expect(cny.amount).toBe(4); // never converted
    expect(dimensionKey(cny.dimension)).not.toBe(dimensionKey(price("USD").dimension));
    expect(withCurrencyQualifier(price("EUR", { region: "eu" })).dimension.qualifiers).toEqual({
      region: "eu",
      currency: "EUR",
    });
  });

  it("leaves a USD price and a credit price as they are, and drops an upstream's stray `currency` from them", () => {
    const usd = price("USD");
    expect(withCurrencyQualifier(usd)).toBe(usd);
    expect(withCurrencyQualifier(price("XXX", {}, "credit")).dimension.qualifiers).toEqual({});
    expect(withCurrencyQualifier(price("USD", { currency: "CNY" })).dimension.qualifiers).toEqual({});
    expect(withCurrencyQualifier(price("CNY", { currency: "USD" })).dimension.qualifiers).toEqual({ currency: "CNY" });
  });
});
