import type { Listing, PriceObservation } from "../../domain/observation.js";
import { EMPTY_LISTING_META } from "../../domain/observation.js";
import { type FieldRule, UnmappedTally } from "../field-map.js";
import { sourceAdapter } from "../shared/adapter.js";
import type { DatedAmount } from "../shared/dated-rows.js";
import { cellLabel, type NamedModel, readModelCell } from "../shared/model-cell.js";
import { checkPageCoherence } from "../shared/page-coherence.js";
import type { PageHealthSpec } from "../shared/page-health.js";
import { countUnmatched, pageDayOf, pageObservation, readPriceTable, type TableReading } from "../shared/page-rows.js";
import { applyStatements, readStatements } from "../shared/page-statements.js";
import { firstTable, type MarkdownTable, normaliseHeader, priceCell, section } from "../shared/page-table.js";
import { payloadFile } from "../shared/payload-json.js";
import type { ParseReport, SourceInfo, SourcePayload } from "../source.js";
import { SourcePayloadError } from "../source.js";
import { filesNamed, type LiveUpstream } from "../upstream.js";
import {
  BATCH_COLUMNS,
  FAST_MODE_COLUMNS,
  LONG_CONTEXT_ROWS,
  MODEL_PRICING_COLUMNS,
  MTOK,
  WEB_SEARCH,
} from "./field-map.js";
import { ANTHROPIC_MODEL_NAMES } from "./model-names.js";
import { LongContext } from "./schema.js";

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

/** The table under the first heading matching `title`, or null. */
function tableUnder(lines: readonly string[], title: RegExp): MarkdownTable | null {
  const body = section(lines, title);
  return body ? firstTable(body) : null;
}

/** What every table read of one page shares. */
type Reading = Omit<TableReading<string>, "table" | "required" | "proseModels">;

/**
 * The "Model pricing" table: one listing per model it names (issue 46: columns by header, names by
 * grammar, dated rows as validity).
 * @throws SourcePayloadError when the table is missing, lacks a Model / input / output column, or
 *   prices no model
 */
function modelPricing(lines: readonly string[], reading: Reading) {
  const table = tableUnder(lines, /^model pricing\b/);
  if (!table) throw new SourcePayloadError(`official-anthropic: ${FILE} has no "Model pricing" table`);
  const read = readPriceTable(table, MODEL_PRICING_COLUMNS, {
    ...reading,
    table: "Model pricing",
    required: ["input", "output"],
  });
  if (!read.modelColumn || read.missing.some((f) => f === "input" || f === "output")) {
    throw new SourcePayloadError(
      `official-anthropic: ${FILE} "Model pricing" table lacks Model / Base Input Tokens / Output Tokens columns (header: ${table.header.join(" | ")})`,
    );
  }
  if (read.prices.size === 0) {
    throw new SourcePayloadError(`official-anthropic: ${FILE} "Model pricing" table has no parsable row`);
  }
  return read;
}

/** The "Batch processing" table (absent from 2026-05: a link only). */
function batchPricing(lines: readonly string[], reading: Reading) {
  const table = tableUnder(lines, /^batch processing\b/);
  if (!table) return null;
  return readPriceTable(table, BATCH_COLUMNS, { ...reading, table: "Batch processing", required: ["input", "output"] });
}

/**
 * The "Long context pricing" table. Two layouts are recorded: 2025 (and 2026-02) one price column
 * pair for the models the prose above names; 2026-03 a `Model` column whose cell names a group
 * (`Claude Sonnet 4.6 / 4.5 / 4`), its `Input:` row followed by a blank-model `Output:` row. From
 * 2026-04 the section is prose only ("full 1M context at standard pricing"): no bracket, `[]`.
 */
