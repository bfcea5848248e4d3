import { existsSync } from "node:fs";
import { join } from "node:path";
import { setImmediate as turn } from "node:timers/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { recordedListings, recordedReport } from "../../test/recorded-payloads.js";
import { dimension } from "../domain/dimension.js";
import type { SourceId } from "../domain/observation.js";
import { SOURCES } from "../sources/registry.js";
import { buildDataset } from "./build-dataset.js";
import { type ResolvedListing, resolveIdentities } from "./identity/resolve.js";
import { type RejectReason, type ScreenRow, screenRows } from "./plausibility.js";
import { priorFromDataset } from "./prior-state.js";
import { screenListings, screenRowOf } from "./screen-listings.js";

// The guards judged on the real recorded rows of 2026-06-01 (the Anthropic page from its last
// recorded date, 2025-12-01), resolved to models as a run resolves them.
let resolved: readonly ResolvedListing[];
let verdictOf: (source: SourceId, modelId: string, seller: string, match: (r: RowView) => boolean) => Verdict[];

interface RowView {
  readonly direction: string;
  readonly modality: string;
  readonly cache: string;
  readonly tier: string;
  readonly contextMin: number;
  readonly unit: string;
  readonly amount: number;
  readonly qualifiers: Readonly<Record<string, string>>;
}
type Verdict = { amount: number; verdict: RejectReason | null };

// Each step of the set-up is a run's worth of work: the worker's event loop turns between them (issue 34 §2).
beforeAll(async () => {
  resolved = resolveIdentities(
    // (a source with no copy of that day did not run it: the makers' one-off pages, issue 48)
    SOURCES.filter((a) => a.id === "official-anthropic" || existsSync(join("data/upstream", a.id, "2026-06-01"))).map(
      (a) => ({
        source: a.id,
        makerSpellings: a.info.makerSpellings ?? false,
        listings: recordedReport(a, a.id === "official-anthropic" ? "2025-12-01" : "2026-06-01").listings,
      }),
    ),
  ).resolved;
  await turn();
  const { kept } = screenListings(resolved);
  await turn();
  // Every price of the run screened once, as the run screens it: a dropped price's reason is read
  // off this one screening (it was re-screened per dropped price, a whole run each time: issue 34).
  listingIndex = new Map();
  resolved.forEach((r, i) => {
    if (!listingIndex.has(r)) listingIndex.set(r, i);
  });
  const rows: ScreenRow[] = [];
  firstRow = new Map();
  for (const r of resolved) {
    firstRow.set(r, rows.length);
    for (const p of r.listing.prices) rows.push(toRow(r, p));
  }
  verdicts = screenRows(rows);
  verdictOf = (source, modelId, seller, match) => {
    const out: Verdict[] = [];
    resolved.forEach((r, i) => {
      if (r.source !== source || r.modelId !== modelId || r.listing.seller !== seller) return;
      const keptPrices = new Set(kept[i]!.listing.prices);
      for (const p of r.listing.prices) {
        const view = { ...p.dimension, unit: p.unit, amount: p.amount };
        if (match(view)) out.push({ amount: p.amount, verdict: keptPrices.has(p) ? null : reasonOf(r, p) });
      }
    });
    // a source may list the model under two spellings (gpt-realtime and gpt-realtime-2025-08-28): one verdict each
    return [...new Map(out.map((v) => [JSON.stringify(v), v])).values()];
  };
});

/** Index in `resolved` of each listing (its first place), the `listing` of its screen rows. */
let listingIndex: Map<ResolvedListing, number>;
/** Index of each resolved listing's first price among the screened rows. */
let firstRow: Map<ResolvedListing, number>;
/** The verdict on every price of the run, screened with the full row set. */
let verdicts: readonly (RejectReason | null)[];

/** The reason a dropped price was dropped: its verdict when judged with the full row set. */
function reasonOf(r: ResolvedListing, p: ResolvedListing["listing"]["prices"][number]): RejectReason | null {
  return verdicts[firstRow.get(r)! + r.listing.prices.lastIndexOf(p)] ?? null;
}

