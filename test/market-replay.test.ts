import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiChange, ApiPrice } from "../src/catalogue/schemas.js";
import { MARKET_KINDS } from "../src/domain/change.js";
import type { Dataset } from "../src/domain/dataset.js";
import type { CatalogueStore } from "../src/store/catalogue-store.js";
import { loadReplay, replayDbPath, startServer, type TestServer } from "./harness.js";

// Issue 24's Must-show list on the replay of the bundled payloads (2025-07 → 2026-06), through the
// API where a user would look, and through the store for earlier versions.
let server: TestServer;
let store: CatalogueStore;
const MAY = "2026-05-01T00:00:00.000Z";
const JUNE = "2026-06-01T00:00:00.000Z";
/** The May version, read once for both DeepSeek models. */
let may: Promise<Dataset | null> | undefined;

beforeAll(async () => {
  const replay = await loadReplay();
  store = replay.store;
  server = await startServer(replay.view);
});
afterAll(async () => {
  await server.close();
  await store.close();
});

async function json<T>(path: string): Promise<T> {
  const res = await server.get(path);
  expect(res.status, path).toBe(200);
  return ((await res.json()) as { data: T }).data;
}

async function prices(model: string, channel = "direct"): Promise<ApiPrice[]> {
  return (await json<{ prices: ApiPrice[] }>(`/api/v1/models/${model}?channel=${channel}`)).prices;
}

async function amount(model: string, label: string, channel = "direct"): Promise<number | undefined> {
  return (await prices(model, channel)).find((p) => p.label === label)?.amount;
}

function priceIn(dataset: Dataset, model: string, label: string) {
  return dataset.prices.find((p) => p.modelId === model && p.channel === "direct" && p.label === label);
}

describe("prices that follow the market (issue 24 Must show)", () => {
  it.each(["deepseek/deepseek-chat", "deepseek/deepseek-reasoner"])(
    "%s: cache read 0.0028 from 2026-06-01, the first run whose payloads show DeepSeek's cut (Portkey)",
    async (model) => {
      may ??= store.loadDataset(MAY);
      const mayDataset = (await may)!;
      expect(priceIn(mayDataset, model, "Input (cache read)")?.amount).toBe(0.028);
      expect(await amount(model, "Input (cache read)")).toBe(0.0028);
      const [provider, slug] = model.split("/");
      const feed = await json<ApiChange[]>(`/api/v1/changes?days=60&provider=${provider}&model=${slug}`);
      expect(feed.filter((c) => c.label === "Input (cache read)" && c.channel === "direct")).toEqual([
        expect.objectContaining({ kind: "price_decrease", oldAmount: 0.028, newAmount: 0.0028, occurredAt: JUNE }),
      ]);
    },
  );

  it("Grok 4.20 (xai/grok-4.20-0309-reasoning) is 1.25 / 2.50 on 2026-06-01, its > 200K tier 2.50 / 5", async () => {
    expect(await amount("xai/grok-4.20-0309-reasoning", "Input")).toBe(1.25);
    expect(await amount("xai/grok-4.20-0309-reasoning", "Output")).toBe(2.5);
    expect(await amount("xai/grok-4.20-0309-reasoning", "Input (> 200K tokens)")).toBe(2.5);
    expect(await amount("xai/grok-4.20-0309-reasoning", "Output (> 200K tokens)")).toBe(5);
  });

  it("no version publishes a > 200K bracket on GPT-5.4 / 5.5 (-pro): OpenAI's threshold is 272K", async () => {
    const models = ["openai/gpt-5.4", "openai/gpt-5.4-pro", "openai/gpt-5.5", "openai/gpt-5.5-pro"];
    // Every price any version published is a span of the store's point-in-time record (T146): one
    // read of them all instead of twelve whole datasets.
    const mine = (await store.loadSpans()).prices.filter((s) => models.includes(s.value.modelId));
    expect(new Set(mine.map((s) => s.value.modelId))).toEqual(new Set(models));
    expect(
      mine.filter((s) => s.value.contextMin === 200_000).map((s) => `${s.from} ${s.value.modelId} ${s.value.label}`),
    ).toEqual([]);
    expect(await amount("openai/gpt-5.4", "Input (> 272K tokens)")).toBe(5);
  });

  it("/cost bills a 250,000-token GPT-5.4 prompt at the standard 2.50 per 1M input tokens", async () => {
    const res = await server.get("/api/v1/cost?model=openai/gpt-5.4&inputTokens=250000");
    expect(res.status).toBe(200);
    const [estimate] = (
      (await res.json()) as { data: { bracket: { contextMin: number }; lines: { amount: number }[] }[] }
    ).data;
    expect(estimate?.bracket.contextMin).toBe(0);
    expect(estimate?.lines[0]?.amount).toBe(2.5);
  });

  it("gpt-realtime's cache reads are OpenAI's list, 0.40 for text and audio (Portkey's shifted 16 / 64 quarantined)", async () => {
    expect(await amount("openai/gpt-realtime", "Input (cache read)")).toBe(0.4);
    expect(await amount("openai/gpt-realtime", "Input (audio input, cache read)")).toBe(0.4);
    const portkey = (
      await json<{ rejectedByReason: Record<string, number>; source: string }[]>("/api/v1/sources")
    ).find((s) => s.source === "portkey");
    expect(portkey?.rejectedByReason.shifted_field).toBeGreaterThan(0);
  });

  it("GLM-5.1 is not published in Zhipu's channel at its CNY 6 / 24 read as USD", async () => {
    const zhipu = (await prices("zai/glm-5.1", "other")).filter((p) => p.qualifiers.seller === "zhipuai");
    expect(
      zhipu.filter((p) => p.currency === "USD" && p.amount !== 1.4 && p.amount !== 4.4 && p.amount !== 0.26),
    ).toEqual([]);
    expect(await amount("zai/glm-5.1", "Input")).toBe(1.4);
  });

  it("Gemini 2.5 Flash TTS bills audio output only (10), no text output beside it", async () => {
    const tts = await prices("google/gemini-2.5-flash-preview-tts");
    expect(tts.find((p) => p.label === "Output (audio output)")?.amount).toBe(10);
    expect(tts.filter((p) => p.direction === "output" && p.modality === "text")).toEqual([]);
  });

  it("OpenRouter's Claude Sonnet 4.5 has token prices only (LiteLLM's per-image estimate is not OpenRouter's)", async () => {
    const sonnet = await prices("anthropic/claude-sonnet-4-5", "reseller_1");
    expect(sonnet.filter((p) => p.displayUnit.includes("per image"))).toEqual([]);
    expect(sonnet.find((p) => p.label === "Input")?.amount).toBe(3);
  });
});

