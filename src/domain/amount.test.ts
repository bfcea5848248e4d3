import Big from "big.js";
import { describe, expect, it } from "vitest";
import { AmountError, amountsAgree, roundAmount, scaleAmount } from "./amount.js";

// Exact decimal conversion of upstream amounts (D7), with amounts as the recorded payloads state
// them. Unit tests: no replay.

describe("scaleAmount: upstream amount × factor, exactly (D7)", () => {
  it.each([
    // LiteLLM: USD per token as a JSON number (claude-opus-4 input)
    [0.000015, "1e6", 15],
    [3e-6, "1e6", 3],
    // OpenRouter: USD per token as a decimal string
    ["0.00000175", "1e6", 1.75],
    ["0.0000003", "1e6", 0.3],
    // Portkey: cents per token (deepseek-chat 0.014 ¢ → 0.14 USD per 1M tokens)
    [0.000014, "1e4", 0.14],
    // Portkey: cents per image → USD per image
    [4, "0.01", 0.04],
    // models.dev: already USD per 1M tokens
    [1.25, "1", 1.25],
    // web search per query → per 1K calls
    [0.01, "1000", 10],
    ["0", "1e6", 0],
  ])("%s × %s = %s", (raw, factor, expected) => {
    expect(scaleAmount(raw, factor)).toBe(expected);
  });

  it("leaves no binary noise where floats would (Portkey's 0.014 ¢ per token: 0.14, not 0.13999999999999999)", () => {
    expect(0.000014 * 1e4).not.toBe(0.14);
    expect(scaleAmount(0.000014, "1e4")).toBe(0.14);
    expect(scaleAmount("0.000014", "1e4")).toBe(0.14);
  });

  it("trims a decimal string and rounds to 10 significant digits", () => {
    expect(scaleAmount(" 0.000015 ", "1e6")).toBe(15);
    expect(scaleAmount("1.23456789012345", "1")).toBe(1.23456789);
  });

  it.each(["", "N/A", "0x10", "1,5", "abc"])("throws AmountError for %j", (raw) => {
    expect(() => scaleAmount(raw, "1e6")).toThrow(AmountError);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])("throws AmountError for %s", (raw) => {
    expect(() => scaleAmount(raw, "1e6")).toThrow(AmountError);
  });
});

describe("roundAmount and amountsAgree", () => {
  it("rounds Big and number alike, 0 to 0", () => {
    expect(roundAmount(new Big("0.123456789012"))).toBe(0.123456789);
    expect(roundAmount(0.123456789012)).toBe(0.123456789);
    expect(roundAmount(new Big(0))).toBe(0);
  });

  it.each([
    [15, 15, true],
    [0, 0, true],
    [15, 15.07, true], // 0.47 % apart (D8: within 0.5 %)
    [15, 15.08, false], // 0.53 %
    [0.14, 0.28, false],
    [0, 0.01, false],
  ])("%s and %s agree: %s", (a, b, agree) => {
    expect(amountsAgree(a, b)).toBe(agree);
    expect(amountsAgree(b, a)).toBe(agree);
  });
});
