import type { Listing, PriceObservation } from "../../domain/observation.js";
import { EMPTY_LISTING_META } from "../../domain/observation.js";
import { UnmappedTally } from "../field-map.js";
import { sourceAdapter } from "../shared/adapter.js";
import { bracketedLiteralEnd } from "../shared/bracketed-literal.js";
import { type NamedModel, readModelCell } from "../shared/model-cell.js";
import { checkPageCoherence } from "../shared/page-coherence.js";
import type { PageHealthSpec } from "../shared/page-health.js";
import { pageDayOf, pageObservation, readPriceTable } from "../shared/page-rows.js";
import { applyStatements, readStatements } from "../shared/page-statements.js";
import type { PageCell, PageTable } from "../shared/page-table.js";
import { payloadFile, zodIssues } from "../shared/payload-json.js";
import type { ParseReport, SourceInfo, SourcePayload } from "../source.js";
import { SourcePayloadError } from "../source.js";
import { filesNamed, type LiveUpstream } from "../upstream.js";
import { BASE_BRACKET_SUFFIX, DEFAULT_COLUMNS, TEXT_TOKEN_COLUMNS, TEXT_TOKEN_COMPONENT, TIERS } from "./field-map.js";
import { OPENAI_MODEL_NAMES } from "./model-names.js";
import { TextTokenColumns, TextTokenRows } from "./schema.js";

/**
 * OpenAI's own pricing page (developers.openai.com/api/docs/pricing, its `.md` twin; issue 35,
 * T290). Reads the text-token panes (`<TextTokenPricingTables tier="…" rows={[…]} />`, one per
 * tier): input, cached input and output, USD per 1M tokens. Authoritative for `openai` (D8
 * verified); © OpenAI, kept for verification only.
 */

const FILE = "pricing.md";
const ID = "official-openai";

/** The live payload: the page's Markdown twin. */
const UPSTREAM: LiveUpstream = { baseUrl: "https://developers.openai.com/api/docs/", files: filesNamed(FILE) };

const INFO: SourceInfo = {
  name: "OpenAI pricing page",
  license: null,
  homepage: "https://developers.openai.com/api/docs/pricing",
  weight: 1,
  authoritativeFor: ["openai"],
};

/**
 * The page's health gate (T291): its title, canary and size band. Recorded copies are 14,099 and
 * 17,499 bytes; the band is half the smallest to twice the largest.
 */
export const PAGE_HEALTH: PageHealthSpec = {
  title: /^pricing$/i,
  canaries: [/Prices per 1M tokens/],
  bytes: [7_000, 35_000],
};

/** One text-token pane: its tier attribute, the JS literal of its `rows` prop and of its `columns` prop if it gives one. */
interface Pane {
  readonly tier: string;
  readonly rowsSource: string;
  readonly columnsSource: string | null;
}

/** The end (exclusive) of the bracketed literal opening at `start` (`[`), skipping quoted strings. */
function literalEnd(text: string, start: number): number {
  const end = bracketedLiteralEnd(text, start);
  if (end === null)
    throw new SourcePayloadError(`${ID}: ${FILE} has a ${TEXT_TOKEN_COMPONENT} rows literal that never closes`);
  return end;
}

/** The literal of prop `name={…}` in a component's source, or null. */
function propLiteral(component: string, name: string): string | null {
  const at = new RegExp(`\\b${name}=\\{`).exec(component);
  if (!at) return null;
  const start = at.index + at[0].length;
  return component.slice(start, literalEnd(component, start));
}

/** Every `<TextTokenPricingTables …>` of the page, in page order. */
function panes(text: string): Pane[] {
  const out: Pane[] = [];
  const open = new RegExp(`<${TEXT_TOKEN_COMPONENT}\\b`, "g");
  for (const m of text.matchAll(open)) {
    const rowsAt = text.indexOf("rows={", m.index);
    const next = text.indexOf(`<${TEXT_TOKEN_COMPONENT}`, m.index + 1);
    if (rowsAt < 0 || (next >= 0 && rowsAt > next)) {
      throw new SourcePayloadError(`${ID}: ${FILE} has a ${TEXT_TOKEN_COMPONENT} without rows`);
    }
    const start = rowsAt + "rows={".length;
    const end = literalEnd(text, start);
    const close = text.indexOf("/>", end);
    const component = text.slice(m.index, close < 0 ? end : close);
    const attributes = text.slice(m.index, rowsAt);
    const tier = /\btier="([^"]*)"/.exec(attributes)?.[1];
    if (tier === undefined) {
      throw new SourcePayloadError(`${ID}: ${FILE} has a ${TEXT_TOKEN_COMPONENT} without a tier attribute`);
    }
    const withoutRows = component.replace(text.slice(rowsAt, end), "");
    out.push({ tier, rowsSource: text.slice(start, end), columnsSource: propLiteral(withoutRows, "columns") });
  }
  return out;
}

/** A JS literal read as JSON once trailing commas are dropped. */
function literal(source: string, what: string): unknown {
  try {
    return JSON.parse(source.replace(/,(\s*[\]}])/g, "$1"));
  } catch {
    throw new SourcePayloadError(`${ID}: ${FILE} ${what} is not a JSON-like literal`);
  }
}

/** `cachedInput` / `cached_input` → `cached input`: an object row's key as a header. */
const keyHeader = (key: string) => key.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ");

/** A cell with the model cell's base-bracket suffix dropped (only a model cell has one). */
const cell = (c: PageCell): PageCell => (typeof c === "string" ? c.replace(BASE_BRACKET_SUFFIX, "") : c);

