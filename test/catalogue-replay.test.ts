import { beforeAll, describe, expect, it } from "vitest";
import type { Dataset, PublishedPrice } from "../src/domain/dataset.js";
import { loadReplay, openReplayStore } from "./harness.js";

// The catalogue as the bundled replay builds it: identity across sources (D1), channels (D2),
// reconciliation on real disagreements (D8), and what every run published (D9).
let dataset: Dataset;

beforeAll(async () => {
  const replay = await loadReplay();
  dataset = replay.dataset;
  await replay.store.close();
});

function model(id: string) {
  const m = dataset.models.find((x) => x.id === id);
  if (!m) throw new Error(`${id} is not in the catalogue`);
  return m;
}

function price(id: string, channel: string, label: string): PublishedPrice {
  const p = dataset.prices.find((x) => x.modelId === id && x.channel === channel && x.label === label);
  if (!p) throw new Error(`${id} ${channel} ${label} not published`);
  return p;
}

describe("identity on real cross-source spellings (D1)", () => {
  it("Claude: Bedrock, Vertex, router and undated spellings resolve to one canonical Opus 4", () => {
    const opus = model("anthropic/claude-opus-4-0");
    expect(opus.aliases).toEqual(
      expect.arrayContaining([
        "claude-opus-4-20250514", // models.dev dated id, genai-prices
        "claude-opus-4", // llm-prices
        "claude-opus-4@20250514", // Vertex (models.dev google-vertex-anthropic, Portkey vertex-ai)
        "anthropic.claude-opus-4-20250514-v1:0", // Bedrock (Portkey)
        "anthropic/claude-opus-4", // OpenRouter
        "claude-4-opus", // genai-prices google (Vertex)
      ]),
    );
    expect(dataset.models.some((m) => m.id === "anthropic/claude-opus-4-20250514")).toBe(false);
  });

  it("Claude: two dated snapshots the maker lists separately stay two models", () => {
    expect(model("anthropic/claude-3-5-sonnet-20240620").name).toMatch(/3\.5/);
    expect(model("anthropic/claude-3-5-sonnet-20241022").aliases).toContain("claude-3-5-sonnet-latest");
  });

  it("GPT: gpt-4o and its differently priced 2024-05-13 snapshot are two models", () => {
    expect(price("openai/gpt-4o", "direct", "Input").amount).toBe(2.5);
    expect(price("openai/gpt-4o-2024-05-13", "direct", "Input").amount).toBe(5);
    expect(model("openai/gpt-4o").aliases).toContain("openai/gpt-4o");
  });

  it("Gemini: Google's own and Vertex's prices are one model in two channels", () => {
    expect(price("google/gemini-2.0-flash", "direct", "Input").amount).toBe(0.1);
    expect(price("google/gemini-2.0-flash", "reseller_4", "Input").amount).toBe(0.15);
  });

  it("Llama: router, Hugging Face and Bedrock spellings of Llama 3.3 70B are one model made by Meta", () => {
    const llama = model("meta/llama-3.3-70b-instruct");
    expect(llama.aliases).toEqual(
      expect.arrayContaining(["meta-llama/llama-3.3-70b-instruct", "meta-llama/Llama-3.3-70B-Instruct"]),
    );
    expect(dataset.prices.some((p) => p.modelId === llama.id && p.channel === "reseller_1")).toBe(true);
  });

  it("DeepSeek: Together's DeepSeek-V3 is a DeepSeek model sold on reseller_5 at 1.25", () => {
    expect(model("deepseek/deepseek-v3").aliases).toContain("deepseek-ai/DeepSeek-V3");
    expect(price("deepseek/deepseek-v3", "reseller_5", "Input").amount).toBe(1.25);
  });

  it("Qwen: Alibaba's Qwen3 Max and OpenRouter's qwen/qwen3-max are one model", () => {
    expect(model("alibaba/qwen3-max").aliases).toContain("qwen/qwen3-max");
    expect(dataset.prices.some((p) => p.modelId === "alibaba/qwen3-max" && p.channel === "reseller_1")).toBe(true);
  });

  it("makers are never resellers: every model id starts with a provider of /providers", () => {
    const providers = new Set(dataset.providers.map((p) => p.slug));
    // Listed models only: a tombstone keeps answering by id after its provider left (issue 12 T66).
    for (const m of dataset.models.filter((x) => x.listed)) expect(providers.has(m.provider)).toBe(true);
    for (const reseller of ["openrouter", "amazon-bedrock", "azure", "google-vertex", "togetherai", "groq"])
      expect(providers.has(reseller)).toBe(false);
  });
});

