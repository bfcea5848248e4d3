import { scaleAmount } from "../../domain/amount.js";
import type { Dimension } from "../../domain/dimension.js";
import type { Listing, PriceObservation } from "../../domain/observation.js";
import { EMPTY_LISTING_META } from "../../domain/observation.js";
import { type FieldRule, ruleDimension, UnmappedTally } from "../field-map.js";
import { sourceAdapter } from "../shared/adapter.js";
import type { PageHealthSpec } from "../shared/page-health.js";
import { payloadFile } from "../shared/payload-json.js";
import type { ParseReport, SourceInfo, SourcePayload } from "../source.js";
import { SourcePayloadError } from "../source.js";
import { filesNamed, type LiveUpstream } from "../upstream.js";
import {
  BATCH_COLUMNS,
  FAST_MODE_COLUMNS,
  LONG_CONTEXT_ROWS,
  MODEL_COLUMN,
  MODEL_PRICING_COLUMNS,
  WEB_SEARCH,
} from "./field-map.js";
import { BatchRow, FastMode, LongContext, ModelPricingRow } from "./schema.js";

/**
 * Anthropic's own pricing page (platform.claude.com …/about-claude/pricing, `.md` form; docs.claude.com
 * before 2026).
 *
 * Parses the "Model pricing", "Batch processing", "Long context pricing" and "Fast mode pricing"
 * tables and the web search fee. Amounts are already USD per 1M tokens (`$X / MTok`). Authoritative for `anthropic`
 * (D8 verified); © Anthropic, kept for verification only.
 */

const FILE = "pricing.md";

/** The live payload: the page's Markdown twin (moved from docs.claude.com to platform.claude.com in 2026). */
const UPSTREAM: LiveUpstream = {
  baseUrl: "https://platform.claude.com/docs/en/about-claude/",
  files: filesNamed(FILE),
};

const INFO: SourceInfo = {
  name: "Anthropic pricing page",
  license: null,
  homepage: "https://platform.claude.com/docs/en/about-claude/pricing",
  weight: 1,
  authoritativeFor: ["anthropic"],
};

/**
 * The page's health gate (T291): its title, canaries and size band. Recorded copies are 18,302 –
 * 23,192 bytes (2025-12 … 2026-05); the band is half the smallest to twice the largest.
 */
