import { describe, expect, it } from "vitest";
import { eachCase } from "../../../test/cases.js";
import { EMPTY_LISTING_META, type Listing } from "../../domain/observation.js";
import { channelOf } from "../../domain/sellers.js";
import { platformMaker, readMaker } from "./maker.js";
import { channelFor, normalizeName } from "./resolve.js";
import { parseSpelling } from "./spelling.js";

/**
 * Who made a listed model and on what evidence (issue 12 T61), and the channel of a seller's
 * listing of it (D2, §6). Seller, spelling and metadata of each listing are those of the recorded
 * payloads (the comment names source and run); prices play no part here. Unit tests: no replay.
 */

/** The sellers of the 2026-06-01 run these cases need: an org equal to a seller is its namespace. */
const SELLERS = new Set(["anthropic", "openrouter", "amazon-bedrock", "deepinfra", "fireworks-ai", "alibaba", "azure"]);

function read(seller: string, model: string, meta: Partial<Listing> = {}) {
  const listing: Listing = { ...EMPTY_LISTING_META, seller, model, prices: [], ...meta };
  return readMaker(listing, parseSpelling(model), SELLERS);
}

describe("readMaker: the maker and its evidence (T61)", () => {
  it.each([
    // models-dev anthropic: the maker's own listing
    ["anthropic", "claude-opus-4-20250514", {}, { maker: "anthropic", evidence: "own" }],
    // models-dev amazon-bedrock 2026-06-01: Amazon's own Nova on its own platform
    ["amazon-bedrock", "amazon.nova-pro-v1:0", {}, { maker: "amazon", evidence: "own" }],
    // litellm amazon-bedrock 2026-06-01: another maker's model on Bedrock names its maker's organisation
    ["amazon-bedrock", "anthropic.claude-opus-4-20250514-v1:0", {}, { maker: "anthropic", evidence: "org" }],
    // openrouter 2026-06-01: the maker's organisation in the path
    ["openrouter", "deepseek/deepseek-r1-0528", {}, { maker: "deepseek", evidence: "org" }],
    ["openrouter", "meta-llama/llama-3.3-70b-instruct", {}, { maker: "meta", evidence: "org" }],
    // openrouter 2026-06-01: a third party's fine-tune, its publisher is the maker
    ["openrouter", "sao10k/l3.3-euryale-70b", {}, { maker: "sao10k", evidence: "publisher" }],
    // portkey alibaba 2026-06-01: Alibaba Cloud reselling Z.AI's GLM, by family
    ["alibaba", "glm-4.7", {}, { maker: "zai", evidence: "family" }],
    // models-dev fireworks-ai 2026-06-01: a family under the gateway's folders
    ["fireworks-ai", "accounts/fireworks/models/kimi-k2p5", {}, { maker: "moonshotai", evidence: "family" }],
    // the override file: Writer's Palmyra on Bedrock (litellm amazon-bedrock 2026-06-01)
    ["amazon-bedrock", "us.writer.palmyra-x5-v1:0", {}, { maker: "writer", evidence: "publisher" }],
  ] as const)("%s %s", (seller, model, meta, expected) => {
    expect(read(seller, model, meta)).toEqual(expected);
  });

  it("the family of the display name counts where the id names none (models-dev azure model-router, an invented name)", () => {
    expect(read("azure", "model-router")).toBeNull();
    expect(read("azure", "model-router", { name: "Llama 3.3 70B" })).toEqual({ maker: "meta", evidence: "family" });
  });

  it("an org that is a seller's own namespace names no publisher (openrouter openrouter/auto is excluded first)", () => {
    expect(read("openrouter", "openrouter/auto")).toEqual({ excluded: expect.stringMatching(/^not a model: /) });
    // the same shape with no exclusion: `deepinfra/…` is DeepInfra's namespace, not a maker (invented id)
    expect(read("fireworks-ai", "deepinfra/some-model")).toBeNull();
  });

  it("products are no models (models-dev poe poetools/claude-code)", () => {
    expect(read("poe", "poetools/claude-code")).toEqual({
      excluded: "not a model: Anthropic's coding agent product, sold as a plan, not a model id",
    });
  });

  it("no organisation, family or maker seller: no maker (models-dev azure model-router)", () => {
    expect(read("azure", "model-router")).toBeNull();
  });

  it("a maker hint that names a maker counts as family evidence (invented hint on a real id)", () => {
    expect(read("azure", "model-router", { makerHint: "openai" })).toEqual({ maker: "openai", evidence: "family" });
    expect(read("azure", "model-router", { makerHint: "azure" })).toBeNull();
  });
});

describe("platformMaker and channelFor: a maker's own platform is direct (§6, D2)", () => {
  eachCase("platformMaker", platformMaker, [
    ["amazon-bedrock", "amazon"],
    ["llama", "meta"],
    ["volcengine", "bytedance"],
    ["anthropic", "anthropic"],
    ["openrouter", null],
  ]);

  it("Bedrock selling Nova and Meta's Llama API selling Llama are direct; every other sale is channelOf's", () => {
    // models-dev amazon-bedrock amazon.nova-pro-v1:0, models-dev llama 2026-06-01
    expect(channelFor("amazon-bedrock", "amazon")).toBe("direct");
    expect(channelOf("amazon-bedrock", "amazon")).toBe("reseller_2");
    expect(channelFor("llama", "meta")).toBe("direct");
    const others = [
      ["amazon-bedrock", "anthropic"],
      ["togetherai", "meta"],
      ["alibaba", "zai"],
      ["zai-coding-plan", "zai"],
    ] as const;
    for (const [seller, maker] of others) expect(channelFor(seller, maker), seller).toBe(channelOf(seller, maker));
  });
});

describe("normalizeName: display names compared alike", () => {
  eachCase("normalizeName", normalizeName, [
    // models-dev kilo 2026-06-01: router names carry the publisher before a colon
    ["Anthropic: Claude Opus 4", "claudeopus4"],
    ["DeepSeek: DeepSeek V3.2", "deepseekv32"],
    // models-dev anthropic 2026-06-01
    ["Claude Opus 4", "claudeopus4"],
    // models-dev alibaba, amazon-bedrock 2026-06-01: parentheses go
    ["Qwen3-Next 80B-A3B (Thinking)", "qwen3next80ba3b"],
    ["Claude Opus 4.8 (AU)", "claudeopus48"],
  ]);
});