describe("changes dated when the market moved, no removal while a source lists it (issue 24 §4–§6)", () => {
  it("a removal is dated at the run whose payload first lacked it, and the store keeps the version that published it", async () => {
    // firmware's gpt-5.2 left models.dev's 2026-04-01 payload; the grace (T85) confirms it in 2026-05.
    const feed = await json<ApiChange[]>("/api/v1/changes?days=90&provider=openai&model=gpt-5.2&kind=price_removed");
    const firmware = feed.filter((c) => c.label.includes("seller: firmware"));
    expect(firmware.length).toBe(3);
    for (const c of firmware) expect(c.occurredAt).toBe("2026-04-01T00:00:00.000Z");
    const db = new Database(await replayDbPath(), { readonly: true });
    try {
      const rows = db
        .prepare(
          "select distinct dataset_version, occurred_at from change_record where model_id = 'openai/gpt-5.2' and seller = 'firmware' and kind = 'price_removed'",
        )
        .all();
      expect(rows).toEqual([{ dataset_version: MAY, occurred_at: "2026-04-01T00:00:00.000Z" }]);
    } finally {
      db.close();
    }
  });

  it.each([
    ["mistral/mistral-7b-instruct-v0.3", "deepinfra", "Portkey still lists it at 0.03"],
    ["zai/glm-z1-32b", "openrouter", "genai-prices still lists it at 0.24"],
    ["black-forest-labs/flux.1-dev", "fireworks-ai", "LiteLLM still lists flux-1-dev"],
  ])("no price_removed for %s on %s: %s (identity churn, not the market)", async (model, seller, _why) => {
    const [provider, slug] = model.split("/");
    const removed = await json<ApiChange[]>(
      `/api/v1/changes?days=400&limit=500&provider=${provider}&model=${slug}&kind=price_removed`,
    );
    expect(
      removed.filter((c) => c.occurredAt >= "2026-04" && (c.label.includes(seller) || c.channel !== "other")),
    ).toEqual([]);
  });

  it("no published amount moves 5× or more as a reference_changed in the whole replay, but the maker's corrections", async () => {
    const hidden = (await store.loadChanges()).filter(
      (c) =>
        c.kind === "reference_changed" &&
        c.oldAmount !== null &&
        c.newAmount !== null &&
        c.oldAmount > 0 &&
        c.newAmount > 0 &&
        Math.max(c.oldAmount / c.newAmount, c.newAmount / c.oldAmount) >= 5,
    );
    // T293: Anthropic's page (first read 2025-11-01) never showed LiteLLM's 6 for these 1-hour cache
    // writes — corrections of ours, not market moves (they were shown as moves under T176 alone).
    expect(
      hidden.map((c) => `${c.occurredAt} ${c.modelId} ${c.channel} ${c.label} ${c.oldAmount} → ${c.newAmount}`),
    ).toEqual([
      "2025-11-01T00:00:00.000Z anthropic/claude-3-haiku-20240307 direct Input (cache write 1h) 6 → 0.5",
      "2025-11-01T00:00:00.000Z anthropic/claude-3-opus-20240229 direct Input (cache write 1h) 6 → 30",
      // Issue 48 (T430, T293): Z.ai's page (first read 2026-02-01) states the cached input a tenth of
      // what was published (an aggregator's input amount in the cache-read field).
      "2026-02-01T00:00:00.000Z zai/glm-4.5-airx direct Input (cache read) 2.2 → 0.22",
      "2026-02-01T00:00:00.000Z zai/glm-4.5-x direct Input (cache read) 4.5 → 0.45",
      "2026-02-01T00:00:00.000Z zai/glm-4.5v direct Input (cache read) 1.1 → 0.11",
    ]);
    const shown = (await store.loadChanges()).filter((c) => MARKET_KINDS.includes(c.kind));
    expect(shown.length).toBeGreaterThan(1000);
  });
});
