import { describe, expect, it } from "vitest";
import { recordedAdapter, recordedListings } from "../../../test/recorded-payloads.js";
import { modelsDevSource } from "../../sources/models-dev/index.js";
import { portkeySource } from "../../sources/portkey/index.js";
import { platformMaker, readMaker } from "./maker.js";
import { channelFor, normalizeName } from "./resolve.js";
import { coreFor, isDated, isMoving, keyOf, looseKey, parseSpelling } from "./spelling.js";

// Who made a listed model and on what evidence (issue 12 T61), read from real listings: each case
// takes the listing itself from the recorded payload named, so the spelling, the maker hint and
// the seller are the source's own. Unit tests: no replay.
const RUN = "2026-06-01";
const modelsDev = recordedAdapter(modelsDevSource);
const portkey = recordedAdapter(portkeySource);
/** Every seller of the run: an organisation equal to one is that seller's namespace, not a publisher. */
const sellersOfRun = () => new Set(recordedListings(RUN).flatMap((s) => s.listings.map((l) => l.seller)));

describe("readMaker on real listings (T61)", () => {
  it.each([
    // the maker's own platform: Amazon's Nova on Bedrock
    ["amazon-bedrock", "amazon.nova-pro-v1:0", { maker: "amazon", evidence: "own" }],
    // Bedrock's vendor prefix names the maker's organisation
    ["amazon-bedrock", "zai.glm-4.7", { maker: "zai", evidence: "org" }],
    ["amazon-bedrock", "moonshot.kimi-k2-thinking", { maker: "moonshotai", evidence: "org" }],
    // a Hugging Face organisation
    ["berget", "meta-llama/Llama-3.3-70B-Instruct", { maker: "meta", evidence: "org" }],
    // Cloudflare's `@cf/<org>/` path
    ["cloudflare-workers-ai", "@cf/moonshotai/kimi-k2.6", { maker: "moonshotai", evidence: "org" }],
    // a third party's fine-tune or merge: its publisher is the maker
    ["kilo", "thedrummer/cydonia-24b-v4.1", { maker: "thedrummer", evidence: "publisher" }],
    ["kilo", "sao10k/l3-euryale-70b", { maker: "sao10k", evidence: "publisher" }],
    // the family table, past a seller prefix or a gateway folder
    ["cerebras", "zai-glm-4.7", { maker: "zai", evidence: "family" }],
    ["digitalocean", "openai-gpt-4o", { maker: "openai", evidence: "family" }],
    ["fireworks-ai", "accounts/fireworks/models/kimi-k2p5", { maker: "moonshotai", evidence: "family" }],
    ["nano-gpt", "TEE/glm-4.7", { maker: "zai", evidence: "family" }],
    ["cortecs", "nova-pro-v1", { maker: "amazon", evidence: "family" }],
    ["azure", "gpt-4o", { maker: "openai", evidence: "family" }],
    // the maker selling its own model, and its Chinese platform (not the maker's slug): family
    ["moonshotai", "kimi-k2-0711-preview", { maker: "moonshotai", evidence: "own" }],
    ["moonshotai-cn", "kimi-k2-0711-preview", { maker: "moonshotai", evidence: "family" }],
  ] as const)("models.dev %s %s", (seller, model, reading) => {
    const listing = modelsDev.listing(RUN, seller, model);
    expect(readMaker(listing, parseSpelling(listing.model), sellersOfRun())).toEqual(reading);
  });

  it.each([
    // the override file (T62): Writer's Palmyra is no PaLM, Gryphe's merge is no Llama
    ["amazon-bedrock", "writer.palmyra-x5-v1:0", { maker: "writer", evidence: "publisher" }],
    ["kilo", "gryphe/mythomax-l2-13b", { maker: "gryphe", evidence: "publisher" }],
    // routers and products are no models
    ["kilo", "openrouter/auto", { excluded: "not a model: a router's automatic model choice" }],
    [
      "poe",
      "poetools/claude-code",
      { excluded: "not a model: Anthropic's coding agent product, sold as a plan, not a model id" },
    ],
  ] as const)("models.dev %s %s: the override file decides", (seller, model, reading) => {
    const listing = modelsDev.listing(RUN, seller, model);
    expect(readMaker(listing, parseSpelling(listing.model), sellersOfRun())).toEqual(reading);
  });

  it("Portkey togetherai togethercomputer/GPT-JT-6B-v1 is Together's, not OpenAI's (T62)", () => {
    const listing = portkey.listing(RUN, "togetherai", "togethercomputer/GPT-JT-6B-v1");
    expect(readMaker(listing, parseSpelling(listing.model), sellersOfRun())).toEqual({
      maker: "togethercomputer",
      evidence: "publisher",
    });
  });
});

