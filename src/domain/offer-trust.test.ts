import { describe, expect, it } from "vitest";
import { offerTrust } from "./offer-trust.js";
import { lastPriceMove } from "./price-move.js";

// T340, T341 on invented offers (the real ones are in test/one-answer.test.ts): the amounts are
// USD per 1M tokens, the maker's the Claude Sonnet 4.5 list price, $3 input.
describe("offerTrust (T340, T341)", () => {
  const judge = (amount: number, agreeingSources = 1, confidence: "high" | "medium" | "low" = "medium") =>
    offerTrust({ confidence, amount, makerAmount: 3, agreeingSources });

  it("a reseller at the maker's price, or a little below it, may lead", () => {
    expect(judge(3)).toEqual({ trusted: true, makerRatio: 1, flags: [] });
    expect(judge(2.61)).toEqual({ trusted: true, makerRatio: 1.15, flags: [] });
  });

  it("5× below the maker on one source is unconfirmed; just under 5× is not", () => {
    expect(judge(0.6).flags).toEqual(["unconfirmed_below_maker"]);
    expect(judge(0.61)).toEqual({ trusted: true, makerRatio: 4.92, flags: [] });
  });

  it("a second source stating the same amount confirms it", () => {
    expect(judge(0.43, 2)).toEqual({ trusted: true, makerRatio: 6.98, flags: [] });
  });

  it("a CNY amount read as USD (3 ÷ 7 ≈ 0.43) is a suspected currency slip; 10× below is unconfirmed only", () => {
    expect(judge(0.43)).toEqual({
      trusted: false,
      makerRatio: 6.98,
      flags: ["unconfirmed_below_maker", "suspected_currency_slip"],
    });
    // Whole totals as /cost compares them: the qihang-ai $51.48 against Anthropic's $360.
    expect(offerTrust({ confidence: "medium", amount: 51.48, makerAmount: 360, agreeingSources: 1 }).flags).toEqual([
      "unconfirmed_below_maker",
      "suspected_currency_slip",
    ]);
    expect(judge(0.3).flags).toEqual(["unconfirmed_below_maker"]);
  });

  it("below medium confidence never leads, even at the maker's price", () => {
    expect(judge(3, 3, "low")).toEqual({ trusted: false, makerRatio: 1, flags: ["below_medium_confidence"] });
    expect(offerTrust({ confidence: null, amount: 3, makerAmount: 3, agreeingSources: 0 }).trusted).toBe(false);
  });

  it("the maker's own offer, or an offer of a model the maker does not price, is judged on its confidence", () => {
    expect(offerTrust({ confidence: "high", amount: 0.1, makerAmount: null, agreeingSources: 1 })).toEqual({
      trusted: true,
      makerRatio: null,
      flags: [],
    });
  });

  it("a 0 against a priced maker is far below it", () => {
    expect(judge(0)).toEqual({ trusted: false, makerRatio: null, flags: ["unconfirmed_below_maker"] });
  });
});

describe("lastPriceMove (T344)", () => {
  const series = (label: string, ...points: [string, number][]) => ({ label, points });

  it("a series' first point is not a change", () => {
    expect(
      lastPriceMove([series("Input", ["2025-07-01", 2.5]), series("Output", ["2025-07-01", 10])], ["Input", "Output"]),
    ).toEqual({
      changedOn: null,
      since: "2025-07-01",
    });
  });

  it("the newest move of the named series; other series do not count", () => {
    const history = [
      series("Input", ["2025-07-01", 0.27], ["2025-10-01", 0.28]),
      series("Output", ["2025-07-01", 1.1], ["2025-09-01", 0.42]),
      series("Input (cache read)", ["2025-07-01", 0.028], ["2026-06-01", 0.0028]),
    ];
    expect(lastPriceMove(history, ["Input", "Output"])).toEqual({ changedOn: "2025-10-01", since: "2025-07-01" });
    expect(lastPriceMove(history, ["Input", "Output"], "2025-09-15")).toEqual({
      changedOn: "2025-09-01",
      since: "2025-07-01",
    });
  });

  it("no series of the labels: nothing to say", () => {
    expect(lastPriceMove([], ["Input"])).toEqual({ changedOn: null, since: null });
  });
});