function toRow(r: ResolvedListing, p: ResolvedListing["listing"]["prices"][number]): ScreenRow {
  return screenRowOf(r, p, listingIndex.get(r)!);
}

const base = (direction: string) => (r: RowView) =>
  r.direction === direction &&
  r.modality === "text" &&
  r.cache === "none" &&
  r.tier === "standard" &&
  r.contextMin === 0 &&
  r.unit === "mtok";

describe("bounds per unit (T73)", () => {
  it("quarantines a reseller's DeepSeek-R1 at 135,000 / 540,000 USD per 1M tokens (LiteLLM wandb)", () => {
    expect(verdictOf("litellm", "deepseek/deepseek-r1-0528", "wandb", base("input"))).toEqual([
      { amount: 135000, verdict: "out_of_bounds" },
    ]);
    expect(verdictOf("litellm", "deepseek/deepseek-r1-0528", "wandb", base("output"))).toEqual([
      { amount: 540000, verdict: "out_of_bounds" },
    ]);
    expect(verdictOf("litellm", "zai/glm-4.5", "wandb", base("input"))).toEqual([
      { amount: 55000, verdict: "out_of_bounds" },
    ]);
  });

  it("quarantines a per-image price below a tenth of a cent for a generated image, keeps Titan's 0.00006 per input image", () => {
    const titan = verdictOf(
      "litellm",
      "amazon/titan-embed-image",
      "amazon-bedrock",
      (r) => r.unit === "image" && r.direction === "input",
    );
    expect(titan).toEqual([{ amount: 0.00006, verdict: null }]);
    const realtime = verdictOf("litellm", "openai/gpt-realtime", "openai", (r) => r.unit === "image");
    expect(realtime.map((v) => v.verdict)).toEqual(["out_of_bounds"]);
  });
});

describe("zero is a price only when a source says free (T74)", () => {
  it("drops models.dev's 0 / 0 for NVIDIA's hosted models, keeps OpenRouter's :free variants", () => {
    const nvidia = resolved.filter(
      (r) => r.source === "models-dev" && r.listing.seller === "nvidia" && r.modelId.startsWith("nvidia/"),
    );
    expect(nvidia.length).toBeGreaterThan(10);
    const { kept } = screenListings(resolved);
    const keptZero = kept.filter(
      (r) =>
        r.source === "models-dev" &&
        r.listing.seller === "nvidia" &&
        r.listing.prices.some((p) => p.amount === 0 && p.denomination === "currency"),
    );
    expect(keptZero).toEqual([]);
    const free = resolved.find((r) => r.source === "openrouter" && r.qualifiers.variant === "free");
    expect(free).toBeDefined();
    const freeKept = kept.find((r) => r.source === "openrouter" && r.listing === free!.listing);
    expect(freeKept!.listing.prices.filter((p) => p.amount === 0).length).toBeGreaterThan(0);
  });

  it("keeps an embedding's unbilled output beside its billed input; a 0 beside another source's 8 goes", () => {
    expect(verdictOf("litellm", "openai/text-embedding-3-small", "openai", base("output"))).toEqual([
      { amount: 0, verdict: null },
    ]);
    expect(verdictOf("portkey", "openai/gpt-image-1-mini", "openai", base("output"))).toEqual([
      { amount: 0, verdict: "zero_vs_positive" },
    ]);
  });

  it("free is a price (T330): Z.ai's GLM-4.5-Flash at 0 / 0 from LiteLLM and models.dev, and GLM-4.7-Flash at 0 beside Zhipu's own 0", () => {
    for (const source of ["litellm", "models-dev"] as const)
      for (const direction of ["input", "output"])
        expect(verdictOf(source, "zai/glm-4.5-flash", "zai", base(direction)), `${source} ${direction}`).toEqual([
          { amount: 0, verdict: null },
        ]);
    expect(verdictOf("models-dev", "zai/glm-4.7-flash", "zai", base("input"))).toEqual([{ amount: 0, verdict: null }]);
    expect(verdictOf("models-dev", "zai/glm-4.7-flash", "zhipuai", base("input"))).toEqual([
      { amount: 0, verdict: null },
    ]);
    // Only the uncached standard offer: a cache write at 0 is no free model (DeepSeek's, LiteLLM and Portkey).
    expect(
      verdictOf("portkey", "deepseek/deepseek-chat", "deepseek", (r) => r.cache === "write" && r.amount === 0),
    ).toEqual([{ amount: 0, verdict: "zero_not_free" }]);
    // One source alone stays zero, not free (T74): models.dev's NVIDIA-hosted Nemotron Mini.
    expect(verdictOf("models-dev", "nvidia/nemotron-mini-4b-instruct", "nvidia", base("input"))).toEqual([
      { amount: 0, verdict: "zero_not_free" },
    ]);
  });
});

