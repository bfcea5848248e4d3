import type { Kysely } from "kysely";
import type { ModelSpanTable, PriceSpanTable } from "./schema.js";

/**
 * Validity intervals of published prices and models (issue 17 §2, T146). A dataset version's
 * prices are the spans open at it (`valid_from` ≤ version < `valid_to`, or `valid_to` null); a
 * publish closes the spans whose row changed or left and opens spans for new or changed rows, so
 * a run that changes nothing writes no price or model row. Used by the publish and by migration
 * 0006 (which turns the per-version copies of older stores into spans), on SQLite and PostgreSQL.
 */

/** The tables a span write touches. */
export interface SpanTables {
  price_span: PriceSpanTable;
  model_span: ModelSpanTable;
}

/** A price row as a version publishes it, before it becomes a span. */
export type PriceSpanRow = Omit<PriceSpanTable, "valid_from" | "valid_to">;
/** A model row as a version publishes it, before it becomes a span. */
export type ModelSpanRow = Omit<ModelSpanTable, "valid_from" | "valid_to">;

/** Content columns compared to tell whether a published row is unchanged (every column but the interval). */
export const PRICE_COLUMNS = [
  "price_key",
  "model_id",
  "channel",
  "seller",
  "label",
  "direction",
  "modality",
  "tier",
  "cache",
  "context_min",
  "context_max",
  "qualifiers",
  "amount",
  "unit",
  "display_unit",
  "denomination",
  "currency",
  "confidence",
  "confidence_score",
  "sources",
  "dissenting",
  "disputed",
  "fallback_amount",
  "effective_from",
  "stale_since",
  "observations",
  "validity",
] as const satisfies readonly (keyof PriceSpanRow)[];

const MODEL_COLUMNS = [
  "id",
  "provider",
  "slug",
  "name",
  "family",
  "context_window",
  "max_output_tokens",
  "open_weights",
  "first_seen_at",
  "lifecycle_state",
  "released_on",
  "deprecated_on",
  "retires_on",
  "aliases",
  "former_ids",
  "listed",
] as const satisfies readonly (keyof ModelSpanRow)[];

/** Numeric columns: PostgreSQL returns bigint and double as strings or numbers; compared as numbers. */
const NUMERIC = new Set<string>([
  "context_min",
  "context_max",
  "amount",
  "confidence_score",
  "disputed",
  "fallback_amount",
  "context_window",
  "max_output_tokens",
  "open_weights",
  "listed",
]);

/** Rows per statement: under SQLite's 32,766 bound parameters (29 columns per price span). */
const CHUNK = 1000;

function fingerprint(row: Readonly<Record<string, unknown>>, columns: readonly string[]): string {
  return JSON.stringify(
    columns.map((c) => {
      const v = row[c];
      return v === null || v === undefined ? null : NUMERIC.has(c) ? Number(v) : v;
    }),
  );
}

/**
 * Writes version `version`'s prices and models as spans: unchanged rows keep their open span, a
 * changed or vanished row's span is closed at `version`, a new or changed row opens one.
 * Versions must be written in increasing order (D9: versions only grow).
 * @returns how many spans were opened and closed
 */
export async function writeSpans(
  db: Kysely<SpanTables>,
  version: string,
  prices: readonly PriceSpanRow[],
  models: readonly ModelSpanRow[],
): Promise<{ opened: number; closed: number }> {
  const p = await writeTable(db, "price_span", "price_key", PRICE_COLUMNS, version, prices);
  const m = await writeTable(db, "model_span", "id", MODEL_COLUMNS, version, models);
  return { opened: p.opened + m.opened, closed: p.closed + m.closed };
}

/** Either span table, seen through what {@link writeTable} reads and writes of it. */
type AnySpanTable = { valid_from: string; valid_to: string | null } & Record<string, unknown>;

/** Writes version `version` of one span table, rows identified by column `key`. */
async function writeTable<R extends Readonly<Record<string, unknown>>>(
  spans: Kysely<SpanTables>,
  table: keyof SpanTables,
  key: "price_key" | "id",
  columns: readonly string[],
  version: string,
  rows: readonly R[],
): Promise<{ opened: number; closed: number }> {
  // One code path for both tables: Kysely cannot type a query over a table chosen at run time.
  const db = spans as unknown as Kysely<Record<string, AnySpanTable>>;
  const open = await db.selectFrom(table).selectAll().where("valid_to", "is", null).execute();
  const d = diff(open, rows, (r) => String(r[key]), columns);
  for (const keys of chunks(d.close))
    await db
      .updateTable(table)
      .set({ valid_to: version })
      .where("valid_to", "is", null)
      .where(key, "in", keys)
      .execute();
  for (const chunk of chunks(d.open))
    await db
      .insertInto(table)
      .values(chunk.map((r) => ({ ...r, valid_from: version, valid_to: null })))
      .execute();
  return { opened: d.open.length, closed: d.close.length };
}

function diff<R extends Readonly<Record<string, unknown>>>(
  open: readonly Readonly<Record<string, unknown>>[],
  now: readonly R[],
  key: (row: R) => string,
  columns: readonly string[],
): { close: string[]; open: R[] } {
  const before = new Map<string, string>();
  for (const row of open) before.set(key(row as R), fingerprint(row, columns));
  const close: string[] = [];
  const opened: R[] = [];
  const seen = new Set<string>();
  for (const row of now) {
    const k = key(row);
    seen.add(k);
    const was = before.get(k);
    if (was === fingerprint(row, columns)) continue;
    if (was !== undefined) close.push(k);
    opened.push(row);
  }
  for (const k of before.keys()) if (!seen.has(k)) close.push(k);
  return { close, open: opened };
}

function* chunks<T>(items: readonly T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += CHUNK) yield items.slice(i, i + CHUNK);
}
