import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Dataset } from "../src/domain/dataset.js";
import type { CatalogueStore } from "../src/store/catalogue-store.js";
import { loadReplay } from "./harness.js";
import { publishedOnPage } from "./page-published.js";

// Issue 48 Must show (T430): every text price each recorded copy of the six makers' own pages states
// is `verified`, at that amount, on the maker's model, in the replay's version of the copy's date.
// The expected prices are read from the recorded copies by the small readers below, written apart
// from the adapters (no code of src/sources is used): plain regexes over the raw text.

/** One text price a copy states: the spelling the maker uses, the dimension, the amount. */
interface Stated {
  readonly listing: string;
  readonly direction: "input" | "output";
  readonly cache: "none" | "read";
  readonly tier: "standard" | "batch";
  readonly contextMin: number;
  readonly amount: number;
  /** A closed bracket's upper bound (Moonshot's request sizes). */
  readonly contextMax?: number;
  /** A CNY list's prices: currency CNY, qualifier `currency: CNY` (T508). */
  readonly currency?: "CNY";
  readonly qualifiers?: Readonly<Record<string, string>>;
}

const ROOT = "data/upstream";
const gz = (source: string, date: string, file: string) =>
  gunzipSync(readFileSync(join(ROOT, source, date, file))).toString("utf8");
const dates = (source: string) => readdirSync(join(ROOT, source)).sort();
const base = { cache: "none", tier: "standard", contextMin: 0 } as const;

