import type { PriceObservation } from "../../domain/observation.js";
import type { UnmappedTally } from "../field-map.js";
import { cellLabel, readModelCell } from "../shared/model-cell.js";
import { pagePrice } from "../shared/page-listing.js";
import { countUnmatched } from "../shared/page-rows.js";
import { type MarkdownTable, mapColumns, normaliseHeader, priceCell } from "../shared/page-table.js";
import {
  BILLING_UNIT,
  BRACKET,
  COLUMNS,
  CURRENCY,
  type Field,
  PRICE_FIELDS,
  PRICE_RULES,
  REQUIRED,
} from "./field-map.js";
import { MOONSHOT_MODEL_NAMES } from "./model-names.js";

/**
 * Moonshot's price tables read into prices per model id (issue 48, T509). Pure. Each table by its
 * header ({@link COLUMNS}); each row either prices the model its cell names (by
 * {@link MOONSHOT_MODEL_NAMES}), in CNY per 1M tokens and at the request-size bracket its row states,
 * or is an unmatched row with its reason (`unmatched row: <table>: "<cell>" — <why>`, `/sources`
 * `unmatchedPageRows`, T468). The converter flattened the kimi-latest table's merged model cell
 * (an HTML rowspan): a row one cell short of the header continues the model of the row above.
 */

/** One model's prices on the page, in page order. */
export type PagePrices = Map<string, PriceObservation[]>;

/** A table's name in reports: its place on the page and the first model cell it holds (`table 2 (kimi-latest)`). */
function tableName(table: MarkdownTable, n: number, modelAt: number | undefined): string {
  const first = modelAt === undefined ? "" : cellLabel(String(table.rows[0]?.[modelAt] ?? ""));
  return first === "" ? `table ${n}` : `table ${n} (${first})`;
}

/** A request-size bracket cell → [contextMin, contextMax], or null when it is not read. */
export function readBracket(cell: string): [number, number] | null {
  const m = BRACKET.exec(cell.replace(/[\u00a0\u2007\u2009\u202f]/g, " ").trim());
  if (!m) return null;
  const n = (s: string | undefined) => (s === undefined ? 0 : Number(s.replace(/,/g, "")));
  const [min, max] = [n(m[1]), n(m[2])];
  return max > min ? [min, max] : null;
}

/**
 * Reads every table of the page into `out` (model id → prices), counting what is not read on `tally`.
 * A table without a model, billing-unit, input or output column prices nothing: each of its rows is unmatched.
 */
export function readPriceTables(tables: readonly MarkdownTable[], out: PagePrices, tally: UnmappedTally): void {
  tables.forEach((table, i) => {
    const { index, unmapped } = mapColumns(table.header, COLUMNS, `table ${i + 1}`);
    const name = tableName(table, i + 1, index.model);
    const lacking = (["model", "unit", ...REQUIRED] as const).filter((f) => index[f] === undefined);
    if (lacking.length > 0) {
      for (const row of table.rows)
        countUnmatched(tally, name, cellLabel(String(row[0] ?? "")), `the table has no ${lacking.join(" / ")} column`);
      return;
    }
    for (const h of unmapped) tally.add(`${name}: ${h}`, table.rows.length);
    let above: string | null = null;
    const seen = new Set<string>();
    for (const raw of table.rows) {
      // A rowspan flattened by the converter: the row lacks the model cell, which is the row above's.
      const cells: readonly string[] =
        raw.length === table.header.length - 1 && index.model === 0 && above !== null ? [above, ...raw] : raw;
      above = String(cells[index.model as number] ?? "");
      const why = readRow(cells, table.header.length, index, out, seen);
      if (why !== null) countUnmatched(tally, name, cellLabel(above), why);
      else for (const f of optionalOthers(cells, index)) tally.add(`${name}: ${f}`);
    }
  });
}

/** The optional price cells of a read row that state something other than a price (counted, not read). */
function optionalOthers(cells: readonly string[], index: Partial<Record<Field, number>>): string[] {
  return PRICE_FIELDS.filter((f) => !REQUIRED.includes(f) && index[f] !== undefined).flatMap((f) => {
    const price = priceCell(cells[index[f] as number], /^$/, CURRENCY);
    return price.kind === "other" ? [`${f} cell "${price.text.slice(0, 60)}"`] : [];
  });
}

/**
 * Reads one row into `out`.
 * @returns why the row prices nothing (an unmatched row), or null when it was read
 */
function readRow(
  cells: readonly string[],
  width: number,
  index: Partial<Record<Field, number>>,
  out: PagePrices,
  seen: Set<string>,
): string | null {
  if (cells.length !== width) return `${cells.length} cells where the header has ${width}`;
  const named = readModelCell(String(cells[index.model as number] ?? ""), MOONSHOT_MODEL_NAMES);
  if (!named.ok) return named.reason;
  const unit = normaliseHeader(String(cells[index.unit as number] ?? ""));
  if (!BILLING_UNIT.test(unit)) return `its billing unit "${unit}" is not 1M tokens`;
  const bracket: readonly [number, number | null] | null =
    index.bracket === undefined ? [0, null] : readBracket(String(cells[index.bracket] ?? ""));
  if (bracket === null) return `its request-size bracket "${cells[index.bracket as number]}" is not read`;
  const prices: PriceObservation[] = [];
  for (const f of PRICE_FIELDS) {
    const at = index[f];
    if (at === undefined) continue;
    const price = priceCell(cells[at], /^$/, CURRENCY);
    if (price.kind === "amount") {
      const at = { contextMin: bracket[0], contextMax: bracket[1] };
      prices.push(pagePrice(PRICE_RULES[f], price.amount, at, CURRENCY));
    } else if (REQUIRED.includes(f))
      return price.kind === "none"
        ? `its ${f} cell states no price`
        : `its ${f} cell is no CNY price per 1M tokens ("${price.text.slice(0, 60)}")`;
  }
  for (const m of named.models) {
    const key = `${m.id}|${bracket.join("-")}`;
    if (seen.has(key)) return `a second row for ${m.id}${index.bracket === undefined ? "" : " in that bracket"}`;
    seen.add(key);
  }
  for (const m of named.models) out.set(m.id, [...(out.get(m.id) ?? []), ...prices]);
  return null;
}
