import { readFileSync } from "node:fs";
import { describe, expect } from "vitest";
import type { ApiChange, ApiCostEstimate, ApiSource } from "../src/catalogue/schemas.js";
import type { Dataset, PublishedPrice } from "../src/domain/dataset.js";
import { discountsAboveStandard } from "./catalogue-invariants.js";
import { it } from "./fixtures.js";

// Issue 36 §3, §4, §6 on the bundled replay (2026-06-01): the maker's price reached through the
// aggregators' evidence alone. The cases are the reviewed golden rows of test/golden/maker-agreement.tsv.

interface GoldenRow {
  readonly model: string;
  readonly channel: string;
  readonly seller: string;
  readonly label: string;
  readonly amount: number | "absent";
  readonly confidence: string;
  readonly dissenting: readonly string[];
  readonly why: string;
}

const GOLDEN: readonly GoldenRow[] = readFileSync("test/golden/maker-agreement.tsv", "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "" && !line.startsWith("#"))
  .map((line) => {
    const [model, channel, seller, label, amount, confidence, dissenting, why] = line.split("\t");
    return {
      model: model!,
      channel: channel!,
      seller: seller!,
      label: label!,
      amount: amount === "absent" ? "absent" : Number(amount),
      confidence: confidence!,
      dissenting: dissenting === "-" ? [] : dissenting!.split(","),
      why: why ?? "",
    };
  });

function find(dataset: Dataset, row: GoldenRow): PublishedPrice | undefined {
  return dataset.prices.find(
    (p) => p.modelId === row.model && p.channel === row.channel && p.seller === row.seller && p.label === row.label,
  );
}

describe("the maker's price from the aggregators' evidence (issue 36 golden rows)", () => {
  it.for(GOLDEN)("$model $channel $seller $label", (row, { replay }) => {
    const price = find(replay.dataset, row);
    if (row.amount === "absent") {
      expect(price, row.why).toBeUndefined();
      return;
    }
    expect(price, row.why).toBeDefined();
    expect([price!.amount, price!.confidence, [...price!.dissenting].sort()], row.why).toEqual([
      row.amount,
      row.confidence,
      [...row.dissenting].sort(),
    ]);
    // A lone outlier set aside does not back the amount it lost to (T332).
    for (const source of row.dissenting)
      expect(price!.observations.find((o) => o.source === source)?.amount, row.why).not.toBe(row.amount);
  });
});

describe("a discount above its standard price needs two sources (issue 36 §4, T331)", () => {
  it("no direct (or other) price of 2026-06-01 has an off-peak, batch or flex price above its standard one that one source states", ({
    replay,
  }) => {
    const { lone, agreed } = discountsAboveStandard(replay.dataset);
    // Before T331 the 2026-06-01 version held 7 such prices (6 direct), each from one source.
    expect(lone.map((p) => `${p.modelId} ${p.channel} ${p.label} ${p.amount}`)).toEqual([]);
    expect(agreed.every((p) => p.sources.length >= 2)).toBe(true);
  });

  it("the rows held back are counted per source as above_standard in /sources", async ({ api }) => {
    const res = await api.get("/api/v1/sources");
    const sources = ((await res.json()) as { data: ApiSource[] }).data;
    const counts = Object.fromEntries(sources.map((s) => [s.source, s.rejectedByReason.above_standard ?? 0]));
    expect(counts.portkey).toBeGreaterThanOrEqual(2); // Gemini Flash-Lite latest, batch input and output
    // T534: genai-prices' DeepSeek off-peak windows (chat and reasoner: input, output, cache read), 4
    // of which T331 counted above_standard before, are windows DeepSeek's own page does not state.
    const unstated = Object.fromEntries(sources.map((s) => [s.source, s.rejectedByReason.window_unstated ?? 0]));
    expect(unstated).toMatchObject({ "genai-prices": 6 });
    expect(Object.values(unstated).reduce((a, b) => a + b, 0)).toBe(6);
    expect(counts["genai-prices"]).toBe(0);
  });
});

describe("free is a price (issue 36 §3, T330)", () => {
  it("/cost prices Z.ai's GLM-4.5-Flash at 0, with its lines", async ({ api }) => {
    const res = await api.get("/api/v1/cost?model=zai/glm-4.5-flash&inputTokens=1000&outputTokens=1000");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: ApiCostEstimate[] };
    const direct = body.data.find((e) => e.channel === "direct")!;
    expect(direct.lines.map((l) => [l.usage, l.amount, l.cost])).toEqual([
      ["inputTokens", 0, 0],
      ["outputTokens", 0, 0],
    ]);
    expect(direct.totals).toEqual([{ denomination: "currency", currency: "USD", amount: 0 }]);
  });
});

describe("the issue's named examples publish no wrong change (issue 36, T365–T367)", () => {
  /** Every price record of the replay's feed for one model. */
  async function feed(api: { get: (url: string) => Promise<Response> }, model: string) {
    const kinds = "price_added,price_increase,price_decrease,price_removed,unit_change";
    const [provider, slug] = model.split("/") as [string, string];
    const res = await api.get(`/api/v1/changes?days=400&limit=500&kind=${kinds}&provider=${provider}&model=${slug}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: ApiChange[] };
    return body.data.map(
      (c) => `${c.occurredAt.slice(0, 10)} ${c.channel} ${c.label} ${c.oldAmount} -> ${c.newAmount}`,
    );
  }

  it("Kimi Thinking Preview: LiteLLM's 30 from 2025-08, then no decrease to Kimi K2's copied 0.6 / 2.5 (T365)", async ({
    api,
  }) => {
    expect((await feed(api, "moonshotai/kimi-thinking-preview")).sort()).toEqual([
      "2025-08-01 direct Input null -> 30",
      "2025-08-01 direct Output null -> 30",
    ]);
  });

  it("transcription audio input: no 3 -> 1.25 (or 6 -> 2.5) from LiteLLM's copy of the text input in 2026-06 (T366)", async ({
    api,
  }) => {
    for (const model of ["openai/gpt-4o-mini-transcribe-2025-03-20", "openai/gpt-4o-transcribe-diarize"])
      expect((await feed(api, model)).filter((c) => c.startsWith("2026-06-01"))).toEqual([]);
  });

  it("openai/ada: no 0.4 -> 0.1 from Azure's Ada embedding (T367)", async ({ api }) => {
    const res = await api.get("/api/v1/models/openai/ada/history");
    const body = (await res.json()) as { data: { label: string; points: [string, number][] }[] };
    expect(body.data.find((s) => s.label === "Input")?.points).toEqual([["2025-07-01", 0.4]]);
  });
});