describe("cross-source checks (T73)", () => {
  it("an input/output swap: LiteLLM's command-r7b 0.15 / 0.0375 against every other source's 0.0375 / 0.15", () => {
    expect(verdictOf("litellm", "cohere/command-r7b-12-2024", "cohere", base("input"))).toEqual([
      { amount: 0.15, verdict: "output_below_input" },
    ]);
    expect(verdictOf("litellm", "cohere/command-r7b-12-2024", "cohere", base("output"))).toEqual([
      { amount: 0.0375, verdict: "output_below_input" },
    ]);
    expect(verdictOf("models-dev", "cohere/command-r7b-12-2024", "cohere", base("output"))).toEqual([
      { amount: 0.15, verdict: null },
    ]);
  });

  it("an output far below its input that no other source states: Portkey's per-image 0.039 as a token price", () => {
    expect(verdictOf("portkey", "google/gemini-2.5-flash-image-preview", "google", base("output"))).toEqual([
      { amount: 0.039, verdict: "output_below_input" },
    ]);
    expect(verdictOf("portkey", "google/gemini-2.5-flash-image-preview", "google", base("input"))).toEqual([
      { amount: 0.3, verdict: null },
    ]);
  });

  it("a rate copied across modalities: the text input as audio input, the image output as text output", () => {
    const audio = (r: RowView) => r.direction === "input" && r.modality === "audio" && r.cache === "none";
    expect(verdictOf("genai-prices", "openai/gpt-4o-audio-preview", "openai", audio)).toEqual([
      { amount: 2.5, verdict: "modality_mirror" },
    ]);
    expect(verdictOf("litellm", "openai/gpt-4o-audio-preview", "openai", audio)).toEqual([
      { amount: 40, verdict: null },
    ]);
    for (const source of ["genai-prices", "models-dev"] as const)
      expect(verdictOf(source, "google/gemini-2.5-flash-image", "google", base("output"))).toEqual([
        { amount: 30, verdict: "modality_mirror" },
      ]);
    expect(verdictOf("portkey", "google/gemini-2.5-flash-image", "google", base("output"))).toEqual([
      { amount: 2.5, verdict: null },
    ]);
  });

  it("a copy that the majority of its own modality confirms stays (gpt-realtime's cache read 0.4 for text and audio)", () => {
    const read = (r: RowView) => r.direction === "input" && r.modality === "text" && r.cache === "read";
    expect(verdictOf("litellm", "openai/gpt-realtime", "openai", read)).toEqual([{ amount: 0.4, verdict: null }]);
    expect(verdictOf("portkey", "openai/gpt-realtime", "openai", read)).toEqual([
      { amount: 16, verdict: "shifted_field" },
    ]);
  });

  it("an amount tenfold off every other source of the same price: Portkey's DeepSeek cache read 0.0028", () => {
    const read = (r: RowView) => r.direction === "input" && r.cache === "read" && r.tier === "standard";
    expect(verdictOf("portkey", "deepseek/deepseek-chat", "deepseek", read)).toEqual([
      { amount: 0.0028, verdict: "outlier" },
    ]);
    expect(verdictOf("models-dev", "deepseek/deepseek-chat", "deepseek", read)).toEqual([
      { amount: 0.028, verdict: null },
    ]);
  });
});

