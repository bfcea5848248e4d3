import { scaleAmount } from "../../domain/amount.js";
import { dayInstant, isCalendarDay } from "../../domain/calendar-day.js";
import type { DatedPrice } from "../../domain/dated-price.js";
import { dimensionKey } from "../../domain/dimension.js";
import { EMPTY_LISTING_META, type Listing, type PriceObservation } from "../../domain/observation.js";
import { canonicalSeller, isMaker } from "../../domain/sellers.js";
import { ruleDimension, UnmappedTally } from "../field-map.js";
import { sourceAdapter } from "../shared/adapter.js";
import { payloadSchema } from "../shared/payload-json.js";
import type { ParseReport, SourcePayload } from "../source.js";
import { filesNamed, type LiveUpstream } from "../upstream.js";
import { ROW_METADATA, ROW_RULES } from "./field-map.js";
import { LlmPricesCurrentFile, LlmPricesHistoricalFile, LlmPricesHistoricalRow, LlmPricesRow } from "./schema.js";

/** File with the current prices (parsed into listings). */
export const LLM_PRICES_CURRENT_FILE = "current-v1.json";
/** File with dated prices (parsed by {@link parseLlmPricesHistory}). */
export const LLM_PRICES_HISTORICAL_FILE = "historical-v1.json";

/** The live payload: both files on llm-prices.com. */
const UPSTREAM: LiveUpstream = {
  baseUrl: "https://www.llm-prices.com/",
  files: filesNamed(LLM_PRICES_CURRENT_FILE, LLM_PRICES_HISTORICAL_FILE),
};

/**
 * One dated price of llm-prices' `historical-v1.json`, normalized like a listing's price.
 * `fromDate` inclusive, `toDate` exclusive (YYYY-MM-DD); null = open on that side (`fromDate` null:
 * in force since before the source's records).
 */
export interface LlmPricesHistoryRow extends DatedPrice {
  /** llm-prices' display name of the model, if any. */
  readonly name: string | null;
}

/**
 * A row's model id and context bracket. llm-prices lists the price above a prompt-length threshold
 * as its own row: id `<base>-<N>k`, name `… >Nk` (e.g. `gemini-2.5-pro-200k`, "Gemini 2.5 Pro >200k").
 * Such a row is the base model's bracket `contextMin = N × 1000`; other rows are `contextMin = 0`.
 * The 2025-11-01 feed spells one such id with a doubled hyphen (`gemini-2.5-pro--200k`), hence `-+`.
 */
function bracketOf(row: LlmPricesRow): { model: string; contextMin: number } {
  const idMatch = /^(.+?)-+(\d+)k$/i.exec(row.id);
  const nameMatch = /[>＞]\s*(\d+)\s*k\b/i.exec(row.name ?? "");
  if (idMatch?.[1] && idMatch[2] && nameMatch?.[1] === idMatch[2]) {
    return { model: idMatch[1], contextMin: Number(idMatch[2]) * 1000 };
  }
  return { model: row.id, contextMin: 0 };
}

/** The model name without its context-bracket marker ("Gemini 2.5 Pro ≤200k" → "Gemini 2.5 Pro"). */
function cleanName(name: string | null | undefined): string | null {
  if (!name) return null;
  const cleaned = name.replace(/\s*(?:≤|<=|<|>=|>|＞)\s*\d+\s*k\s*$/i, "").trim();
  return cleaned.length > 0 ? cleaned : null;
}

/**
 * Prices of one row by the field map (input, output, cached input in USD per 1M tokens); null /
 * negative skipped; keys the map does not know are counted in `unmapped` when given.
 */
function pricesOf(row: LlmPricesRow, contextMin: number, unmapped?: UnmappedTally): PriceObservation[] {
  const out: PriceObservation[] = [];
  const record = row as Record<string, unknown>;
  if (unmapped)
    for (const key of Object.keys(record))
      if (!Object.hasOwn(ROW_RULES, key) && !ROW_METADATA.has(key)) unmapped.add(key);
  for (const [key, r] of Object.entries(ROW_RULES)) {
    const raw = record[key];
    if (typeof raw !== "number" || !Number.isFinite(raw) || raw < 0) continue;
    out.push({
      dimension: ruleDimension(r, { contextMin }),
      amount: scaleAmount(raw, r.factor),
      unit: r.unit,
      denomination: "currency",
      currency: "USD",
    });
  }
  return out;
}