/** Mistral: each file's `apiNames`, and the `/M Tokens` meters of its `input: [ … ]` and `output: [ … ]` lists. */
function mistralStated(date: string): Stated[] {
  const out: Stated[] = [];
  const seen = new Set<string>();
  // A file of an Active model first, then the newest release: an id two files name is the one that serves it now.
  const files = readdirSync(join(ROOT, "official-mistral", date))
    .map((file) => gz("official-mistral", date, file))
    .map((text) => ({
      text,
      // releaseDate is `2025-07-15` or `June 20, 2025`
      key: `${/status: 'Active'/.test(text) ? 0 : 1}|${String(9e15 - (Date.parse(`${/releaseDate: '([^']+)'/.exec(text)?.[1]} UTC`) || Date.parse(/releaseDate: '([^']+)'/.exec(text)?.[1] ?? "") || 0)).padStart(16, "0")}`,
    }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const { text } of files) {
    const all = [.../apiNames:\s*\[([^\]]*)\]/.exec(text)![1]!.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
    // The file's snapshot ids (T434, T327): its dated names (`-2505`); else those neither `-latest`
    // nor extended by a longer name of the list (`mistral-medium-3` beside `mistral-medium-3-5`). The
    // moving names state no price of their own: they name whichever snapshot serves them that day.
    const dated = all.filter((n) => /-\d{4}$/.test(n));
    const plain = all.filter(
      (n) => !/-latest$/.test(n) && !all.some((o) => o !== n && new RegExp(`^${n}[-.]`).test(o)),
    );
    const names = dated.length > 0 ? dated : plain.length > 0 ? plain : all.slice(0, 1);
    const pricing = /\n {2}pricing: \{([\s\S]*?)\n {2}\},/.exec(text)![1]!;
    const meters = (list: string) =>
      [...list.matchAll(/price: ([\d.]+), denominator: '\/M Tokens'/g)].map((m) => Number(m[1]));
    const input = /input: \[([\s\S]*?)\]/.exec(pricing)?.[1];
    const output = /output: \[([\s\S]*?)\]/.exec(pricing)?.[1];
    const flat = input === undefined ? /price: ([\d.]+),\s*denominator: '\/M Tokens'/.exec(pricing) : null;
    for (const listing of names) {
      const add = (direction: Stated["direction"], amount: number | undefined) => {
        // An id two files name: the first file's price (the adapter's merge keeps it).
        if (amount === undefined || seen.has(`${listing}|${direction}`)) return;
        seen.add(`${listing}|${direction}`);
        out.push({ listing, direction, ...base, amount });
      };
      add("input", input ? meters(input)[0] : flat ? Number(flat[1]) : undefined);
      add("output", output ? meters(output)[0] : undefined);
    }
  }
  return out;
}

/** Z.ai: `| GLM-… | Input | Cached Input | Storage | Output |` rows; `Free` is 0, `-` no price. */
function zaiStated(date: string): Stated[] {
  const out: Stated[] = [];
  for (const line of gz("official-zai", date, "pricing.md.gz").split("\n")) {
    const m = /^\| (GLM-[\w.-]+)\s*\|([^|]*)\|([^|]*)\|[^|]*\|([^|]*)\|$/.exec(line);
    if (!m) continue;
    const amount = (cell: string) => (/Free/.test(cell) ? 0 : /\\\$([\d.]+)/.exec(cell)?.[1]);
    const listing = m[1]!.toLowerCase();
    for (const [direction, cache, cell] of [
      ["input", "none", m[2]],
      ["input", "read", m[3]],
      ["output", "none", m[4]],
    ] as const) {
      const a = amount(cell!);
      if (a !== undefined) out.push({ listing, direction, ...base, cache, amount: Number(a) });
    }
  }
  return out;
}

/** xAI: `| grok-… | … | $in$out |` rows of the model table. */
function xaiStated(date: string): Stated[] {
  return gz("official-xai", date, "models.md.gz")
    .split("\n")
    .flatMap((line) => {
      const m = /^\| (grok-[\w.-]+) \|.*\| \$([\d.]+)\$([\d.]+) \|$/.exec(line);
      if (!m) return [];
      return [
        { listing: m[1]!, direction: "input", ...base, amount: Number(m[2]) },
        { listing: m[1]!, direction: "output", ...base, amount: Number(m[3]) },
      ] satisfies Stated[];
    });
}

/**
 * DeepSeek: the English edition's three `1M … TOKENS …| $X` lines (USD) and the Chinese edition's
 * three `百万tokens…| X元` lines (CNY), one price for both models (merged cells).
 */
function deepseekStated(date: string): Stated[] {
  const text = gz("official-deepseek", date, "pricing.md.gz");
  const models = /\*\*MODEL\|\s*(\S+)\|\s*(\S+)/.exec(text)!.slice(1, 3);
  const rows = [
    [/1M INPUT TOKENS \(CACHE HIT\)\| \$([\d.]+)/, "input", "read"],
    [/1M INPUT TOKENS \(CACHE MISS\)\| \$([\d.]+)/, "input", "none"],
    [/1M OUTPUT TOKENS\| \$([\d.]+)/, "output", "none"],
  ] as const;
  // The Chinese edition (CNY, `0.2元`): its own list, published in CNY beside the USD one (T512).
  const zh = gz("official-deepseek", date, "pricing.zh-cn.md.gz");
  const cny = [
    [/百万tokens输入（缓存命中）\| ([\d.]+)元/, "input", "read"],
    [/百万tokens输入（缓存未命中）\| ([\d.]+)元/, "input", "none"],
    [/百万tokens输出\| ([\d.]+)元/, "output", "none"],
  ] as const;
  const inCny = { currency: "CNY", qualifiers: { currency: "CNY" } } as const;
  return models.flatMap((listing) => [
    ...rows.map(([re, direction, cache]) => ({
      listing,
      direction,
      ...base,
      cache,
      amount: Number(re.exec(text)![1]),
    })),
    ...cny.map(([re, direction, cache]) => ({
      listing,
      direction,
      ...base,
      cache,
      amount: Number(re.exec(zh)![1]),
      ...inCny,
    })),
  ]);
}

/**
 * Google: in each section naming one id (`` *`id`* ``), the Standard/Batch rows "Input price",
 * "Output price", "Context caching price", last cell: `$X, prompts \<= 200k` (from 0), `$Y, prompts \>
 * 200k` (from 200K), `$X (text …)` or a bare `$X` (text). Storage per hour and per-image amounts are
 * not token prices.
 */
function googleStated(date: string): Stated[] {
  const out: Stated[] = [];
  let id: string | null = null;
  let tier: Stated["tier"] = "standard";
  for (const line of gz("official-google", date, "pricing.md.gz").split("\n")) {
    if (line.startsWith("## ")) [id, tier] = [null, "standard"];
    const ids = /^\*`([^`]+)`\*$/.exec(line.trim());
    if (ids) id = ids[1]!;
    if (/^### Batch/.test(line)) tier = "batch";
    if (/^### Standard/.test(line)) tier = "standard";
    const row = /^\| (Input price|Output price|Context caching price)\b[^|]*\|[^|]*\|(.*)\|$/.exec(line);
    if (!row || !id) continue;
    const [direction, cache] =
      row[1] === "Input price" ? ["input", "none"] : row[1] === "Output price" ? ["output", "none"] : ["input", "read"];
    for (const seg of row[2]!.split("$").slice(1)) {
      const amount = Number(/^([\d.]+)/.exec(seg)?.[1]);
      if (Number.isNaN(amount) || /per hour|per .*image|\^/.test(seg)) continue;
      const paren = /\(([^)]*)\)/.exec(seg)?.[1];
      if (paren !== undefined && !/text/.test(paren)) continue; // audio only, or image only
      const contextMin = /prompts \\> 200k/.test(seg) ? 200_000 : 0;
      out.push({ listing: id, direction, cache, tier, contextMin, amount } as Stated);
    }
  }
  return out;
}

/**
 * Moonshot (CNY): each `|` table row under a `| 模型 |` header, its cells named by that header; `￥X`
 * amounts; a row one cell short continues the model above (a flattened rowspan); a `推荐` badge is
 * no part of the id; a request-size cell `≤ B` or `A < 长度 ≤ B` is the bracket [A, B].
 */
function moonshotStated(date: string): Stated[] {
  const out: Stated[] = [];
  let header: string[] = [];
  let model = "";
  const cny = { currency: "CNY", qualifiers: { currency: "CNY" } } as const;
  for (const line of gz("official-moonshot", date, "pricing-chat.zh-cn.md.gz").split("\n")) {
    if (!line.startsWith("|") || line.startsWith("| ---")) continue;
    const cells = line
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim());
    if (cells[0] === "模型") {
      header = cells.map((c) => c.replace(/\s+/g, ""));
      continue;
    }
    if (cells.length === header.length - 1) cells.unshift(model);
    model = cells[0]!;
    const cell = (name: string) => cells[header.indexOf(name)];
    const size = cell("请求上下文长度范围（自动选择计费模型）");
    const bounds = size ? [...size.matchAll(/([\d,]+)/g)].map((m) => Number(m[1]!.replace(/,/g, ""))) : [];
    const bracket =
      bounds.length === 0 ? {} : { contextMin: bounds.length === 2 ? bounds[0]! : 0, contextMax: bounds.at(-1)! };
    const listing = model.replace(/推荐$/, "");
    for (const [name, direction, cache] of [
      ["输入价格（缓存命中）", "input", "read"],
      ["输入价格（缓存未命中）", "input", "none"],
      ["输入价格", "input", "none"],
      ["输出价格", "output", "none"],
    ] as const) {
      const amount = /^￥([\d.]+)$/.exec(cell(name) ?? "")?.[1];
      if (amount !== undefined)
        out.push({ listing, direction, ...base, cache, ...bracket, amount: Number(amount), ...cny });
    }
  }
  return out;
}

const published = publishedOnPage;

let store: CatalogueStore;
const versions = new Map<string, Dataset>();
beforeAll(async () => {
  ({ store } = await loadReplay());
});
afterAll(async () => {
  await store.close();
});

/** The replay's dataset version of a run date. */
async function datasetOn(date: string): Promise<Dataset> {
  const cached = versions.get(date);
  if (cached) return cached;
  const run = (await store.listRuns()).find((r) => r.datasetVersion.startsWith(date));
  if (!run) throw new Error(`no replay run on ${date}`);
  const dataset = (await store.loadDataset(run.datasetVersion))!;
  versions.set(date, dataset);
  return dataset;
}

/**
 * Per maker: its reader, the count of text prices each copy states, and the prices left unmatched,
 * with why (an unexpected miss, or a miss that is gone, fails).
 */
const MAKERS: readonly {
  source: string;
  maker: string;
  read: (date: string) => Stated[];
  counts: Readonly<Record<string, number>>;
  unmatched: Readonly<Record<string, readonly string[]>>;
}[] = [
  { source: "official-zai", maker: "zai", read: zaiStated, counts: { "2026-02-01": 41 }, unmatched: {} },
  { source: "official-xai", maker: "xai", read: xaiStated, counts: { "2026-01-01": 18 }, unmatched: {} },
  { source: "official-deepseek", maker: "deepseek", read: deepseekStated, counts: { "2026-01-01": 12 }, unmatched: {} },
  { source: "official-google", maker: "google", read: googleStated, counts: { "2025-12-01": 78 }, unmatched: {} },
  // T508: the CNY list, each price with `currency: CNY` beside the aggregators' USD amounts.
  {
    source: "official-moonshot",
    maker: "moonshotai",
    read: moonshotStated,
    counts: { "2026-01-01": 36 },
    unmatched: {},
  },
  {
    source: "official-mistral",
    maker: "mistral",
    read: mistralStated,
    // The prices of each file's snapshot ids (T434): its moving names state none of their own.
    counts: {
      "2025-11-01": 53,
      "2025-12-01": 53,
      "2026-01-01": 49,
      "2026-02-01": 49,
      "2026-03-01": 49,
      "2026-04-01": 54,
      "2026-05-01": 56,
      "2026-06-01": 56,
    },
    unmatched: {},
  },
];

describe.each(MAKERS)("$source: every text price each copy states is verified at that amount", (m) => {
  it.each(dates(m.source))("copy %s, in the replay's version of that date", async (date) => {
    const dataset = await datasetOn(date);
    const stated = m.read(date);
    expect(stated.length).toBe(m.counts[date]);
    const misses = stated.flatMap((s) => {
      const p = published(dataset, m.source, m.maker, s);
      const what = `${s.listing} ${s.direction} ${s.cache} ${s.tier} ${s.contextMin} ${s.amount}${s.currency ? ` ${s.currency}` : ""}`;
      if (!p) return [`${what}: no direct price`];
      if (p.amount !== s.amount || p.confidence !== "verified")
        return [`${what}: published ${p.amount} ${p.confidence} (${p.modelId})`];
      return [];
    });
    expect(misses).toEqual(m.unmatched[date] ?? []);
  });
});