describe("field and unit errors a row shows beside its own listing or the maker's list (T172, T173)", () => {
  it("a cache read holding its neighbour's amount: Portkey's gpt-realtime 16 (text output) and 64 (audio output)", () => {
    const read = (modality: string) => (r: RowView) =>
      r.direction === "input" && r.modality === modality && r.cache === "read";
    expect(verdictOf("portkey", "openai/gpt-realtime", "openai", read("text"))).toEqual([
      { amount: 16, verdict: "shifted_field" },
    ]);
    expect(verdictOf("portkey", "openai/gpt-realtime", "openai", read("audio"))).toEqual([
      { amount: 64, verdict: "shifted_field" },
    ]);
    // genai-prices' 0.40 for the audio cache read repeats its text one, and OpenAI lists both at 0.40:
    // a shifted field contradicts nobody, so the copy stands.
    expect(verdictOf("genai-prices", "openai/gpt-realtime", "openai", read("audio"))).toEqual([
      { amount: 0.4, verdict: null },
    ]);
    // A cache read above its listing's input: Google's context-cache storage (4.5 per hour) in one of
    // Portkey's Gemini 3 Pro entries; its other entry's 0.2 stays.
    expect(verdictOf("portkey", "google/gemini-3-pro-preview", "google", read("text"))).toEqual([
      { amount: 0.2, verdict: null },
      { amount: 4.5, verdict: "shifted_field" },
    ]);
  });

  it("a maker's China platform in CNY read as USD: models.dev's zhipuai GLM-5.1 at 6 / 24 (Z.ai: 1.4 / 4.4)", () => {
    const zhipu = (model: string) =>
      verdictOf("models-dev", model, "zhipuai", (r) => r.direction !== "tool" && r.amount > 0).map((v) => v.verdict);
    expect(zhipu("zai/glm-5.1")).toEqual(["currency_table", "currency_table", "currency_table"]);
    // Entries that copy Z.ai's USD list stay.
    expect(zhipu("zai/glm-5")).toEqual([null, null, null]);
  });

  it("a text output of a speech model: genai-prices gives gpt-4o-mini-tts's audio 12 as text too", () => {
    const output = (modality: string) => (r: RowView) =>
      r.direction === "output" && r.modality === modality && r.cache === "none";
    expect(verdictOf("genai-prices", "openai/gpt-4o-mini-tts", "openai", output("text"))).toEqual([
      { amount: 12, verdict: "audio_only_text" },
    ]);
    expect(verdictOf("genai-prices", "openai/gpt-4o-mini-tts", "openai", output("audio"))).toEqual([
      { amount: 12, verdict: null },
    ]);
  });
});