function longContext(lines: readonly string[], reading: Reading): LongContext[] {
  const table = tableUnder(lines, /^long context pricing\b/);
  if (!table) return [];
  const above = table.header.findIndex((h) => />\s*\d+\s*K/i.test(h));
  const threshold = Number(/>\s*(\d+)\s*K/i.exec(table.header[above] ?? "")?.[1]) * 1000;
  const model = table.header.findIndex((h) => normaliseHeader(h) === "model");
  const groups: { models: string[]; rows: (readonly string[])[] }[] = [];
  if (model < 0) {
    groups.push({ models: proseModels(table.before, reading).map((m) => m.id), rows: [...table.rows] });
  } else {
    for (const cells of table.rows) {
      const cell = cells[model] ?? "";
      if (normaliseHeader(cell) === "") {
        groups.at(-1)?.rows.push(cells);
        continue;
      }
      const named = readModelCell(cell, ANTHROPIC_MODEL_NAMES);
      if (named.ok) groups.push({ models: named.models.map((m) => m.id), rows: [cells] });
      else {
        countUnmatched(reading.tally, "Long context pricing", cellLabel(cell), named.reason);
        groups.push({ models: [], rows: [cells] });
      }
    }
  }
  return groups.flatMap((g) => {
    const cell = (label: RegExp) => g.rows.find((r) => label.test(r[above] ?? ""))?.[above];
    const amount = (label: RegExp) => {
      const c = priceCell(cell(label)?.replace(/^\s*\w+:\s*/, ""), MTOK);
      return c.kind === "amount" ? c.amount : null;
    };
    const parsed = LongContext.safeParse({
      models: g.models,
      threshold,
      input: amount(/^input/i),
      output: amount(/^output/i),
    });
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * The models prose names (`for Claude Opus 4.6`, `supported on Opus 4.6`), once each, in order, as
 * display names the grammar accepts (`Claude Opus 4.6`) with their ids.
 */
function proseModels(prose: readonly string[], reading: Reading): NamedModel[] {
  const named = [...prose.join(" ").matchAll(/(?:Claude\s+)?(Opus|Sonnet|Haiku)\s+(\d+(?:\.\d+)?)/g)];
  const models = new Map<string, NamedModel>();
  for (const m of named) {
    const cell = readModelCell(`Claude ${m[1]} ${m[2]}`, reading.grammar);
    if (cell.ok) for (const n of cell.models) if (!models.has(n.id)) models.set(n.id, n);
  }
  return [...models.values()];
}

/**
 * The "Fast mode pricing" table (2026-03 on, T370): one `| Input | Output |` row naming no model,
 * the models named by the prose above it ("for Claude Opus 4.6 … Currently supported on Opus 4.6");
 * a table with a `Model` column is read per row. Pages without the section: null. The page states
 * one price "across the full context window, including requests over 200K input tokens", so no
 * bracket is read (T371).
 */
function fastMode(lines: readonly string[], reading: Reading) {
  const table = tableUnder(lines, /^fast mode pricing\b/);
  if (!table) return null;
  const names = proseModels(table.before, reading).map((m) => m.name);
  return readPriceTable(table, FAST_MODE_COLUMNS, {
    ...reading,
    table: "Fast mode pricing",
    required: ["input", "output"],
    proseModels: names,
  });
}

/** `$10 per 1,000 searches` → "10" (USD per 1K searches); null when the page has none. */
function webSearchFee(text: string): string | null {
  return /\\?\$\s*(\d+(?:\.\d+)?)\s+per\s+1,?000\s+searches/i.exec(text.replace(/[\u00a0\u202f]/g, " "))?.[1] ?? null;
}

/** The observations of one table's fields for a model, by the table's column map. */
function fieldPrices<F extends string>(
  map: readonly { readonly field: F | "model"; readonly rule?: FieldRule }[],
  prices: Partial<Record<F, DatedAmount>> | undefined,
): PriceObservation[] {
  if (!prices) return [];
  return map.flatMap((spec) => {
    const p = spec.field === "model" || !spec.rule ? undefined : prices[spec.field as F];
    return p && spec.rule ? [pageObservation(spec.rule, p.amount, p.validity)] : [];
  });
}

/**
 * Parses the pricing page.
 * @throws SourcePayloadError when `pricing.md` is missing, or its "Model pricing" table is missing
 *   or has no parsable row; when its rows make no sense (the health gate's coherence rules, T408).
 *   Its dated sentences are read by `page-statements.ts` (T465): a withdrawal removes the end the
 *   tables state; a sentence no reviewed wording reads is counted for review.
 */
function parseReport(payload: SourcePayload): ParseReport {
  const text = payloadFile("official-anthropic", payload, FILE);
  const lines = text.split(/\r?\n/);
  const tally = new UnmappedTally();
  const reading: Reading = { grammar: ANTHROPIC_MODEL_NAMES, unit: MTOK, today: pageDayOf(payload.observedAt), tally };
  const models = modelPricing(lines, reading);
  const batch = batchPricing(lines, reading);
  const longFor = new Map(longContext(lines, reading).flatMap((l) => l.models.map((m) => [m, l] as const)));
  const fast = fastMode(lines, reading);
  const search = webSearchFee(text);

  const listings = [...models.prices].map(([model, own]): Listing => {
    const prices: PriceObservation[] = [
      ...fieldPrices(MODEL_PRICING_COLUMNS, own),
      ...fieldPrices(BATCH_COLUMNS, batch?.prices.get(model)),
    ];
    const long = longFor.get(model);
    if (long) {
      if (long.input)
        prices.push(pageObservation(LONG_CONTEXT_ROWS.input, long.input, undefined, { contextMin: long.threshold }));
      if (long.output)
        prices.push(pageObservation(LONG_CONTEXT_ROWS.output, long.output, undefined, { contextMin: long.threshold }));
    }
    prices.push(...fieldPrices(FAST_MODE_COLUMNS, fast?.prices.get(model)));
    if (search) prices.push(pageObservation(WEB_SEARCH, search));
    const page = models.names.get(model);
    return {
      ...EMPTY_LISTING_META,
      seller: "anthropic",
      model,
      makerHint: "anthropic",
      name: page?.name ?? null,
      status: page?.deprecated ? "deprecated" : "active",
      prices,
    };
  });
  // The page's own sentences announce, confirm or withdraw a change (issue 46 §3, T465).
  const stated = applyStatements(
    listings,
    readStatements(text, (sentence) => proseModels([sentence], reading)),
    tally,
  );
  checkPageCoherence(`official-anthropic: ${FILE}`, stated);
  return { listings: stated, unmapped: tally.toRecord() };
}

/** Anthropic's own pricing page (weight 1, authoritative for anthropic). */
export const officialAnthropicSource = sourceAdapter("official-anthropic", INFO, UPSTREAM, parseReport, {
  pageHealth: { [FILE]: PAGE_HEALTH },
});
