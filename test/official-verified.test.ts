import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import type { Dataset } from "../src/domain/dataset.js";
import { loadReplay } from "./harness.js";
import { publishedOnPage } from "./page-published.js";

// issue 35 Must show (T292): after the bundled replay, in the 2026-06-01 version, every text price
// the makers' newest recorded pages state is `verified`, at that amount, on the model the page
// names. The expected list is read from the recorded pages by the small readers below, written
// apart from the adapters (no code of src/sources is used): Markdown table cells for Anthropic,
// JS array rows for OpenAI.

/** One price a page states: the page's model name (as the listing spells it), the dimension, the amount. */
interface Stated {
  readonly listing: string;
  readonly direction: "input" | "output";
  readonly cache: "none" | "read" | "write" | "write_1h";
  readonly tier: "standard" | "batch" | "flex" | "priority";
  readonly amount: number;
}

const page = (source: string, date: string) =>
  gunzipSync(readFileSync(`data/upstream/${source}/${date}/pricing.md.gz`)).toString("utf8");

/** OpenAI: `tier="…"` opens a pane; each `["model", input, cached, output]` line is a row of it. */
function openaiStated(text: string): Stated[] {
  const out: Stated[] = [];
  let tier: Stated["tier"] | null = null;
  let inTextTable = false;
  for (const line of text.split("\n")) {
    if (line.includes("<TextTokenPricingTables")) inTextTable = true;
    const t = /tier="(standard|batch|flex|priority)"/.exec(line);
    if (t && inTextTable) tier = t[1] as Stated["tier"];
    if (/^\s*\/>/.test(line)) inTextTable = false;
    const row = /^\s*\["([^"]+)",(.*)\],?\s*$/.exec(line);
    if (!row || !inTextTable || !tier) continue;
    const listing = row[1]!.replace(/ \(<\d+K context length\)$/, "");
    const cells = row[2]!.split(",").map((c) => c.trim());
    const dims: [Stated["direction"], Stated["cache"]][] = [
      ["input", "none"],
      ["input", "read"],
      ["output", "none"],
    ];
    dims.forEach(([direction, cache], i) => {
      const cell = cells[i] ?? "";
      if (/^\d+(\.\d+)?$/.test(cell)) out.push({ listing, direction, cache, tier: tier!, amount: Number(cell) });
    });
  }
  return out;
}

/**
 * Anthropic: the rows of the "Model pricing" and "Batch processing" tables, `$X / MTok` per cell, and
 * the one row of "Fast mode pricing" (Input, Output: the priority tier, T370) of the model its prose
 * names ("Currently supported on Opus 4.6").
 */
function anthropicStated(text: string): Stated[] {
  const out: Stated[] = [];
  let table: "model" | "batch" | "fast" | null = null;
  let fastModel: string | null = null;
  for (const line of text.split("\n")) {
    if (/^#+ /.test(line))
      table = /^## Model pricing/.test(line)
        ? "model"
        : /^### Batch processing/.test(line)
          ? "batch"
          : /^### Fast mode pricing/.test(line)
            ? "fast"
            : null;
    if (table === "fast") {
      const named = /supported on (Opus|Sonnet|Haiku) ([\d.]+):/.exec(line);
      if (named) fastModel = `claude-${named[1]!.toLowerCase()}-${named[2]!.replace(/\./g, "-")}`;
      const row = /^\| \$([\d.]+) \/ MTok \| \$([\d.]+) \/ MTok \|$/.exec(line.trim());
      if (row && fastModel) {
        out.push({ listing: fastModel, direction: "input", cache: "none", tier: "priority", amount: Number(row[1]) });
        out.push({ listing: fastModel, direction: "output", cache: "none", tier: "priority", amount: Number(row[2]) });
      }
      continue;
    }
    if (!table || !line.startsWith("| Claude")) continue;
    const cells = line
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim());
    const name = cells[0]!.replace(/\s*\(\[.*\]\(.*\)\)\s*$/, "");
    const listing = name.toLowerCase().replace(/[ .]/g, "-");
    const amount = (cell: string) => Number(/\$([\d.]+) \/ MTok/.exec(cell)![1]);
    const dims: [Stated["direction"], Stated["cache"], Stated["tier"]][] =
      table === "model"
        ? [
            ["input", "none", "standard"],
            ["input", "write", "standard"],
            ["input", "write_1h", "standard"],
            ["input", "read", "standard"],
            ["output", "none", "standard"],
          ]
        : [
            ["input", "none", "batch"],
            ["output", "none", "batch"],
          ];
    dims.forEach(([direction, cache, tier], i) => {
      out.push({ listing, direction, cache, tier, amount: amount(cells[i + 1]!) });
    });
  }
  return out;
}