/**
 * A pane as a table: its header from the pane (a `columns` prop, object rows' keys) or the
 * component's default; array rows of another length than the header fail the page (T290).
 */
function paneTable(pane: Pane): PageTable {
  const parsed = TextTokenRows.safeParse(literal(pane.rowsSource, `${pane.tier} pane's rows`));
  if (!parsed.success) throw new SourcePayloadError(`${ID}: ${FILE} ${pane.tier} pane: ${zodIssues(parsed.error)}`);
  const given =
    pane.columnsSource === null
      ? null
      : TextTokenColumns.safeParse(literal(pane.columnsSource, `${pane.tier} pane's columns`));
  if (given && !given.success)
    throw new SourcePayloadError(`${ID}: ${FILE} ${pane.tier} pane: ${zodIssues(given.error)}`);
  const rows = parsed.data;
  if (rows.length > 0 && !Array.isArray(rows[0])) {
    const objects = rows as Record<string, PageCell>[];
    const keys = [...new Set(objects.flatMap((r) => Object.keys(r)))];
    return { header: keys.map(keyHeader), rows: objects.map((r) => keys.map((k) => cell(r[k] ?? null))), before: [] };
  }
  const header = given?.data ?? [...DEFAULT_COLUMNS];
  for (const row of rows as PageCell[][])
    if (row.length !== header.length) {
      throw new SourcePayloadError(
        `${ID}: ${FILE} ${pane.tier} row "${row[0]}" has ${row.length - 1} prices; the pane's columns are ${header.length - 1} (${header.slice(1).join(", ")})${given ? "" : `, ${TEXT_TOKEN_COMPONENT}'s own, the pane gives no header`}`,
      );
    }
  return {
    header,
    rows: (rows as PageCell[][]).map((r) => r.map(cell)),
    before: [],
  };
}

/** A cell after the amount: a number, or `$X` with the page's unit or none. */
const UNIT = /^(?:\/\s*(?:1m tokens|mtok))?$/i;

/**
 * Parses the pricing page.
 * @throws SourcePayloadError when `pricing.md` is missing; when it states no text-token price (the
 *   2026-03-01 copy: its panes are empty, the tables rendered client-side) — never read as 0; when
 *   a pane has an unknown tier, or a row whose length its header does not have (T290); when its
 *   rows make no sense (the health gate's coherence rules, T408)
 */
function parseReport(payload: SourcePayload): ParseReport {
  const text = payloadFile(ID, payload, FILE);
  const tally = new UnmappedTally();
  const today = pageDayOf(payload.observedAt);
  const byModel = new Map<string, PriceObservation[]>();
  for (const pane of panes(text)) {
    const tier = TIERS[pane.tier as keyof typeof TIERS];
    if (!tier)
      throw new SourcePayloadError(`${ID}: ${FILE} has a ${TEXT_TOKEN_COMPONENT} of unknown tier "${pane.tier}"`);
    const table = paneTable(pane);
    const read = readPriceTable(table, TEXT_TOKEN_COLUMNS, {
      table: `${TEXT_TOKEN_COMPONENT} ${tier}`,
      grammar: OPENAI_MODEL_NAMES,
      unit: UNIT,
      required: [],
      today,
      tally,
    });
    if (!read.modelColumn)
      throw new SourcePayloadError(
        `${ID}: ${FILE} ${tier} pane has no model column (header: ${table.header.join(", ")})`,
      );
    for (const [model, fields] of read.prices) {
      const prices = byModel.get(model) ?? [];
      for (const spec of TEXT_TOKEN_COLUMNS) {
        const p = spec.field === "model" ? undefined : fields[spec.field];
        if (p && "rule" in spec) prices.push(pageObservation(spec.rule, p.amount, p.validity, { tier }));
      }
      byModel.set(model, prices);
    }
  }
  const listings = [...byModel]
    .filter(([, prices]) => prices.length > 0)
    .map(
      ([model, prices]): Listing => ({
        ...EMPTY_LISTING_META,
        seller: "openai",
        model,
        makerHint: "openai",
        prices,
      }),
    );
  if (listings.length === 0) {
    throw new SourcePayloadError(
      `${ID}: ${FILE} states no text-token prices (no ${TEXT_TOKEN_COMPONENT} row; its text-token panes are empty)`,
    );
  }
  // The page's own sentences announce, confirm or withdraw a change (issue 46 §3, T465).
  const stated = applyStatements(listings, readStatements(text, sentenceModels), tally);
  checkPageCoherence(`${ID}: ${FILE}`, stated);
  return { listings: stated, unmapped: tally.toRecord() };
}

/** The model ids a sentence names (`gpt-5.5`, `o3`), once each, by the page's grammar. */
function sentenceModels(sentence: string): NamedModel[] {
  const out = new Map<string, NamedModel>();
  for (const m of sentence.matchAll(/(?<![\w.-])(?:gpt-[\w.-]*\w|o\d(?:-[a-z]+)*|babbage-002|davinci-002)(?![\w-])/g)) {
    const read = readModelCell(m[0], OPENAI_MODEL_NAMES);
    if (read.ok) for (const n of read.models) if (!out.has(n.id)) out.set(n.id, n);
  }
  return [...out.values()];
}

/** OpenAI's own pricing page (weight 1, authoritative for openai). */
export const officialOpenaiSource = sourceAdapter(ID, INFO, UPSTREAM, parseReport, {
  pageHealth: { [FILE]: PAGE_HEALTH },
});