function sellerOf(row: LlmPricesRow): { seller: string; makerHint: string | null } {
  const seller = canonicalSeller(row.vendor);
  return { seller, makerHint: isMaker(seller) ? seller : null };
}

/**
 * Parses `current-v1.json` into listings, one per seller and model; `<id>-<N>k` rows become the
 * `contextMin = N000` bracket of `<id>`. A row that does not validate is skipped; a repeated
 * dimension keeps its first amount.
 * @throws SourcePayloadError when `current-v1.json` is missing, not JSON or not `{prices: [...]}`
 */
function parseReport(payload: SourcePayload): ParseReport {
  const file = payloadSchema(
    "llm-prices",
    payload,
    LLM_PRICES_CURRENT_FILE,
    LlmPricesCurrentFile,
    "an object {updated_at, prices: []}",
  );
  const unmapped = new UnmappedTally();
  const byKey = new Map<string, { listing: Listing; seen: Set<string> }>();
  for (const raw of file.prices) {
    const parsed = LlmPricesRow.safeParse(raw);
    if (!parsed.success) continue;
    const row = parsed.data;
    const { seller, makerHint } = sellerOf(row);
    const { model, contextMin } = bracketOf(row);
    const prices = pricesOf(row, contextMin, unmapped);
    if (prices.length === 0) continue;
    const key = `${seller}\u0000${model}`;
    let entry = byKey.get(key);
    if (!entry) {
      entry = {
        listing: { ...EMPTY_LISTING_META, seller, model, makerHint, name: cleanName(row.name), prices: [] },
        seen: new Set(),
      };
      byKey.set(key, entry);
    }
    const added = prices.filter((p) => !entry.seen.has(dimensionKey(p.dimension)));
    for (const p of added) entry.seen.add(dimensionKey(p.dimension));
    entry.listing = {
      ...entry.listing,
      name: contextMin === 0 ? (entry.listing.name ?? cleanName(row.name)) : entry.listing.name,
      prices: [...entry.listing.prices, ...added],
    };
  }
  const listings = [...byKey.values()].map((e) => e.listing);
  const { rows: history, invalidDates } = payload.files.has(LLM_PRICES_HISTORICAL_FILE)
    ? datedRows(payload)
    : { rows: [], invalidDates: 0 };
  return {
    listings: withStatedEnds(listings, history, payload.observedAt.slice(0, 10)),
    unmapped: unmapped.toRecord(),
    // T420: a dated row whose from_date or to_date is no real calendar day is refused, and counted.
    ...(invalidDates > 0 ? { rejected: { invalid_date: invalidDates } } : {}),
  };
}

/**
 * The prices of `day` where `historical-v1.json` dates them (issue 37 §4, T335; as genai-prices'
 * dated lists are read at the payload's date, T18): a dated row in force on `day` (`from_date` null
 * or ≤ `day`, `to_date` after it) of the same seller, model and dimension as a current price is
 * that day's price — its amount (the current file, read after the change, may already list the
 * successor) with `validity: {until: to_date, next}`, where `next` is the amount of the row of that
 * dimension starting on `to_date` (null: none). A row that ended on or before `day` changes nothing.
 * Every recorded copy (2025-11-01 … 2026-06-01) dates one move, DeepSeek Chat's on 2025-02-08, so
 * at their own dates nothing changes.
 */