const published = publishedOnPage;

let dataset: Dataset;
beforeAll(async () => {
  const replay = await loadReplay();
  await replay.store.close();
  dataset = replay.dataset;
});

describe.each([
  { source: "official-openai", maker: "openai", date: "2026-06-01", read: openaiStated, count: 273 },
  { source: "official-anthropic", maker: "anthropic", date: "2026-05-01", read: anthropicStated, count: 93 },
])(
  "$source $date: every text price the page states is verified at that amount",
  ({ source, maker, date, read, count }) => {
    it("in the replay's 2026-06-01 version", () => {
      expect(dataset.run.datasetVersion.slice(0, 10)).toBe("2026-06-01");
      const stated = read(page(source, date));
      expect(stated.length).toBe(count);
      const misses = stated.flatMap((s) => {
        const p = published(dataset, source, maker, s);
        const what = `${s.listing} ${s.direction} ${s.cache} ${s.tier} ${s.amount}`;
        if (!p) return [`${what}: no direct price`];
        if (p.amount !== s.amount || p.confidence !== "verified")
          return [`${what}: published ${p.amount} ${p.confidence} (${p.modelId})`];
        return [];
      });
      expect(misses).toEqual([]);
    });
  },
);

it("rates.officialSources names both pages, and official is true on their rates", async () => {
  const { view, store } = await loadReplay();
  await store.close();
  expect(view.meta.rates.officialSources).toEqual(expect.arrayContaining(["official-anthropic", "official-openai"]));
  // Every rate whose standard input and output the OpenAI page states: official, at the page's amounts.
  const stated = openaiStated(page("official-openai", "2026-06-01")).filter((s) => s.tier === "standard");
  const checked = view.rates.filter((r) => {
    const input = published(dataset, "official-openai", "openai", { ...stated[0]!, direction: "input", cache: "none" });
    return r.provider === "openai" && input !== undefined;
  });
  expect(checked.length).toBeGreaterThan(0);
  const onPage = new Set(
    stated.flatMap((s) => {
      const p = published(dataset, "official-openai", "openai", s);
      return p ? [p.modelId] : [];
    }),
  );
  const rates = view.rates.filter((r) => onPage.has(r.id));
  expect(rates.length).toBeGreaterThan(30);
  expect(rates.filter((r) => !r.official).map((r) => r.id)).toEqual([]);
  expect(rates.filter((r) => r.confidence !== "verified").map((r) => r.id)).toEqual([]);
});

// issue 35 §4 Must show (T293): the maker's page corrected our published 6 (LiteLLM's) to 30 on
// 2025-11-01, its first run; the page never showed 6, so the history holds no market move.
it("the history of Claude 3 Opus's 1-hour cache write shows no market move; the 2025-11-01 run counts its corrections", async () => {
  const { store } = await loadReplay();
  try {
    const changes = (await store.loadChanges()).filter(
      (c) =>
        c.modelId === "anthropic/claude-3-opus-20240229" &&
        c.channel === "direct" &&
        c.label === "Input (cache write 1h)",
    );
    expect(changes.filter((c) => c.kind !== "reference_changed" && c.kind !== "price_added")).toEqual([]);
    expect(changes.filter((c) => c.kind === "reference_changed")).toEqual([
      expect.objectContaining({ oldAmount: 6, newAmount: 30, occurredAt: "2025-11-01T00:00:00.000Z" }),
    ]);
    const runs = await store.listRuns();
    const nov = runs.find((r) => r.datasetVersion.startsWith("2025-11-01"))!;
    const summary = (await store.loadDataset(nov.datasetVersion))!.run.summary;
    expect(summary.corrections).toBeGreaterThanOrEqual(2); // Claude 3 Opus and Haiku, at least
  } finally {
    await store.close();
  }
});
