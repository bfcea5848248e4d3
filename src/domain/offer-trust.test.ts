import { describe, expect, it } from "vitest";
import { offerTrust, statedBySeller, UNCONFIRMED_BELOW_MAKER } from "./offer-trust.js";
import { lastPriceMove } from "./price-move.js";

// T340, T341, T452 on invented offers (the real ones are in test/one-answer.test.ts): the amounts
// are USD per 1M tokens, the maker's the Claude Sonnet 4.5 list price, $3 input. `judge`
// judges an offer on its seller's own list (one source is enough there, T452) unless told otherwise.
describe("offerTrust (T340, T341, T452)", () => {
  const judge = (
    amount: number,
    agreeingSources = 1,
    confidence: "high" | "medium" | "low" = "medium",
    sellerStated = true,
  ) => offerTrust({ confidence, amount, makerAmount: 3, agreeingSources, sellerStated });

  it("a reseller at the maker's price, or a little below it, may lead", () => {
    expect(judge(3)).toEqual({ trusted: true, makerRatio: 1, flags: [] });
    expect(judge(2.61)).toEqual({ trusted: true, makerRatio: 1.15, flags: [] });
  });

  it("3× below the maker on one source is unconfirmed (the page's flag, T452); just under 3× is not", () => {
    expect(UNCONFIRMED_BELOW_MAKER).toBe(3);
    expect(judge(1).flags).toEqual(["unconfirmed_below_maker"]);
    expect(judge(1.01)).toEqual({ trusted: true, makerRatio: 2.97, flags: [] });
    // The 302ai Qwen Max at 4.7× below led at 5×; now it is unconfirmed.
    expect(judge(3 / 4.7).flags).toEqual(["unconfirmed_below_maker"]);
  });

  it("one source that is not the seller's own list never leads beside a maker's price (T452)", () => {
    expect(judge(2.61, 1, "medium", false)).toEqual({ trusted: false, makerRatio: 1.15, flags: ["single_source"] });
    expect(judge(2.61, 2, "medium", false)).toEqual({ trusted: true, makerRatio: 1.15, flags: [] });
    // Without a maker's price there is nothing to fall back on: judged on confidence (T340).
    expect(offerTrust({ confidence: "medium", amount: 1, makerAmount: null, agreeingSources: 1 }).trusted).toBe(true);
  });

  it("the seller's own list is the source of its id or its maker page (T452)", () => {
    expect(statedBySeller("openrouter", ["openrouter"])).toBe(true);
    expect(statedBySeller("anthropic", ["official-anthropic"])).toBe(true);
    expect(statedBySeller("poe", ["models-dev"])).toBe(false);
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
      "single_source",
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