export function withStatedEnds(listings: readonly Listing[], history: readonly DatedPrice[], day: string): Listing[] {
  const key = (seller: string, model: string, dim: string, unit: string) =>
    `${seller}\u0000${model}\u0000${dim}\u0000${unit}`;
  const ending = new Map<string, DatedPrice>();
  const starting = new Map<string, DatedPrice>();
  // T420: days compared as instants; a row with a day that is no calendar day dates nothing.
  const today = dayInstant(day) ?? Number.NaN;
  for (const r of history) {
    const k = key(r.seller, r.model, dimensionKey(r.dimension), r.unit);
    const from = r.fromDate === null ? Number.NEGATIVE_INFINITY : dayInstant(r.fromDate);
    const to = r.toDate === null ? null : dayInstant(r.toDate);
    if (from === null || (r.toDate !== null && to === null)) continue;
    if (to !== null && to > today && from <= today) ending.set(k, r);
    if (r.fromDate !== null) starting.set(`${k}\u0000${r.fromDate}`, r);
  }
  if (ending.size === 0) return [...listings];
  return listings.map((l) => ({
    ...l,
    prices: l.prices.map((p) => {
      const k = key(l.seller, l.model, dimensionKey(p.dimension), p.unit);
      const end = ending.get(k);
      if (!end?.toDate) return p;
      const next = starting.get(`${k}\u0000${end.toDate}`)?.amount ?? null;
      return { ...p, amount: end.amount, validity: { until: end.toDate, next } };
    }),
  }));
}

/**
 * Dated history rows of `historical-v1.json` (pure): one row per price dimension of every entry that
 * carries a `from_date` or a `to_date` (undated entries are the current prices, already in
 * `current-v1.json`). Amounts in USD per 1M tokens; brackets as in `parse`. A malformed entry is skipped.
 * Example: DeepSeek Chat input 0.14 until 2025-02-08 (`fromDate` null, `toDate` "2025-02-08"),
 * then 0.27 from 2025-02-08 (`toDate` null).
 * @throws SourcePayloadError when `historical-v1.json` is missing, not JSON or not `{prices: [...]}`
 */
export function parseLlmPricesHistory(payload: SourcePayload): LlmPricesHistoryRow[] {
  return datedRows(payload).rows;
}

/**
 * {@link parseLlmPricesHistory}'s rows, and how many dated rows it refused because a `from_date` or
 * `to_date` is no real calendar day ("2027-02-30", T420). Days are compared as instants.
 */
function datedRows(payload: SourcePayload): { rows: LlmPricesHistoryRow[]; invalidDates: number } {
  const file = payloadSchema(
    "llm-prices",
    payload,
    LLM_PRICES_HISTORICAL_FILE,
    LlmPricesHistoricalFile,
    "an object {prices: []}",
  );
  const rows: LlmPricesHistoryRow[] = [];
  let invalidDates = 0;
  for (const raw of file.prices) {
    const parsed = LlmPricesHistoricalRow.safeParse(raw);
    if (!parsed.success) continue;
    const row = parsed.data;
    const fromDate = row.from_date ?? null;
    const toDate = row.to_date ?? null;
    if (fromDate === null && toDate === null) continue;
    if ((fromDate !== null && !isCalendarDay(fromDate)) || (toDate !== null && !isCalendarDay(toDate))) {
      invalidDates += 1;
      continue;
    }
    if (fromDate !== null && toDate !== null && dayInstant(toDate)! <= dayInstant(fromDate)!) continue;
    const { seller } = sellerOf(row);
    const { model, contextMin } = bracketOf(row);
    const name = cleanName(row.name);
    for (const p of pricesOf(row, contextMin)) {
      rows.push({ seller, model, name, ...p, fromDate, toDate });
    }
  }
  return { rows, invalidDates };
}

/**
 * llm-prices by Simon Willison (no licence declared): the vendors' own list prices in USD per 1M
 * tokens (input, output, cached input). Decisions: D1 (ids kept as spelled), D2 (seller = vendor),
 * D7 (exact amounts), D27 (dimensions).
 */
export const llmPricesSource = sourceAdapter(
  "llm-prices",
  {
    name: "llm-prices (Simon Willison)",
    license: null,
    homepage: "https://www.llm-prices.com",
    weight: 0.6,
    authoritativeFor: [],
  },
  UPSTREAM,
  parseReport,
  { parseHistory: parseLlmPricesHistory },
);
