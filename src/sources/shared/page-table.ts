import type { FieldRule } from "../field-map.js";
import { SourcePayloadError } from "../source.js";

/**
 * The table reader of a maker's own price page (issue 46 §1, T405): Markdown tables read by their
 * headers, never by position. Pure. A page kind declares a {@link ColumnMap} — normalised header
 * text → the field it bills — and the reader finds each field's column on every copy, so a column
 * added, renamed ("Input" → "Input tokens") or moved is still read; a column the map does not know
 * is returned by name (the adapter counts it as unmapped, T70), never read. Shared by every
 * maker-page source (Anthropic, OpenAI; the next makers of issue 48 reuse it).
 */

/**
 * A cell as a page gives it: Markdown text, or a JSX data prop's value (a number is an amount in the
 * page's unit; null is "not offered").
 */
export type PageCell = string | number | null;

/** One table: header cells, body rows (Markdown cells trimmed), the page lines above it in its section. */
export interface PageTable {
  readonly header: readonly string[];
  readonly rows: readonly (readonly PageCell[])[];
  readonly before: readonly string[];
}

/** A Markdown table: its cells are text. */
export interface MarkdownTable extends PageTable {
  readonly rows: readonly (readonly string[])[];
}

/** Spaces a page may write that are not ASCII (no-break, narrow no-break, thin, figure). */
const ODD_SPACES = /[\u00a0\u2007\u2009\u202f]/g;

/** A table row's cells: the line split on unescaped `|`, outer pipes dropped, each cell trimmed. */
export function tableCells(line: string): string[] {
  const inner = line
    .trim()
    .replace(/^\|/, "")
    .replace(/(?<!\\)\|$/, "");
  return inner.split(/(?<!\\)\|/).map((c) => c.replace(/\\\|/g, "|").trim());
}

/** Whether `line` is a Markdown table's delimiter row (`|---|:--:|`). */
const isDelimiter = (line: string | undefined): boolean =>
  line !== undefined && /^\s*\|?[\s:|-]+\|[\s:|-]*$/.test(line) && line.includes("-");

/** Every table of `lines`, in page order (a header row, a delimiter row, then rows starting with `|`). */
export function markdownTables(lines: readonly string[]): MarkdownTable[] {
  const out: MarkdownTable[] = [];
  let from = 0;
  for (let i = 0; i < lines.length - 1; i++) {
    const line = lines[i] as string;
    if (!line.trim().startsWith("|") || !isDelimiter(lines[i + 1])) continue;
    const rows: string[][] = [];
    let j = i + 2;
    for (; j < lines.length && (lines[j] as string).trim().startsWith("|"); j++)
      rows.push(tableCells(lines[j] as string));
    out.push({ header: tableCells(line), rows, before: lines.slice(from, i) });
    from = j;
    i = j - 1;
  }
  return out;
}

/** The first table of `lines`, or null. */
export function firstTable(lines: readonly string[]): MarkdownTable | null {
  return markdownTables(lines)[0] ?? null;
}

/**
 * The lines under the first heading (levels 2–4) whose text matches `title`, up to the next heading
 * of that level or higher; null when the page has no such heading.
 */