describe("judged against fresh evidence (T171, T173)", () => {
  // The catalogue the recorded 2026-05-01 payloads publish for DeepSeek's own listings (a first run
  // of them, narrowed to seller deepseek to keep the build small) as the prior, and the 2026-06-01
  // rows judged against it.
  const priorOfMay = () => {
    const may = recordedListings("2026-05-01").map((l) => ({
      ...l,
      listings: l.listings.filter((x) => x.seller === "deepseek"),
    }));
    const dataset = buildDataset({
      runId: "run-may",
      runTime: "2026-05-01T00:00:00.000Z",
      finishedAt: "2026-05-01T00:00:00.000Z",
      sources: may.map((l) => ({
        ...l,
        weight: SOURCES.find((a) => a.id === l.source)!.info.weight,
        authoritativeFor: SOURCES.find((a) => a.id === l.source)!.info.authoritativeFor,
        fresh: true,
        error: null,
        ran: true,
      })),
      prior: null,
    });
    return priorFromDataset(dataset).prices;
  };

  // Each step is a run's worth of work: the worker's event loop turns between them (issue 34 §2).
  it("DeepSeek's cache-hit cut is no outlier: Portkey left the published 0.028 for 0.0028 on two models at once", async () => {
    const prior = priorOfMay();
    await turn();
    const { kept, coherent } = screenListings(resolved, undefined, prior);
    await turn();
    for (const model of ["deepseek/deepseek-chat", "deepseek/deepseek-reasoner"]) {
      const i = resolved.findIndex(
        (r) => r.source === "portkey" && r.modelId === model && r.listing.seller === "deepseek",
      );
      const read = kept[i]!.listing.prices.filter((p) => p.dimension.cache === "read" && p.amount > 0);
      expect(read.map((p) => p.amount)).toEqual([0.0028]);
      expect([...coherent].some((k) => k.startsWith(`${model}|direct|deepseek|input|text|standard|read|`))).toBe(true);
    }
    // Without the evidence of the move (no prior), the same row is an outlier (see above).
    await turn();
    const i = resolved.findIndex((r) => r.source === "portkey" && r.modelId === "deepseek/deepseek-chat");
    expect(screenListings(resolved).kept[i]!.listing.prices.some((p) => p.amount === 0.0028)).toBe(false);
  }, 60_000);

  it("a 200K bracket from models.dev's generic field is not published where others state 272K (GPT-5.4, 2026-05-01)", async () => {
    const listings = recordedListings("2026-05-01");
    await turn();
    const may = resolveIdentities(listings).resolved;
    await turn();
    const { kept } = screenListings(may);
    const brackets = (model: string) => {
      const i = may.findIndex(
        (r) => r.source === "models-dev" && r.modelId === model && r.listing.seller === model.split("/")[0],
      );
      const all = may[i]!.listing.prices.filter((p) => p.dimension.contextMin > 0);
      const left = kept[i]!.listing.prices.filter((p) => p.dimension.contextMin > 0);
      return { derived: all.filter((p) => p.thresholdDerived).length, published: left.length };
    };
    expect(brackets("openai/gpt-5.4")).toEqual({ derived: 3, published: 0 });
    // Grok 4.20: no source states another threshold, models.dev's 200K stands (xAI's tiers say 200K too).
    expect(brackets("xai/grok-4.20-0309-reasoning")).toEqual({ derived: 3, published: 3 });
  }, 60_000);
});

describe("screenRows", () => {
  // Invented rows: the recorded payloads have no clean two-source tenfold split to show the rule on.
  const row = (source: SourceId, amount: number): ScreenRow => ({
    source,
    listing: ["models-dev", "portkey", "litellm"].indexOf(source),
    modelId: "example/model",
    channel: "direct",
    seller: "example",
    dimension: dimension("input"),
    amount,
    unit: "mtok",
    denomination: "currency",
    currency: "USD",
    saysFree: false,
    plan: false,
    fresh: true,
  });

  it("two sources tenfold apart with no third quarantine neither; a third decides", () => {
    expect(screenRows([row("models-dev", 1), row("portkey", 10)])).toEqual([null, null]);
    expect(screenRows([row("models-dev", 1), row("portkey", 10), row("litellm", 1)])).toEqual([null, "outlier", null]);
  });

  it("a row carried from a source's last run is judged like a fresh one, but never as an outlier (T178)", () => {
    // Tenfold off the fresh rows, a carried statement is one the market has left: it lags (T170).
    const carried = { ...row("portkey", 10), fresh: false };
    expect(screenRows([row("models-dev", 1), carried, row("litellm", 1)])).toEqual([null, null, null]);
    const witness = { ...row("portkey", 1), fresh: false };
    expect(screenRows([row("models-dev", 10), witness, row("litellm", 1)])).toEqual(["outlier", null, null]);
    expect(screenRows([{ ...row("portkey", 5000), fresh: false }])).toEqual(["out_of_bounds"]);
  });

  it("does not depend on row order (the real rows of 2026-06-01, reversed)", async () => {
    const rows = resolved.flatMap((r) => r.listing.prices.map((p) => toRow(r, p)));
    const forward = screenRows(rows);
    await turn();
    const backward = [...screenRows([...rows].reverse())].reverse();
    expect(backward).toEqual(forward);
    expect(forward.filter((v) => v !== null).length).toBeGreaterThan(100);
  });
});
