import { beforeAll, describe, expect } from "vitest";
import type { ApiRate, ApiSource, Envelope } from "../src/catalogue/schemas.js";
import type { HistoryPoint } from "../src/domain/change.js";
import type { Dataset, PublishedPrice } from "../src/domain/dataset.js";
import { dimension, dimensionKey } from "../src/domain/dimension.js";
import {
  currencyCreditMix,
  invariantCounts,
  outOfBounds,
  staleButConfident,
  unitModalityMismatch,
  zeroNotFree,
} from "./catalogue-invariants.js";
import { bindShared } from "./fixtures.js";
import { loadReplay, type MemoryServer } from "./harness.js";

// Issue 13 "Must show", over the bundled replay (dataset 2026-06-01): every price in its right
// dimension — modality, unit, bracket and condition.
let dataset: Dataset;
let history: HistoryPoint[];
let upstreamDated: HistoryPoint[];
let server: MemoryServer;

beforeAll(async () => {
  const replay = await loadReplay();
  dataset = replay.dataset;
  history = await replay.store.loadHistory();
  upstreamDated = await replay.store.loadHistory({ upstreamDated: true });
  await replay.store.close();
});

// The worker's shared in-memory API on the replay (test/fixtures.ts, T274), bound before the file's first test.
const it = bindShared("api", (_view, boundServer) => {
  server = boundServer;
});

function prices(modelId: string, channel = "direct"): PublishedPrice[] {
  return dataset.prices.filter((p) => p.modelId === modelId && p.channel === channel);
}

function price(modelId: string, label: string, channel = "direct"): PublishedPrice {
  const p = prices(modelId, channel).find((x) => x.label === label);
  if (!p) throw new Error(`${modelId} ${channel} "${label}" not published`);
  return p;
}

async function getJson<T>(path: string): Promise<Envelope<T>> {
  const res = await server.get(path);
  expect(res.status).toBe(200);
  return (await res.json()) as Envelope<T>;
}

describe("catalogue-wide invariants after the replay (T77)", () => {
  it("no amount beyond the bounds of its unit", () => {
    expect(outOfBounds(dataset).map((p) => `${p.modelId} ${p.label} ${p.amount} ${p.unit}`)).toEqual([]);
  });

  it("no currency/credit mix in one dimension, nor two currencies (T508)", () => {
    expect(currencyCreditMix(dataset)).toEqual([]);
    // the check has something to judge: Moonshot's CNY list beside the aggregators' USD amounts
    const k2 = prices("moonshotai/kimi-k2-thinking").filter((p) => p.direction === "output" && p.cache === "none");
    expect(k2.map((p) => [p.label, p.amount, p.currency, p.qualifiers])).toEqual([
      ["Output", 2.5, "USD", {}],
      ["Output (currency: CNY)", 16, "CNY", { currency: "CNY" }],
    ]);
  });

  it("no stale price is verified or high", () => {
    expect(staleButConfident(dataset).map((p) => `${p.modelId} ${p.label}`)).toEqual([]);
    // the check has something to judge: the Anthropic page's own fees went stale in 2026-01
    expect(dataset.prices.filter((p) => p.staleSince !== null).length).toBeGreaterThan(0);
  });

  it("units consistent with modality, and zero only where a source says free", () => {
    expect(unitModalityMismatch(dataset).map((p) => `${p.modelId} ${p.label} ${p.unit}`)).toEqual([]);
    expect(zeroNotFree(dataset).map((p) => `${p.modelId} ${p.channel} ${p.label}`)).toEqual([]);
  });

  it("counts (for the closing note)", () => {
    const counts = invariantCounts(dataset);
    expect(counts).toEqual({
      outOfBounds: 0,
      zeroNotFree: 0,
      currencyCreditMix: 0,
      staleButConfident: 0,
      unitModalityMismatch: 0,
    });
    // the catalogue still publishes free variants and credit-billed plans where sources say so
    expect(dataset.prices.some((p) => p.amount === 0 && p.qualifiers.variant === "free")).toBe(true);
    expect(dataset.prices.some((p) => p.denomination === "credit")).toBe(true);
  });
});