describe("reconciliation on real disagreements (D8)", () => {
  it("DeepSeek chat input: models.dev and Portkey agree on 0.14, genai-prices and llm-prices dissent", () => {
    // Upstream README "DeepSeek V3.x chat model" (2026-06-01): 0.14 models-dev/portkey, 0.27 llm-prices;
    // genai-prices' standard price is its 00:30–16:30 UTC window's 0.27, its 0.135 the off-peak discount (T71).
    const p = price("deepseek/deepseek-chat", "direct", "Input");
    expect(p.amount).toBe(0.14);
    expect(p.sources).toEqual(expect.arrayContaining(["models-dev", "portkey"]));
    expect(p.dissenting).toEqual(expect.arrayContaining(["genai-prices", "llm-prices"]));
    // T82: they still show the amount models.dev and Portkey moved away from together: they lag,
    // stay listed as dissenting, and no longer make the price disputed.
    expect(p.observations.filter((o) => o.lagging).map((o) => o.source)).toEqual(
      expect.arrayContaining(["genai-prices", "llm-prices"]),
    );
    expect(p.disputed).toBe(false);
    expect(p.observations.find((o) => o.source === "llm-prices")?.amount).toBe(0.27);
    expect(p.observations.find((o) => o.source === "genai-prices")?.amount).toBe(0.27);
  });

  it("Claude Opus 4 on Bedrock is backed by several sources with no dissent", () => {
    const p = price("anthropic/claude-opus-4-0", "reseller_2", "Input");
    expect(p.amount).toBe(15);
    expect(p.sources.length).toBeGreaterThanOrEqual(2);
    expect(["high", "verified"]).toContain(p.confidence);
  });

  it("Anthropic's page, carried past its last copy (2026-05-01), still verifies within its 35 days (T292)", () => {
    const p = price("anthropic/claude-opus-4-1", "direct", "Output");
    expect(p.amount).toBe(75);
    expect(p.sources).toContain("official-anthropic");
    expect(p.observations.find((o) => o.source === "official-anthropic")).toMatchObject({
      amount: 75,
      fresh: false,
      authoritative: true,
      page: {
        url: "https://platform.claude.com/docs/en/about-claude/pricing.md",
        capturedAt: "2026-05-01T00:00:00.000Z",
        contentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    });
    expect(p.confidence).toBe("verified");
  });

  it("OpenRouter is authoritative for its own channel", () => {
    const p = price("anthropic/claude-opus-4-0", "reseller_1", "Input");
    expect(p.sources).toContain("openrouter");
    expect(p.confidence).toBe("verified");
  });

  it("every price has a confidence and a non-negative amount with no float noise (D7)", () => {
    for (const p of dataset.prices) {
      expect(["verified", "high", "medium", "low", "unverified"]).toContain(p.confidence);
      expect(p.amount).toBeGreaterThanOrEqual(0);
      expect(Number(p.amount.toPrecision(10))).toBe(p.amount);
    }
  });
});

describe("channels (D2) and plans", () => {
  it("multi-seller channels carry qualifiers.seller on every price", () => {
    const multi = dataset.prices.filter((p) => ["coding_plan", "token_plan", "other"].includes(p.channel));
    expect(multi.length).toBeGreaterThan(1000);
    for (const p of multi) expect(p.qualifiers.seller).toBe(p.seller);
  });

  it("labels are unique within a model and channel (D27)", () => {
    const seen = new Set<string>();
    for (const p of dataset.prices) {
      const key = `${p.modelId}|${p.channel}|${p.label}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
    }
  });
});

describe("the replay's runs (D9)", () => {
  it("published one dataset version per snapshot date, in date order", async () => {
    const store = await openReplayStore();
    const runs = await store.listRuns();
    await store.close();
    expect(runs.map((r) => r.datasetVersion.slice(0, 10))).toEqual([
      "2025-07-01",
      "2025-08-01",
      "2025-09-01",
      "2025-10-01",
      "2025-11-01",
      "2025-12-01",
      "2026-01-01",
      "2026-02-01",
      "2026-03-01",
      "2026-04-01",
      "2026-05-01",
      "2026-06-01",
    ]);
    // Every run succeeded but 2026-03-01's: OpenAI's recorded page of that date has empty text-token
    // panes, a failed source (T290).
    expect(runs.filter((r) => r.status !== "succeeded").map((r) => [r.datasetVersion.slice(0, 10), r.status])).toEqual([
      ["2026-03-01", "partial"],
    ]);
    expect(runs[0]?.summary.observations).toMatchObject({
      "models-dev": expect.any(Number),
      litellm: expect.any(Number),
    });
  });
});