describe("the maker's own platform and the channel of a resale (issue 12 §6, D2)", () => {
  it("Bedrock is Amazon's platform, Meta's Llama API Meta's, BytePlus ByteDance's; a maker is its own", () => {
    const sellers = ["amazon-bedrock", "llama", "byteplus", "anthropic", "openrouter", "deepinfra"];
    expect(sellers.map(platformMaker)).toEqual(["amazon", "meta", "bytedance", "anthropic", null, null]);
  });

  it("selling the maker's own model on its platform is direct; everything else is a resale (D2)", () => {
    expect(channelFor("amazon-bedrock", "amazon")).toBe("direct");
    expect(channelFor("llama", "meta")).toBe("direct");
    expect(channelFor("amazon-bedrock", "anthropic")).toBe("reseller_2");
    expect(channelFor("google-vertex", "google")).toBe("reseller_4");
    expect(channelFor("moonshotai-cn", "moonshotai")).toBe("other");
    expect(channelFor("kimi-for-coding", "moonshotai")).toBe("coding_plan");
  });
});

describe("comparison keys of real spellings (T60)", () => {
  it.each([
    ["claude-opus-4-20250514", true],
    ["gpt-4o-2024-08-06", true],
    ["command-r-08-2024", true],
    ["seed-1-6-250915", true],
    ["gpt-4o", false],
    ["mistral-large-latest", false],
  ])("%s is dated: %s", (core, dated) => {
    expect(isDated(keyOf(core))).toBe(dated);
  });

  it("a -latest alias moves; a dated or plain id does not", () => {
    expect(isMoving(keyOf("mistral-large-latest"))).toBe(true);
    expect(isMoving(keyOf("mistral-large-2512"))).toBe(false);
    expect(isMoving(keyOf("claude-3-5-sonnet-latest"))).toBe(true);
  });

  it.each([
    // resellers add or drop `-instruct`, `-it`, `-versatile` (groq llama-3.3-70b-versatile)
    ["llama-3.3-70b-versatile", "llama-3-3-70b"],
    ["Llama-3.3-70B-Instruct", "llama-3-3-70b"],
    ["gemma-3-27b-it", "gemma-3-27b"],
    ["qwen3-235b-a22b-instruct-2507", "qwen3-235b-a22b"],
  ])("the loose key of %s is %s", (core, loose) => {
    expect(looseKey(keyOf(core))).toBe(loose);
  });

  it("a slug keeps its maker's dots: the part of the core that reads as the key", () => {
    expect(coreFor("qwen2.5-72b-instruct-fp8", keyOf("qwen2.5-72b-instruct"))).toBe("qwen2.5-72b-instruct");
    expect(coreFor("kimi-k2.5", keyOf("kimi-k2.5"))).toBe("kimi-k2.5");
    expect(coreFor("something-else", "gpt-4o")).toBe("gpt-4o");
  });

  it("display names compare without vendor prefix, parentheses, punctuation or case", () => {
    const names = [
      "Anthropic: Claude Opus 4",
      "Claude Opus 4 (latest)",
      "GPT-4o mini",
      "Qwen: Qwen3 235B A22B Instruct 2507",
    ];
    expect(names.map(normalizeName)).toEqual(["claudeopus4", "claudeopus4", "gpt4omini", "qwen3235ba22binstruct2507"]);
  });
});
