import { describe, expect, it } from "vitest";
import { dimension } from "../domain/dimension.js";
import type { SourceId } from "../domain/observation.js";
import { type AgreementPrice, loneOutliers, windowsAboveStandard } from "./maker-agreement.js";

// The rules' edges that the recorded payloads lack (every case the replay holds is a golden row of
// test/maker-agreement.test.ts): these rows are invented, shaped like the real ones they stand beside.

function price(
  channel: string,
  seller: string,
  amount: number,
  sources: SourceId[],
  partial: Parameters<typeof dimension>[1] = {},
  direction: "input" | "output" = "output",
): AgreementPrice {
  return {
    ...dimension(direction, partial),
    modelId: "mistral/ministral-8b",
    channel,
    seller,
    amount,
    sources,
    confidence: sources.length >= 2 ? "high" : "medium",
    unit: "mtok",
    denomination: "currency",
    currency: "USD",
  };
}

describe("loneOutliers (T332)", () => {
  const agreed = price("reseller_1", "openrouter", 0.1, ["genai-prices", "portkey"]);

  it("sets aside one source 3× or more from two that agree elsewhere, not one 2.9× off", () => {
    expect([...loneOutliers([price("direct", "mistral", 1, ["genai-prices"]), agreed], new Set())]).toEqual([
      [0, { amount: 0.1, sources: ["genai-prices", "portkey"] }],
    ]);
    expect(loneOutliers([price("direct", "mistral", 0.29, ["genai-prices"]), agreed], new Set()).size).toBe(0);
  });

  it("needs an agreement: one other source, or a tie between two amounts, is none", () => {
    const lone = price("direct", "mistral", 1, ["litellm"]);
    expect(loneOutliers([lone, price("reseller_1", "openrouter", 0.1, ["portkey"])], new Set()).size).toBe(0);
    const other = price("reseller_2", "amazon-bedrock", 0.3, ["models-dev", "llm-prices"]);
    expect(loneOutliers([lone, agreed, other], new Set()).size).toBe(0);
  });

  it("leaves two agreeing sources, a verified price, a cache write and a reseller's price of open weights alone", () => {
    expect(loneOutliers([price("direct", "mistral", 1, ["litellm", "portkey"]), agreed], new Set()).size).toBe(0);
    expect(
      loneOutliers(
        [{ ...price("direct", "mistral", 1, ["official-anthropic"]), confidence: "verified" }, agreed],
        new Set(),
      ).size,
    ).toBe(0);
    const write = { cache: "write" } as const;
    expect(
      loneOutliers(
        [
          price("direct", "mistral", 1, ["portkey"], write),
          price("reseller_1", "openrouter", 0.1, ["models-dev", "genai-prices"], write),
        ],
        new Set(),
      ).size,
    ).toBe(0);
    const azure = price("reseller_3", "azure", 1, ["portkey"]);
    const maker = price("direct", "mistral", 0.1, ["litellm", "models-dev"]);
    expect(loneOutliers([azure, maker], new Set()).size).toBe(1);
    expect(loneOutliers([azure, maker], new Set(["mistral/ministral-8b"])).size).toBe(0);
  });
});

describe("loneOutliers (T332): one offer only", () => {
  it("a reseller selling another model under the same id (its headline input shares no amount) witnesses nothing", () => {
    const reasoning = (channel: string, seller: string, amount: number, sources: SourceId[]) => ({
      ...price(channel, seller, amount, sources),
      direction: "reasoning" as const,
    });
    const lone = reasoning("direct", "google", 2.5, ["litellm"]);
    const resold = reasoning("reseller_1", "openrouter", 9, ["openrouter", "models-dev"]);
    const directInput = price("direct", "google", 0.3, ["litellm", "models-dev"], {}, "input");
    expect(
      loneOutliers(
        [lone, resold, directInput, price("reseller_1", "openrouter", 1.5, ["openrouter", "models-dev"], {}, "input")],
        new Set(),
      ).size,
    ).toBe(0);
    expect(
      loneOutliers(
        [lone, resold, directInput, price("reseller_1", "openrouter", 0.3, ["openrouter", "models-dev"], {}, "input")],
        new Set(),
      ).size,
    ).toBe(1);
  });
});

describe("windowsAboveStandard (T331)", () => {
  const standard = price("direct", "deepseek", 0.28, ["models-dev", "portkey"]);
  const offPeak = { qualifiers: { time_window: "1630-0030-utc-off-peak" } };

  it("holds back one source's off-peak or batch price above standard; two agreeing sources keep it", () => {
    const window = price("direct", "deepseek", 0.55, ["genai-prices"], offPeak);
    const batch = price("direct", "deepseek", 0.3, ["portkey"], { tier: "batch" });
    expect([...windowsAboveStandard([standard, window, batch]).keys()]).toEqual([1, 2]);
    const agreed = price("direct", "deepseek", 0.55, ["genai-prices", "litellm"], offPeak);
    expect(windowsAboveStandard([standard, agreed]).size).toBe(0);
  });

  it("keeps a discount at or below standard, a priority tier above it, and a window with no standard beside it", () => {
    const below = price("direct", "deepseek", 0.135, ["genai-prices"], offPeak);
    const priority = price("direct", "deepseek", 0.5, ["portkey"], { tier: "priority" });
    const alone = price("direct", "deepseek", 0.55, ["genai-prices"], { ...offPeak, cache: "read" });
    expect(windowsAboveStandard([standard, below, priority, alone]).size).toBe(0);
  });
});
