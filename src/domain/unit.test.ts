import { describe, expect, it } from "vitest";
import { eachCase } from "../../test/cases.js";
import { CONFIDENCE_LEVELS, confidenceRank, isConfidence } from "./confidence.js";
import { displayUnit, NO_CURRENCY, UNITS } from "./unit.js";

/** Display units (api-v1.md §6, D7) and confidence levels (D8). Unit tests: no replay. */

describe("displayUnit (D7)", () => {
  eachCase("displayUnit", displayUnit, [
    ["mtok", "currency", "USD", "USD per 1M tokens"],
    ["image", "currency", "USD", "USD per image"],
    ["krequests", "currency", "USD", "USD per 1K requests"],
    // invented: no recorded payload prices in another currency, but the unit text is not tied to USD
    ["mtok", "currency", "EUR", "EUR per 1M tokens"],
    // a coding plan's included usage is credit, never money (D7)
    ["mtok", "credit", NO_CURRENCY, "credits per 1M tokens (included in plan)"],
  ]);

  it("credit ignores the currency it is given", () => {
    expect(displayUnit("request", "credit", "USD")).toBe("credits per request (included in plan)");
  });

  it("credit carries ISO 4217's no-currency code", () => {
    expect(NO_CURRENCY).toBe("XXX");
  });

  it("every unit has its text", () => {
    for (const [unit, text] of Object.entries(UNITS))
      expect(displayUnit(unit as keyof typeof UNITS, "currency", "USD")).toBe(`USD per ${text}`);
  });
});

describe("confidence levels (D8)", () => {
  it("rank 4 for verified down to 0 for unverified", () => {
    expect(CONFIDENCE_LEVELS.map(confidenceRank)).toEqual([4, 3, 2, 1, 0]);
    expect(confidenceRank("verified")).toBeGreaterThan(confidenceRank("high"));
  });

  it("isConfidence: the five levels exactly, as the API spells them", () => {
    for (const level of CONFIDENCE_LEVELS) expect(isConfidence(level), level).toBe(true);
    for (const other of ["HIGH", "great", "certain", ""]) expect(isConfidence(other), other).toBe(false);
  });
});
