import { scaleAmount } from "../../domain/amount.js";
import type { StatedValidity } from "../../domain/dated-price.js";
import type { PriceObservation } from "../../domain/observation.js";
import { type FieldRule, ruleDimension, type UnmappedTally } from "../field-map.js";
import { type DatedRow, type ResolvedRows, resolveDatedRows } from "./dated-rows.js";
import { cellLabel, type ModelNameGrammar, readModelCell } from "./model-cell.js";
import { type ColumnMap, mapColumns, type PageTable, priceCell } from "./page-table.js";

/**
 * A maker page's price table read into prices per model (issue 46 §1–§2, T405–T407): columns by
 * header ({@link mapColumns}), model cells by the maker's grammar ({@link readModelCell}), price
 * cells by {@link priceCell}, dated rows by {@link resolveDatedRows}. What is not read is reported on
 * the adapter's tally (`/sources` `unmappedByField`): a column the map does not know as
 * `<table>: <header>` once per row (T70), a row that names none of the maker's models as
 * `unmatched row: <table>: "<cell>" — <reason>`.
 */

/** A model's display name and status as the page writes it (first row naming it). */
export interface PageModel {
  readonly name: string;
  readonly deprecated: boolean;
}

/** One table's prices per model id, and the names the rows gave. */
export interface PagePrices<F extends string> extends ResolvedRows<F> {
  readonly names: Map<string, PageModel>;
  /** The fields whose column the table lacks. */
  readonly missing: readonly F[];
  /** Whether the table has a model column. */
  readonly modelColumn: boolean;
}

/** What a table read needs besides the table. */
export interface TableReading<F extends string> {
  /** The table's name in reports (`Model pricing`). */
  readonly table: string;
  readonly grammar: ModelNameGrammar;
  /** The unit text after each amount (`/ MTok`). */
  readonly unit: RegExp;
  /** Fields a row must price to be read (input, output); a row pricing one of them otherwise is unmatched. */
  readonly required: readonly F[];
  /** The page's day (YYYY-MM-DD), against which dated rows are read. */
  readonly today: string;
  readonly tally: UnmappedTally;
  /** The models of a table with no model column (named by the prose above it). */
  readonly proseModels?: readonly string[];
}

/** Counts an unmatched row on the tally (T406). */
export function countUnmatched(tally: UnmappedTally, table: string, label: string, reason: string): void {
  tally.add(`unmatched row: ${table}: "${label}" — ${reason}`);
}

/**
 * Reads a price table.
 * @throws SourcePayloadError when two columns name one field ({@link mapColumns})
 */
export function readPriceTable<F extends string>(
  table: PageTable,
  map: ColumnMap<F | "model">,
  reading: TableReading<F>,
): PagePrices<F> {
  const { index, unmapped } = mapColumns(table.header, map, reading.table);
  for (const h of unmapped) reading.tally.add(`${reading.table}: ${h}`, table.rows.length);
  const fields = map.map((s) => s.field).filter((f): f is F => f !== "model");
  const missing = [...new Set(fields)].filter((f) => index[f] === undefined);
  const names = new Map<string, PageModel>();
  const rows: DatedRow<F>[] = [];
  const modelAt = index.model;
  if (missing.some((f) => reading.required.includes(f)) || (modelAt === undefined && !reading.proseModels?.length))
    return { prices: new Map(), unmatched: [], names, missing, modelColumn: modelAt !== undefined };
  for (const cells of table.rows) {
    const cell = modelAt === undefined ? (reading.proseModels ?? []).join(" / ") : String(cells[modelAt] ?? "");
    const label = cellLabel(cell);
    const named = readModelCell(cell, reading.grammar);
    if (!named.ok) {
      countUnmatched(reading.tally, reading.table, label, named.reason);
      continue;
    }
    const amounts: Partial<Record<F, string>> = {};
    let refused: string | null = null;
    for (const f of fields) {
      const at = index[f];
      if (at === undefined) continue;
      const price = priceCell(cells[at], reading.unit);
      if (price.kind === "amount") amounts[f] = price.amount;
      else if (!reading.required.includes(f)) {
        if (price.kind === "other") reading.tally.add(`${reading.table}: ${f} cell "${price.text.slice(0, 60)}"`);
      } else
        refused ??=
          price.kind === "other"
            ? `its ${f} cell is no price in the page's unit ("${price.text.slice(0, 60)}")`
            : `its ${f} cell states no price`;
    }
    if (refused) {
      countUnmatched(reading.tally, reading.table, label, refused);
      continue;
    }
    for (const m of named.models) if (!names.has(m.id)) names.set(m.id, { name: m.name, deprecated: named.deprecated });
    rows.push({ ids: named.models.map((m) => m.id), dated: named.dated, amounts, label });
  }
  const resolved = resolveDatedRows(rows, reading.today);
  for (const u of resolved.unmatched) countUnmatched(reading.tally, reading.table, u.label, u.reason);
  return { ...resolved, names, missing, modelColumn: modelAt !== undefined };
}

/** One price observation of a field's rule, with its stated end when the page dates it. */
export function pageObservation(
  r: FieldRule,
  amount: string | number,
  validity?: StatedValidity,
  at: Parameters<typeof ruleDimension>[1] = {},
): PriceObservation {
  const scaled = scaleAmount(amount, r.factor);
  return {
    dimension: ruleDimension(r, at),
    amount: scaled,
    unit: r.unit,
    denomination: "currency",
    currency: "USD",
    ...(validity
      ? {
          validity: {
            until: validity.until,
            next: validity.next === null ? null : scaleAmount(validity.next, r.factor),
          },
        }
      : {}),
  };
}

/** The page's day: the payload's date (D9), YYYY-MM-DD. */
export function pageDayOf(observedAt: string): string {
  return observedAt.slice(0, 10);
}
