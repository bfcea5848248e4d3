import { describe, expect, it } from "vitest";
import { MAKER_CLOUDS } from "../../domain/sellers.js";
import { isMakerCloud, saleOf } from "./passes/channel.js";
import { keyOf, parseSpelling } from "./spelling.js";

/**
 * A maker's own cloud is its direct channel, and Bedrock's `-v1` on Nova is no identity (issue 36
 * §2, T325, T326). Each row names the recorded listing it comes from. Unit tests: no replay.
 */

describe("saleOf: where a listing's prices are published (D2, T325)", () => {
  it.each([
    // models-dev amazon-bedrock amazon.nova-pro-v1:0 2026-06-01: Amazon's price, under Amazon
    ["amazon-bedrock", "amazon", true, "direct", "amazon", false],
    ["amazon-bedrock", "amazon", false, "direct", "amazon", false],
    // litellm azure Phi-4 2026-06-01: Microsoft sells its models through Azure
    ["azure", "microsoft", false, "direct", "microsoft", false],
    // portkey google-vertex gemini-2.5-pro 2026-06-01: the Gemini API prices it, Vertex is a resale
    ["google-vertex", "google", true, "reseller_4", "google-vertex", false],
    // (invented: no recorded run has a Google model that only Vertex prices) Vertex is then Google's price
    ["google-vertex", "google", false, "direct", "google", false],
    // portkey byteplus seed-1-6 2026-06-01: a maker's platform beside another keeps its seller qualifier
    ["byteplus", "bytedance", false, "direct", "byteplus", true],
    // models-dev amazon-bedrock anthropic.claude-opus-4-8, azure gpt-4o 2026-06-01: other makers' models are resales
    ["amazon-bedrock", "anthropic", false, "reseller_2", "amazon-bedrock", false],
    ["azure", "openai", false, "reseller_3", "azure", false],
    // models-dev vercel amazon/nova-lite: a reseller of Nova is no Amazon cloud
    ["vercel", "amazon", false, "other", "vercel", true],
  ] as const)("%s selling %s (maker sells: %s) → %s under %s, qualified %s", (seller, maker, sells, channel, as, q) => {
    expect(saleOf(seller, maker, sells)).toEqual({ channel, seller: as, qualified: q });
  });

  it("every cloud names a maker and a reason; only Vertex depends on the maker's own listing", () => {
    for (const [seller, c] of Object.entries(MAKER_CLOUDS)) {
      expect(c.reason.length, seller).toBeGreaterThan(20);
      expect(isMakerCloud(seller, c.maker, true)).toBe(c.scope === "all");
      expect(isMakerCloud(seller, c.maker, false)).toBe(true);
    }
    expect(
      Object.entries(MAKER_CLOUDS)
        .filter(([, c]) => c.scope === "unpriced")
        .map(([s]) => s),
    ).toEqual(["google-vertex"]);
  });
});

describe("Bedrock's -v1 on Amazon's Nova ids is no identity (T326)", () => {
  it.each([
    // litellm amazon (amazon-nova/…) 2026-06-01
    ["nova-lite-v1", "nova-lite"],
    ["nova-micro-v1", "nova-micro"],
    ["nova-premier-v1", "nova-premier"],
    // openrouter amazon/nova-pro-v1, amazon/nova-2-lite-v1 2026-06-01
    ["nova-pro-v1", "nova-pro"],
    ["nova-2-lite-v1", "nova-2-lite"],
    // Deepgram's Nova ids carry no -v1 and are untouched (litellm deepgram 2026-06-01)
    ["nova-2-general", "nova-2-general"],
    ["nova-3-medical", "nova-3-medical"],
  ])("%s reads as %s", (core, key) => {
    expect(keyOf(core)).toBe(key);
  });

  it("Bedrock's own id and a reseller's copy read as one key (models-dev amazon-bedrock, kilo 2026-06-01)", () => {
    expect(parseSpelling("amazon.nova-lite-v1:0").key).toBe(parseSpelling("amazon/nova-lite-v1").key);
    // a version other than v1 stays a version (litellm amazon-bedrock amazon.titan-embed-text-v2:0)
    expect(parseSpelling("amazon.titan-embed-text-v2:0").key).toBe("titan-embed-text-v2");
  });
});
