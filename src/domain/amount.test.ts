import Big from "big.js";
import { describe, expect, it } from "vitest";
import { AmountError, amountsAgree, roundAmount, scaleAmount } from "./amount.js";

/**
 * Exact amount conversion (D7) and agreement (D8), with amounts as the recorded payloads spell
 * them (the comment names source, entry and run). Unit tests: no replay.
 */

describe("scaleAmount: upstream amounts to display units (D7)", () => {
  it.each([
    // litellm claude-opus-4-20250514 2026-06-01: JSON numbers in USD per token
    [1.5e-5, "1e6", 15],
    [7.5e-5, "1e6", 75],
    [1.875e-5, "1e6", 18.75],
    // litellm gpt-4o 2026-06-01 cache_read_input_token_cost
    [1.25e-6, "1e6", 1.25],
    // openrouter deepseek/deepseek-chat-v3.1 2026-06-01: decimal strings in USD per token
    ["0.00000079", "1e6", 0.79],
    ["0.00000013", "1e6", 0.13],
    // openrouter meta-llama/llama-3.3-70b-instruct 2026-06-01
    ["0.0000001", "1e6", 0.1],
    // portkey openai gpt-4o 2026-06-01: cents per token
    [0.00025, "1e4", 2.5],
    [0.000125, "1e4", 1.25],
    // portkey openai gpt-4.1 2026-06-01 cache_read_input_token 5e-05 cents per token
    [5e-5, "1e4", 0.5],
    // llm-prices amazon-nova-micro 2026-06-01: already USD per 1M tokens
    [0.035, 1, 0.035],
  ])("%s × %s = %s exactly", (raw, factor, expected) => {
    expect(scaleAmount(raw, factor)).toBe(expected);
  });

  it("binary float noise is gone: openrouter deepseek-chat-v3.1's 0.00000079 is 0.79, not 0.7899999999999999", () => {
    expect(Number("0.00000079") * 1e6).toBe(0.7899999999999999);
    expect(scaleAmount("0.00000079", "1e6")).toBe(0.79);
    expect(scaleAmount(7.9e-7, 1e6)).toBe(0.79);
  });

  it("a decimal string keeps its surrounding white space out", () => {
    expect(scaleAmount(" 0.000015 ", "1e6")).toBe(15);
  });

  it("the factor defaults to 1", () => {
    expect(scaleAmount("3")).toBe(3);
  });

  it.each([["abc"], [""], ["1,5"], ["0x10"], [Number.NaN], [Number.POSITIVE_INFINITY], [Number.NEGATIVE_INFINITY]])(
    "%s is no amount: AmountError",
    (raw) => {
      expect(() => scaleAmount(raw, "1e6")).toThrow(AmountError);
    },
  );

  it("the error names the offending value", () => {
    expect(() => scaleAmount("free", "1e6")).toThrow(/not a decimal amount: "free"/);
  });
});

describe("roundAmount: 10 significant digits (D7)", () => {
  it.each([
    [0, 0],
    [-0, 0],
    [0.1 + 0.2, 0.3],
    [1 / 3, 0.3333333333],
    [123456789012, 123456789000],
    [1e-12, 1e-12],
  ])("%s rounds to %s", (value, expected) => {
    expect(roundAmount(value)).toBe(expected);
  });

  it("takes a Big as well as a number", () => {
    expect(roundAmount(new Big("2.00000000049"))).toBe(2);
    expect(roundAmount(new Big("2.0000000005"))).toBe(2.000000001);
  });
});

describe("amountsAgree: within 0.5 % relative (D8)", () => {
  it.each([
    [15, 15, true],
    [0, 0, true],
    // 0.5 % of 15 is 0.075: on the boundary agrees, past it does not
    [15, 15.075, true],
    [15, 15.08, false],
    [15.075, 15, true],
    // a price and a zero never agree
    [0, 0.01, false],
    // a 1.25 cache read against a 1.5 one (litellm gpt-4o vs claude-opus-4): two prices
    [1.25, 1.5, false],
  ])("%s and %s agree: %s", (a, b, agree) => {
    expect(amountsAgree(a, b)).toBe(agree);
  });
});