describe("conditions are dimensions of their own (T71)", () => {
  it("DeepSeek's plain Input never holds the off-peak amount; off-peak was its own, labelled dimension", () => {
    const input = price("deepseek/deepseek-chat", "Input");
    expect(input.amount).not.toBe(0.135);
    expect(input.observations.find((o) => o.source === "genai-prices")?.amount).toBe(0.27);
    // Its own series while genai-prices alone spoke of DeepSeek's prices (T71, T333) …
    const offPeakInput = `${dimensionKey(dimension("input", { qualifiers: { time_window: "1630-0030-utc-off-peak" } }))}|mtok`;
    const offPeak = history.filter((h) => h.modelId === "deepseek/deepseek-chat" && h.seriesKey === offPeakInput);
    expect(offPeak.map((h) => [h.label, h.amount])).toContainEqual([
      "Input (time_window: 16:30–00:30 UTC (off-peak))",
      0.135,
    ]);
    expect(offPeak.every((h) => h.date < "2026-01-01")).toBe(true);
    // … and none once DeepSeek's own page, which states no window, speaks for the model (T534):
    // genai-prices' off-peak input, output and cache read are not published on the maker's channel.
    expect(prices("deepseek/deepseek-chat").filter((p) => p.qualifiers.time_window !== undefined)).toEqual([]);
  });

  it("in no run of the replay was DeepSeek's plain Input the off-peak 0.135", () => {
    const plainInput = `${dimensionKey(dimension("input"))}|mtok`;
    const points = history.filter((h) => h.modelId === "deepseek/deepseek-chat" && h.seriesKey === plainInput);
    expect(points.length).toBeGreaterThan(0);
    const ours = points.filter((h) => !h.recordedBy.startsWith("upstream:"));
    expect(ours.length).toBeGreaterThan(0);
    expect(ours.map((h) => h.amount)).not.toContain(0.135);
  });
});

describe("the store filters the history points a source dated itself (T456: the view reads only those)", () => {
  it("loadHistory({ upstreamDated }) is exactly the upstream-dated subset of every point, in the same order", () => {
    const expected = history.filter((h) => h.recordedBy.startsWith("upstream:"));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(history.length);
    expect(upstreamDated).toEqual(expected);
  });
});

describe("brackets only from thresholds the source states for that model (T72)", () => {
  it("gemini-2.5-pro has only its real > 200K bracket", () => {
    const brackets = new Set(prices("google/gemini-2.5-pro").map((p) => p.contextMin));
    expect([...brackets].sort((a, b) => a - b)).toEqual([0, 200_000]);
    expect(price("google/gemini-2.5-pro", "Input (> 200K tokens)").amount).toBe(2.5);
  });

  it("no Google model outside Gemini 1.5 carries a > 128K bracket", () => {
    const phantom = dataset.prices.filter(
      (p) => p.modelId.startsWith("google/") && p.contextMin === 128_000 && !/1\.5/.test(p.modelId),
    );
    expect(phantom.map((p) => `${p.modelId} ${p.label}`)).toEqual([]);
    expect(dataset.prices.some((p) => p.modelId.startsWith("google/gemini") && p.contextMin === 128_000)).toBe(true);
  });
});

describe("units and modalities (T70, T73)", () => {
  it("image outputs are priced per image or per image token, with a unit that says so", () => {
    // Portkey's per-image 0.039 is no text price per 1M tokens
    expect(prices("google/gemini-2.5-flash-image-preview").some((p) => p.amount === 0.039)).toBe(false);
    expect(price("google/gemini-2.5-flash-image", "Output").amount).toBe(2.5);
    expect(price("google/gemini-2.5-flash-image", "Output (image output)")).toMatchObject({
      amount: 30,
      displayUnit: "USD per 1M tokens",
      modality: "image",
    });
    const perImage = prices("openai/gpt-image-1-mini").filter((p) => p.unit === "image");
    expect(perImage.length).toBeGreaterThan(0);
    for (const p of perImage)
      expect(p).toMatchObject({ direction: "output", modality: "image", displayUnit: "USD per image" });
    for (const p of dataset.prices.filter((x) => x.unit === "image")) expect(p.modality).toBe("image");
  });

  it("gpt-4o-audio-preview audio input is 40", () => {
    expect(price("openai/gpt-4o-audio-preview", "Input (audio input)").amount).toBe(40);
  });

  it("command-r7b is 0.0375 / 0.15, LiteLLM's swapped pair quarantined", () => {
    const input = price("cohere/command-r7b-12-2024", "Input");
    const output = price("cohere/command-r7b-12-2024", "Output");
    expect([input.amount, output.amount]).toEqual([0.0375, 0.15]);
    expect(input.observations.some((o) => o.source === "litellm")).toBe(false);
  });

  it("no reseller DeepSeek-R1 at 135,000 and no GLM-4.5 at 55,000 USD per 1M tokens", () => {
    const wandb = dataset.prices.filter((p) => p.seller === "wandb");
    expect(wandb.filter((p) => p.unit === "mtok" && p.amount > 1000)).toEqual([]);
    expect(dataset.prices.some((p) => p.amount === 135_000 || p.amount === 55_000)).toBe(false);
  });
});