export const PAGE_HEALTH: PageHealthSpec = {
  title: /^pricing$/i,
  canaries: [/^## Model pricing/m, /\/ MTok/],
  bytes: [9_000, 46_000],
};

/** Lines of the section under a heading (`## Model pricing`), up to the next heading of that level or higher. */
function section(lines: readonly string[], title: RegExp): string[] | null {
  const start = lines.findIndex((l) => /^#{2,4}\s/.test(l) && title.test(l.replace(/^#+\s*/, "")));
  if (start < 0) return null;
  const level = (/^#+/.exec(lines[start] as string)?.[0] ?? "##").length;
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const h = /^(#+)\s/.exec(line);
    if (h && (h[1] as string).length <= level) break;
    out.push(line);
  }
  return out;
}

/** The first Markdown table in `lines`: header cells, body rows, and the lines before it. */
function firstTable(lines: readonly string[]): { header: string[]; rows: string[][]; before: string[] } | null {
  const start = lines.findIndex((l, i) => l.trim().startsWith("|") && /^\s*\|[\s:|-]+\|\s*$/.test(lines[i + 1] ?? ""));
  if (start < 0) return null;
  const cells = (line: string) =>
    line
      .trim()
      .replace(/^\|/, "")
      .replace(/\|$/, "")
      .split("|")
      .map((c) => c.trim());
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.trim().startsWith("|")) break;
    rows.push(cells(line));
  }
  return { header: cells(lines[start] as string), rows, before: lines.slice(0, start) };
}

/** `$15 / MTok` or `\$1.50 / MTok` → `"15"` / `"1.50"`; null when the cell has no such amount. */
function mtok(cell: string | undefined): string | null {
  const m = /\\?\$\s*(\d+(?:\.\d+)?)\s*\/\s*MTok/i.exec(cell ?? "");
  return m ? (m[1] as string) : null;
}

/** `Claude Sonnet 3.7 ([deprecated](/docs/…))` → name `Claude Sonnet 3.7`, deprecated. */
function modelCell(cell: string): { name: string; deprecated: boolean } {
  let deprecated = false;
  const withoutNotes = cell.replace(/\(\s*\[([^\]]*)\]\([^)]*\)\s*\)/g, (_, note: string) => {
    if (/deprecat/i.test(note)) deprecated = true;
    return "";
  });
  const name = withoutNotes
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/[*_`]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return { name, deprecated };
}

/** Display name → model id: `Claude Opus 4.1` → `claude-opus-4-1`. */
export function anthropicModelSlug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[.\s]+/g, "-")
    .replace(/[^a-z0-9-]/g, "")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "");
}

const columnOf = (header: readonly string[], pattern: RegExp) => header.findIndex((h) => pattern.test(h));

/** Counts the columns of a table the field map does not know, once per row (T70). */
function countUnknownColumns(
  table: string,
  header: readonly string[],
  known: readonly number[],
  rows: number,
  unmapped: UnmappedTally,
) {
  header.forEach((h, i) => {
    if (!known.includes(i) && h !== "") unmapped.add(`${table}: ${h}`, rows);
  });
}

function modelPricing(lines: readonly string[], unmapped: UnmappedTally): ModelPricingRow[] {
  const body = section(lines, /^model pricing\b/i);
  const table = body ? firstTable(body) : null;
  if (!table) throw new SourcePayloadError(`official-anthropic: ${FILE} has no "Model pricing" table`);
  const col = {
    model: columnOf(table.header, MODEL_COLUMN),
    input: columnOf(table.header, MODEL_PRICING_COLUMNS.input.header),
    w5m: columnOf(table.header, MODEL_PRICING_COLUMNS.cacheWrite5m.header),
    w1h: columnOf(table.header, MODEL_PRICING_COLUMNS.cacheWrite1h.header),
    read: columnOf(table.header, MODEL_PRICING_COLUMNS.cacheRead.header),
    output: columnOf(table.header, MODEL_PRICING_COLUMNS.output.header),
  };
  countUnknownColumns("Model pricing", table.header, Object.values(col), table.rows.length, unmapped);
  if (col.model < 0 || col.input < 0 || col.output < 0) {
    throw new SourcePayloadError(
      `official-anthropic: ${FILE} "Model pricing" table lacks Model / Base Input Tokens / Output Tokens columns (header: ${table.header.join(" | ")})`,
    );
  }
  const rows: ModelPricingRow[] = [];
  for (const cells of table.rows) {
    const { name, deprecated } = modelCell(cells[col.model] ?? "");
    const row = ModelPricingRow.safeParse({
      name,
      deprecated,
      input: mtok(cells[col.input]),
      cacheWrite5m: col.w5m < 0 ? null : mtok(cells[col.w5m]),
      cacheWrite1h: col.w1h < 0 ? null : mtok(cells[col.w1h]),
      cacheRead: col.read < 0 ? null : mtok(cells[col.read]),
      output: mtok(cells[col.output]),
    });
    if (row.success) rows.push(row.data); // an unparsable row is skipped
  }
  if (rows.length === 0) {
    throw new SourcePayloadError(`official-anthropic: ${FILE} "Model pricing" table has no parsable row`);
  }
  return rows;
}

function batchPricing(lines: readonly string[], unmapped: UnmappedTally): BatchRow[] {
  const body = section(lines, /^batch processing\b/i);
  const table = body ? firstTable(body) : null;
  if (!table) return [];
  const model = columnOf(table.header, MODEL_COLUMN);
  const input = columnOf(table.header, BATCH_COLUMNS.input.header);
  const output = columnOf(table.header, BATCH_COLUMNS.output.header);
  countUnknownColumns("Batch processing", table.header, [model, input, output], table.rows.length, unmapped);
  if (model < 0 || input < 0 || output < 0) return [];
  return table.rows.flatMap((cells) => {
    const row = BatchRow.safeParse({
      name: modelCell(cells[model] ?? "").name,
      input: mtok(cells[input]),
      output: mtok(cells[output]),
    });
    return row.success ? [row.data] : [];
  });
}

/**
 * The "Long context pricing" table. Two layouts are recorded: 2025 (and 2026-02) one price column
 * pair for the models the prose above names; 2026-03 a `Model` column whose cell names a group
 * (`Claude Sonnet 4.6 / 4.5 / 4`), its `Input:` row followed by a blank-model `Output:` row. From
 * 2026-04 the section is prose only ("full 1M context at standard pricing"): no bracket, `[]`.
 */
function longContext(lines: readonly string[]): LongContext[] {
  const body = section(lines, /^long context pricing\b/i);
  const table = body ? firstTable(body) : null;
  if (!table) return [];
  const above = columnOf(table.header, />\s*\d+\s*K/i);
  const threshold = Number(/>\s*(\d+)\s*K/i.exec(table.header[above] ?? "")?.[1]) * 1000;
  const model = columnOf(table.header, MODEL_COLUMN);
  const groups: { models: string[]; rows: string[][] }[] = [];
  if (model < 0) {
    groups.push({ models: proseModels(table.before), rows: table.rows });
  } else {
    for (const cells of table.rows) {
      const named = modelCell(cells[model] ?? "").name;
      if (named !== "") groups.push({ models: modelGroup(named), rows: [cells] });
      else groups.at(-1)?.rows.push(cells);
    }
  }
  return groups.flatMap((g) => {
    const cell = (label: RegExp) => g.rows.find((r) => label.test(r[above] ?? ""))?.[above];
    const parsed = LongContext.safeParse({
      models: g.models,
      threshold,
      input: mtok(cell(/^input/i)),
      output: mtok(cell(/^output/i)),
    });
    return parsed.success ? [parsed.data] : [];
  });
}

/** The models prose names (`for Claude Opus 4.6`, `supported on Opus 4.6`) as display names, once each, in order. */
function proseModels(prose: readonly string[]): string[] {
  const named = [...prose.join(" ").matchAll(/(?:Claude\s+)?(Opus|Sonnet|Haiku)\s+(\d+(?:\.\d+)?)/g)];
  return [...new Set(named.map((m) => `Claude ${m[1]} ${m[2]}`))];
}

/**
 * The "Fast mode pricing" table (2026-03 on, T370): one `| Input | Output |` row naming no model,
 * the models named by the prose above it ("for Claude Opus 4.6 … Currently supported on Opus 4.6");
 * a table with a `Model` column is read per row. Pages without the section: `[]`. The page states
 * one price "across the full context window, including requests over 200K input tokens", so no
 * bracket is read (T371).
 */
function fastMode(lines: readonly string[], unmapped: UnmappedTally): FastMode[] {
  const body = section(lines, /^fast mode pricing\b/i);
  const table = body ? firstTable(body) : null;
  if (!table) return [];
  const model = columnOf(table.header, MODEL_COLUMN);
  const input = columnOf(table.header, FAST_MODE_COLUMNS.input.header);
  const output = columnOf(table.header, FAST_MODE_COLUMNS.output.header);
  countUnknownColumns("Fast mode pricing", table.header, [model, input, output], table.rows.length, unmapped);
  if (input < 0 || output < 0) return [];
  return table.rows.flatMap((cells) => {
    const row = FastMode.safeParse({
      models: model < 0 ? proseModels(table.before) : [modelCell(cells[model] ?? "").name],
      input: mtok(cells[input]),
      output: mtok(cells[output]),
    });
    return row.success ? [row.data] : [];
  });
}

/** `Claude Sonnet 4.6 / 4.5 / 4` → `Claude Sonnet 4.6`, `Claude Sonnet 4.5`, `Claude Sonnet 4`. */
function modelGroup(name: string): string[] {
  const [first, ...versions] = name.split("/").map((p) => p.trim());
  const family = /^(.*\s)\d+(?:\.\d+)?$/.exec(first ?? "")?.[1];
  return [first as string, ...(family ? versions.map((v) => `${family}${v}`) : [])];
}

/** `$10 per 1,000 searches` → "10" (USD per 1K searches); null when the page has none. */
function webSearchFee(text: string): string | null {
  return /\\?\$\s*(\d+(?:\.\d+)?)\s+per\s+1,?000\s+searches/i.exec(text)?.[1] ?? null;
}

function observation(r: FieldRule, amount: string, at: Partial<Pick<Dimension, "contextMin">> = {}): PriceObservation {
  return {
    dimension: ruleDimension(r, at),
    amount: scaleAmount(amount, r.factor),
    unit: r.unit,
    denomination: "currency",
    currency: "USD",
  };
}

/**
 * Parses the pricing page.
 * @throws SourcePayloadError when `pricing.md` is missing, or its "Model pricing" table is missing
 *   or has no parsable row
 */
function parseReport(payload: SourcePayload): ParseReport {
  const text = payloadFile("official-anthropic", payload, FILE);
  const lines = text.split(/\r?\n/);
  const unmapped = new UnmappedTally();
  const models = modelPricing(lines, unmapped);
  const batch = new Map(batchPricing(lines, unmapped).map((r) => [anthropicModelSlug(r.name), r]));
  const longFor = new Map(longContext(lines).flatMap((l) => l.models.map((m) => [anthropicModelSlug(m), l] as const)));
  const fastFor = new Map(
    fastMode(lines, unmapped).flatMap((f) => f.models.map((m) => [anthropicModelSlug(m), f] as const)),
  );
  const search = webSearchFee(text);

  const C = MODEL_PRICING_COLUMNS;
  const listings = models.map((row): Listing => {
    const model = anthropicModelSlug(row.name);
    const prices: PriceObservation[] = [observation(C.input.rule, row.input), observation(C.output.rule, row.output)];
    if (row.cacheWrite5m) prices.push(observation(C.cacheWrite5m.rule, row.cacheWrite5m));
    if (row.cacheWrite1h) prices.push(observation(C.cacheWrite1h.rule, row.cacheWrite1h));
    if (row.cacheRead) prices.push(observation(C.cacheRead.rule, row.cacheRead));
    const b = batch.get(model);
    if (b)
      prices.push(observation(BATCH_COLUMNS.input.rule, b.input), observation(BATCH_COLUMNS.output.rule, b.output));
    const long = longFor.get(model);
    if (long) {
      if (long.input) prices.push(observation(LONG_CONTEXT_ROWS.input, long.input, { contextMin: long.threshold }));
      if (long.output) prices.push(observation(LONG_CONTEXT_ROWS.output, long.output, { contextMin: long.threshold }));
    }
    const fast = fastFor.get(model);
    if (fast)
      prices.push(
        observation(FAST_MODE_COLUMNS.input.rule, fast.input),
        observation(FAST_MODE_COLUMNS.output.rule, fast.output),
      );
    if (search) prices.push(observation(WEB_SEARCH, search));
    return {
      ...EMPTY_LISTING_META,
      seller: "anthropic",
      model,
      makerHint: "anthropic",
      name: row.name,
      status: row.deprecated ? "deprecated" : "active",
      prices,
    };
  });
  return { listings, unmapped: unmapped.toRecord() };
}

/** Anthropic's own pricing page (weight 1, authoritative for anthropic). */
export const officialAnthropicSource = sourceAdapter("official-anthropic", INFO, UPSTREAM, parseReport, {
  pageHealth: { [FILE]: PAGE_HEALTH },
});
