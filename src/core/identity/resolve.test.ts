import { describe, expect, it } from "vitest";
import { recordedAdapter } from "../../../test/recorded-payloads.js";
import type { SourceId } from "../../domain/observation.js";
import { genaiPricesSource } from "../../sources/genai-prices/index.js";
import { litellmSource } from "../../sources/litellm/index.js";
import { modelsDevSource } from "../../sources/models-dev/index.js";
import type { SourceAdapter } from "../../sources/source.js";
import { resolveIdentities, type SourceListings } from "./resolve.js";

// resolveIdentities on a handful of real listings of the 2025-07-01 run (issue 12 §1–6): the
// spellings of one model across sellers meet at the maker's id, each in its own channel; near
// names stay apart. Unit tests: small inputs taken from the recorded payloads, no replay.
const RUN = "2025-07-01";
const ADAPTERS: readonly SourceAdapter[] = [modelsDevSource, genaiPricesSource, litellmSource];

/** The listings of the run named `source seller model`, grouped per source as identity receives them. */
function inputOf(picks: readonly string[]): SourceListings[] {
  const named = picks.map((p) => p.split(" ") as [SourceId, string, string]);
  return ADAPTERS.map((a) => ({
    source: a.id,
    makerSpellings: a.info.makerSpellings ?? false,
    listings: named
      .filter(([source]) => source === a.id)
      .map(([, seller, model]) => recordedAdapter(a).listing(RUN, seller, model)),
  })).filter((s) => s.listings.length > 0);
}

/** `source seller model → modelId channel` per resolved listing. */
function placed(input: SourceListings[]): string[] {
  return resolveIdentities(input)
    .resolved.map((r) => `${r.source} ${r.listing.seller} ${r.listing.model} → ${r.modelId} ${r.channel}`)
    .sort();
}

const OPUS_4 = [
  "models-dev anthropic claude-opus-4-20250514",
  "models-dev amazon-bedrock anthropic.claude-opus-4-20250514-v1:0",
  "models-dev openrouter anthropic/claude-opus-4",
  "litellm amazon-bedrock us.anthropic.claude-opus-4-20250514-v1:0",
  "litellm google-vertex claude-opus-4@20250514",
  "genai-prices openrouter claude-opus-4",
] as const;

const GPT_4O = [
  "models-dev openai gpt-4o",
  "models-dev openai gpt-4o-mini",
  "models-dev azure gpt-4o",
  "litellm openrouter openai/gpt-4o",
  "genai-prices openrouter openai/gpt-4o:extended",
  "genai-prices openai gpt-4o:extended",
] as const;

describe("one model across sellers and spellings (D1, D2)", () => {
  it("Claude Opus 4: the maker's dated id, Bedrock (regional too), Vertex and OpenRouter spellings", () => {
    expect(placed(inputOf(OPUS_4))).toEqual([
      "genai-prices openrouter claude-opus-4 → anthropic/claude-opus-4-20250514 reseller_1",
      "litellm amazon-bedrock us.anthropic.claude-opus-4-20250514-v1:0 → anthropic/claude-opus-4-20250514 reseller_2",
      "litellm google-vertex claude-opus-4@20250514 → anthropic/claude-opus-4-20250514 reseller_4",
      "models-dev amazon-bedrock anthropic.claude-opus-4-20250514-v1:0 → anthropic/claude-opus-4-20250514 reseller_2",
      "models-dev anthropic claude-opus-4-20250514 → anthropic/claude-opus-4-20250514 direct",
      "models-dev openrouter anthropic/claude-opus-4 → anthropic/claude-opus-4-20250514 reseller_1",
    ]);
  });

  it("a Bedrock cross-region profile keeps its region as a qualifier", () => {
    const us = resolveIdentities(inputOf(OPUS_4)).resolved.find((r) => r.listing.model.startsWith("us."));
    expect(us?.qualifiers).toEqual({ region: "us" });
  });

  it("GPT-4o: mini stays its own model; Azure and OpenRouter resell it; a router variant is a qualifier", () => {
    const where = Object.fromEntries(
      resolveIdentities(inputOf(GPT_4O)).resolved.map((r) => [
        `${r.source} ${r.listing.seller} ${r.listing.model}`,
        `${r.modelId} ${r.channel}`,
      ]),
    );
    expect(where).toEqual({
      "genai-prices openrouter openai/gpt-4o:extended": "openai/gpt-4o reseller_1",
      "litellm openrouter openai/gpt-4o": "openai/gpt-4o reseller_1",
      "models-dev azure gpt-4o": "openai/gpt-4o reseller_3",
      "models-dev openai gpt-4o": "openai/gpt-4o direct",
      "models-dev openai gpt-4o-mini": "openai/gpt-4o-mini direct",
    });
    const extended = resolveIdentities(inputOf(GPT_4O)).resolved.find((r) => r.listing.model.endsWith(":extended"));
    expect(extended?.qualifiers).toEqual({ variant: "extended" });
  });

  it("a router's variant filed under the maker is unmatched, saying why, never the maker's price", () => {
    expect(resolveIdentities(inputOf(GPT_4O)).unmatched).toEqual([
      expect.objectContaining({
        source: "genai-prices",
        seller: "openai",
        model: "gpt-4o:extended",
        reason: "a router's :extended variant filed under the maker: not the maker's price",
      }),
    ]);
  });

  it("does not depend on the order of sources or of their listings", () => {
    const input = inputOf([...OPUS_4, ...GPT_4O]);
    const reversed = [...input].reverse().map((s) => ({ ...s, listings: [...s.listings].reverse() }));
    expect(placed(reversed)).toEqual(placed(input));
  });
});