describe("zero is a price only when a source says free (T74)", () => {
  it("gpt-image-1-mini output is not 0", () => {
    expect(price("openai/gpt-image-1-mini", "Output").amount).toBeGreaterThan(0);
  });

  it("/rates has no model at 0 / 0 unless free, and no NVIDIA-hosted 0 / 0", async () => {
    const { data } = await getJson<ApiRate[]>("/api/v1/rates");
    expect(data.length).toBeGreaterThan(400);
    // Free is a price (T330): Z.ai offers GLM-4.5-Flash and GLM-4.7-Flash at 0; Perplexity's online
    // models bill no input tokens (0.005 a request and 2.8 per 1M output: LiteLLM and Portkey agree).
    // Issue 48 (T434): the makers' own lists add Z.ai's GLM-4.6V-Flash (`Free`) and Mistral's
    // Leanstral (`free: true`), each stated by its maker's page alone.
    const makerFree = ["mistral/labs-leanstral-2603", "zai/glm-4.5-flash", "zai/glm-4.6v-flash", "zai/glm-4.7-flash"];
    expect(data.filter((r) => r.inputPerMTok === 0 && r.outputPerMTok === 0).map((r) => r.id)).toEqual(makerFree);
    expect(data.filter((r) => r.inputPerMTok === 0).map((r) => r.id)).toEqual([
      "mistral/labs-leanstral-2603",
      "perplexity/pplx-70b-online",
      "perplexity/pplx-7b-online",
      ...makerFree.slice(1),
    ]);
    // an embedding stays: its output is a price its sources say is not billed
    expect(data.find((r) => r.id === "openai/text-embedding-3-small")).toMatchObject({ outputPerMTok: 0 });
  });
});

describe("confidence follows freshness; /sources says what ran (T75)", () => {
  it("Anthropic's page did not run in 2026-06 (no copy): /sources says so; within its 35 days it still verifies (T292), but what only it states is stale (T75)", async () => {
    const { data } = await getJson<ApiSource[]>("/api/v1/sources");
    const page = data.find((s) => s.source === "official-anthropic")!;
    expect(page).toMatchObject({
      lastRunStatus: "not_run",
      lastRunAt: "2026-05-01T00:00:00.000Z",
      lastSuccessAt: "2026-05-01T00:00:00.000Z",
      lastError: null,
    });
    const fees = dataset.prices.filter(
      (p) => p.modelId.startsWith("anthropic/") && p.channel === "direct" && p.sources.includes("official-anthropic"),
    );
    expect(fees.length).toBeGreaterThan(0);
    // Re-confirmed by another source this run: verified; re-confirmed by none: capped (staleSince).
    for (const p of fees.filter((f) => f.staleSince === null)) expect(p.confidence).toBe("verified");
    const tool = fees.filter((p) => p.direction === "tool" && p.staleSince !== null);
    expect(tool.length).toBeGreaterThanOrEqual(10);
    for (const p of tool) expect(["medium", "low", "unverified"]).toContain(p.confidence);
  });

  it("/sources shows per source how many rows were rejected and why, and unmapped fields", async () => {
    const { data } = await getJson<ApiSource[]>("/api/v1/sources");
    for (const s of data) {
      const sum = Object.values(s.rejectedByReason).reduce((n, c) => n + c, 0);
      expect({ source: s.source, sum }).toEqual({ source: s.source, sum: s.rejectedLastRun });
      expect(s.unmappedLastRun).toBe(Object.values(s.unmappedByField).reduce((n, c) => n + c, 0));
    }
    const litellm = data.find((s) => s.source === "litellm")!;
    expect(litellm.lastRunStatus).toBe("succeeded");
    expect(litellm.rejectedByReason).toMatchObject({
      out_of_bounds: expect.any(Number),
      output_below_input: expect.any(Number),
    });
    const portkey = data.find((s) => s.source === "portkey")!;
    expect(portkey.rejectedByReason.outlier).toBeGreaterThan(0);
    expect(dataset.run.summary.rejected?.litellm).toBe(litellm.rejectedLastRun);
  });
});

describe("identical prices repeated per region collapse (T76)", () => {
  it("claude-sonnet-4-5 on Bedrock keeps one web-search fee per context size, not one per region", () => {
    const tool = prices("anthropic/claude-sonnet-4-5", "reseller_2").filter((p) => p.direction === "tool");
    expect(tool.map((p) => p.label).sort()).toEqual([
      "Tool (context_size: high)",
      "Tool (context_size: low)",
      "Tool (context_size: medium)",
    ]);
    // regions whose prices differ stay apart
    expect(prices("anthropic/claude-sonnet-4-5", "reseller_2").some((p) => p.qualifiers.region === "eu")).toBe(true);
  });
});