export function section(lines: readonly string[], title: RegExp): string[] | null {
  const start = lines.findIndex((l) => /^#{2,4}\s/.test(l) && title.test(normaliseHeader(l.replace(/^#+\s*/, ""))));
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

/**
 * A header (or any cell) as plain words: links and HTML reduced to their text, emphasis and code
 * marks dropped, odd spaces made spaces, `&` written `and`, lower case, single spaces.
 * `**Base Input Tokens**` → `base input tokens`; `Cache Hits & Refreshes` → `cache hits and refreshes`.
 */
export function normaliseHeader(text: string): string {
  return text
    .replace(ODD_SPACES, " ")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, " ")
    .replace(/[*_`]/g, "")
    .replace(/&amp;|&/g, " and ")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

/** One field of a column map: the header texts (normalised, {@link normaliseHeader}) that name it, and what it bills. */
export interface ColumnSpec<F extends string = string> {
  readonly field: F;
  /** Matched against the normalised header; anchor it (`^…$`) so one header names one field. */
  readonly header: RegExp;
  /** What the field bills (absent for a key column, the model's name). */
  readonly rule?: FieldRule;
}

/** A page kind's columns, tried in order: the first spec whose header matches (and whose field is not taken) claims the column. */
export type ColumnMap<F extends string = string> = readonly ColumnSpec<F>[];

/** Where each field's column is in one table, and the headers no field claimed. */
export interface MappedColumns<F extends string> {
  /** Field → column index, for the fields the table has. */
  readonly index: Partial<Record<F, number>>;
  /** Header texts (as written) of the columns the map does not know: counted as unmapped, never read. */
  readonly unmapped: readonly string[];
}

/**
 * Finds each field's column by its header (T405).
 * @param where the table's name, for the error
 * @throws SourcePayloadError when two columns name one field (`Input` twice): the page cannot be read
 *   without guessing which, so it is refused
 */
export function mapColumns<F extends string>(
  header: readonly string[],
  map: ColumnMap<F>,
  where: string,
): MappedColumns<F> {
  const index: Partial<Record<F, number>> = {};
  const unmapped: string[] = [];
  header.forEach((raw, i) => {
    const text = normaliseHeader(raw);
    if (text === "") return;
    const spec = map.find((s) => s.header.test(text));
    if (!spec) {
      unmapped.push(raw);
      return;
    }
    if (index[spec.field] !== undefined)
      throw new SourcePayloadError(
        `${where}: two columns name ${spec.field} ("${header[index[spec.field] as number]}", "${raw}")`,
      );
    index[spec.field] = i;
  });
  return { index, unmapped };
}

/** What one price cell states. */
export type PriceCell =
  | { readonly kind: "amount"; readonly amount: string }
  /** `""`, `-`, `—`, `–`, `n/a`: the dimension is not offered. */
  | { readonly kind: "none" }
  /** Anything else (a price in credits, "contact sales", two amounts, a date): not read as a price. */
  | { readonly kind: "other"; readonly text: string };

/** How a page writes "not offered". */
const NOT_OFFERED = /^(?:|-|—|–|n\/?a|not available|not offered)$/i;

/**
 * The sign a page writes before an amount, per currency it states: `$` (USD), `￥` or `¥` (CNY, a
 * Chinese page: Moonshot's, issue 48). Only the sign of the page's own currency is read.
 */
const CURRENCY_SIGNS = { USD: /\$/g, CNY: /[￥¥]/g } as const;

/** A currency a page table may state its prices in ({@link CURRENCY_SIGNS}). */
export type PageCurrency = keyof typeof CURRENCY_SIGNS;

/**
 * A price cell in the page's currency per the page's unit: `$3 / MTok`, `\$1.50 / MTok`, `$1,250 / MTok`,
 * `**$3** / MTok`, `￥4.00`, odd spaces allowed. The amount is returned as written (decimal string, no
 * separators). A JSX number is an amount as it stands, null not offered. A cell in another currency or unit (credits, per hour) or with more than one amount is
 * `other`, never read (issue 46 §1).
 * @param unit the unit text that must follow the amount (`/ MTok`)
 * @param currency the page's currency, whose sign must precede the amount (default USD, `$`)
 */
export function priceCell(cell: PageCell | undefined, unit: RegExp, currency: PageCurrency = "USD"): PriceCell {
  if (typeof cell === "number")
    return Number.isFinite(cell) && cell >= 0
      ? { kind: "amount", amount: String(cell) }
      : { kind: "other", text: String(cell) };
  const text = normaliseHeader(cell ?? "")
    .replace(/\\\$/g, "$")
    .replace(/(\d),(?=\d{3}\b)/g, "$1");
  if (NOT_OFFERED.test(text)) return { kind: "none" };
  const sign = CURRENCY_SIGNS[currency];
  const signs = Object.values(CURRENCY_SIGNS).reduce((n, s) => n + (text.match(s) ?? []).length, 0);
  if (signs !== 1 || (text.match(sign) ?? []).length !== 1) return { kind: "other", text };
  const m = new RegExp(`^${sign.source}\\s*(\\d+(?:\\.\\d+)?)\\s*(.*)$`).exec(text);
  if (!m || !unit.test((m[2] as string).trim())) return { kind: "other", text };
  return { kind: "amount", amount: m[1] as string };
}
