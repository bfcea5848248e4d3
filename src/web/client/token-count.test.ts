import { describe, expect, it } from "vitest";
import { formatTokenCount, parseTokenCount } from "./token-count.js";

// T348: the calculator takes counts as people write them ("2M tokens a day").

describe("token counts as people write them (T348)", () => {
  it.each([
    ["2M", 2_000_000],
    ["2m", 2_000_000],
    ["1.5M", 1_500_000],
    ["500K", 500_000],
    ["500 k", 500_000],
    ["2,000,000", 2_000_000],
    ["2 000 000", 2_000_000],
    ["1.2 million", 1_200_000],
    ["3B", 3_000_000_000],
    ["2M tokens", 2_000_000],
    ["10000", 10_000],
    ["", 0],
    ["  ", 0],
  ])("%j is %d", (text, n) => {
    expect(parseTokenCount(text)).toBe(n);
  });

  it.each(["-5", "two million", "2MB", "1e6", "2M3", "abc"])("%j is not a count", (text) => {
    expect(parseTokenCount(text)).toBeNull();
  });

  it("a count is shown back in the short form, and reads back as the same number", () => {
    for (const [n, text] of [
      [2_000_000, "2M"],
      [1_500_000, "1.5M"],
      [500_000, "500K"],
      [10_000, "10K"],
      [1_234_567, "1234567"],
      [999, "999"],
      [3_000_000_000, "3B"],
    ] as const) {
      expect(formatTokenCount(n)).toBe(text);
      expect(parseTokenCount(formatTokenCount(n))).toBe(n);
    }
  });
});
