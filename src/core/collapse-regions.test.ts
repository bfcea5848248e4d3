import { describe, expect, it } from "vitest";
import type { PublishedPrice } from "../domain/dataset.js";
import { dimension } from "../domain/dimension.js";
import { collapseRepeatedRegions } from "./collapse-regions.js";

// Rows shaped like the replay's Bedrock web-search fees of claude-sonnet-4-5 (LiteLLM, 10 USD per
// 1K calls in every region); trimmed to the fields the collapse reads.
function fee(region: string | null, amount = 10, disputed = false): Omit<PublishedPrice, "label"> {
  const qualifiers: Record<string, string> = { tool: "web_search", context_size: "high" };
  if (region) qualifiers.region = region;
  return {
    modelId: "anthropic/claude-sonnet-4-5",
    channel: "reseller_2",
    seller: "amazon-bedrock",
    ...dimension("tool", { qualifiers }),
    amount,
    unit: "kcalls",
    displayUnit: "USD per 1K calls",
    denomination: "currency",
    currency: "USD",
    confidence: "medium",
    confidenceScore: 0.6,
    sources: ["litellm"],
    dissenting: disputed ? ["portkey"] : [],
    disputed,
    fallbackAmount: null,
    effectiveFrom: "2026-06-01T00:00:00.000Z",
    staleSince: null,
    observations: [{ source: "litellm", amount, fresh: true }],
  };
}

describe("identical prices repeated per region collapse (T76)", () => {
  it("drops regional rows equal to the unregioned one", () => {
    const out = collapseRepeatedRegions([fee(null), fee("eu"), fee("us"), fee("jp")]);
    expect(out).toHaveLength(1);
    expect(out[0]!.qualifiers.region).toBeUndefined();
  });

  it("keeps regional rows that differ or are disputed", () => {
    const out = collapseRepeatedRegions([fee(null), fee("eu", 11), fee("us", 10, true), fee("au")]);
    expect(out.map((p) => p.qualifiers.region ?? "")).toEqual(["", "eu", "us"]);
  });

  it("stands one unregioned row for regions that all agree when no unregioned row exists", () => {
    const out = collapseRepeatedRegions([fee("eu"), fee("us")]);
    expect(out).toHaveLength(1);
    expect(out[0]!.qualifiers).toEqual({ tool: "web_search", context_size: "high" });
    expect(collapseRepeatedRegions([fee("eu"), fee("us", 12)])).toHaveLength(2);
  });

  it("never collapses sellers (D2 keeps qualifiers.seller)", () => {
    const a = { ...fee(null), channel: "other" as const, seller: "groq", qualifiers: { seller: "groq" } };
    const b = { ...fee(null), channel: "other" as const, seller: "cerebras", qualifiers: { seller: "cerebras" } };
    expect(collapseRepeatedRegions([a, b])).toHaveLength(2);
  });
});
