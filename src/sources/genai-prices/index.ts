import { scaleAmount } from "../../domain/amount.js";
import { dayInstant } from "../../domain/calendar-day.js";
import { dimension, dimensionKey } from "../../domain/dimension.js";
import { EMPTY_LISTING_META, type Listing, type PriceObservation } from "../../domain/observation.js";
import { canonicalSeller, isMaker } from "../../domain/sellers.js";
import { type FieldRule, UnmappedTally } from "../field-map.js";
import { sourceAdapter } from "../shared/adapter.js";
import { payloadSchema } from "../shared/payload-json.js";
import { type ParseReport, type SourcePayload, SourcePayloadError } from "../source.js";
import { filesNamed, type LiveUpstream } from "../upstream.js";
import { V1_PRICE_KEYS, V2_PRICE_KEYS, V2_SKIPPED_KEYS } from "./field-map.js";
import {
  type GenaiConditionalPrice,
  type GenaiMatch,
  GenaiModel,
  type GenaiModelPrice,
  GenaiPricesFile,
  GenaiPriceValue,
} from "./schema.js";

/** The file of a genai-prices payload (v1 and v2 feeds share the name). */
export const GENAI_PRICES_FILE = "data.json";

/** The live payload: the v2 feed on GitHub. */
const UPSTREAM: LiveUpstream = {
  baseUrl: "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/new_data/v2/",
  files: filesNamed(GENAI_PRICES_FILE),
};

/** Which genai-prices feed a payload is: the v1 `prices/data.json` or the v2 `prices/new_data/v2/data.json`. */
export type GenaiPricesFormat = "v1" | "v2";

type Qualifiers = Readonly<Record<string, string>>;

/**
 * Tells the v1 and v2 feeds apart by content (both are a JSON array of providers named `data.json`).
 * v1's `ModelPrice` is a closed key set ({@link V1_PRICE_KEYS}); v2 adds keys such as
 * `cache_write_1h_mtok` or `web_searches_kcount`. A payload using any price key outside the v1 set is
 * v2. A v2 payload that happens to use only v1 keys is reported as v1, which maps to the same listings.
 */
export function genaiPricesFormat(file: GenaiPricesFile): GenaiPricesFormat {
  for (const provider of file) {
    for (const model of provider.models) {
      for (const priceSet of rawPriceSets(model)) {
        for (const key of Object.keys(priceSet)) {
          if (!Object.hasOwn(V1_PRICE_KEYS, key)) return "v2";
        }
      }
    }
  }
  return "v1";
}

/** The price objects of a raw (unvalidated) model: its `prices` object or each `prices` of its conditional list. */
function rawPriceSets(model: unknown): Record<string, unknown>[] {
  if (!isRecord(model)) return [];
  const prices = model.prices;
  if (Array.isArray(prices)) {
    return prices.flatMap((entry) => (isRecord(entry) && isRecord(entry.prices) ? [entry.prices] : []));
  }
  return isRecord(prices) ? [prices] : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Ids of models genai-prices' `google` provider lists that Google makes (the rest are Vertex partner models). */
const GOOGLE_MODEL =
  /^(google\/|gemini|gemma|imagen|veo|text-embedding|textembedding|text-multilingual-embedding|multimodalembedding|learnlm|palm|chat-bison|codechat-bison|text-bison|code-bison|code-gecko|lyria|chirp|medlm)/i;

/** Seller and price qualifiers of one genai-prices provider id (model id decides `google` vs `google-vertex`). */
function sellerOf(providerId: string, modelId: string): { seller: string; qualifiers: Qualifiers } {
  const hf = /^huggingface_(.+)$/i.exec(providerId);
  if (hf?.[1]) return { seller: "huggingface", qualifiers: { backend: hf[1].toLowerCase() } };
  const seller = canonicalSeller(providerId);
  if (seller === "google" && !GOOGLE_MODEL.test(modelId)) return { seller: "google-vertex", qualifiers: {} };
  return { seller, qualifiers: {} };
}

/** Maker hint: the seller when it is a maker, else the maker named by a `vendor/` id prefix, else null. */
function makerHintOf(seller: string, modelId: string): string | null {
  if (isMaker(seller)) return seller;
  const slash = modelId.indexOf("/");
  if (slash <= 0) return null;
  const maker = canonicalSeller(modelId.slice(0, slash));
  return isMaker(maker) ? maker : null;
}

/** The `equals` strings of a match rule, recursively through `or` (an `and` narrows, it names no alias). */
function equalsOf(match: GenaiMatch, out: string[] = []): string[] {
  if (typeof match.equals === "string") out.push(match.equals);
  for (const clause of match.or ?? []) equalsOf(clause, out);
  return out;
}

/**
 * Daily UTC window slug of a time constraint: `00:30:00Z`–`16:30:00Z` → `0030-1630-utc`. Times with
 * an offset are converted to UTC; null when a time does not parse.
 */
export function timeWindowSlug(start: string, end: string): string | null {
  const a = utcMinutes(start);
  const b = utcMinutes(end);
  if (a === null || b === null) return null;
  return `${hhmm(a)}-${hhmm(b)}-utc`;
}

function utcMinutes(time: string): number | null {
  const m = /^(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i.exec(time.trim());
  if (!m) return null;
  const hours = Number(m[1]);
  const minutes = Number(m[2]);
  if (hours > 23 || minutes > 59) return null;
  let offset = 0;
  const zone = m[3];
  if (zone && zone.toUpperCase() !== "Z") {
    const digits = zone.replace(":", "");
    const sign = digits.startsWith("-") ? -1 : 1;
    offset = sign * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)));
  }
  return (((hours * 60 + minutes - offset) % 1440) + 1440) % 1440;
}

function hhmm(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}${String(minutes % 60).padStart(2, "0")}`;
}

/**
 * Observations of one price set. Each key maps through `keys`; a tiered value `{base, tiers}` gives
 * the base at [0, open) and each tier at [start, next start | open). Keys whose dimension an earlier
 * key already filled are dropped; negative, non-numeric and absent values are skipped.
 */
function observationsOf(
  priceSet: GenaiModelPrice,
  keys: Readonly<Record<string, FieldRule>>,
  qualifiers: Qualifiers,
  taken: Set<string>,
  unmapped: UnmappedTally,
): PriceObservation[] {
  const out: PriceObservation[] = [];
  for (const key of Object.keys(priceSet))
    if (!Object.hasOwn(keys, key) && !Object.hasOwn(V2_SKIPPED_KEYS, key)) unmapped.add(key);
  for (const [key, spec] of Object.entries(keys)) {
    const raw = priceSet[key];
    if (raw === undefined || raw === null) continue;
    const parsed = GenaiPriceValue.safeParse(raw);
    if (!parsed.success) continue;
    const value = parsed.data;
    const brackets: { amount: number; contextMin: number; contextMax: number | null }[] = [];
    if (typeof value === "number") {
      brackets.push({ amount: value, contextMin: 0, contextMax: null });
    } else {
      brackets.push({ amount: value.base, contextMin: 0, contextMax: null });
      const tiers = [...value.tiers].sort((a, b) => a.start - b.start);
      tiers.forEach((tier, i) => {
        if (tier.start <= 0) return;
        brackets.push({ amount: tier.price, contextMin: tier.start, contextMax: tiers[i + 1]?.start ?? null });
      });
    }
    const base = dimension(spec.direction, {
      modality: spec.modality,
      cache: spec.cache,
      qualifiers: { ...spec.qualifiers, ...qualifiers },
    });
    if (taken.has(dimensionKey(base))) continue;
    for (const b of brackets) {
      if (!Number.isFinite(b.amount) || b.amount < 0) continue;
      const dim = { ...base, contextMin: b.contextMin, contextMax: b.contextMax };
      const k = dimensionKey(dim);
      if (taken.has(k)) continue;
      taken.add(k);
      out.push({
        dimension: dim,
        amount: scaleAmount(b.amount, spec.factor),
        unit: spec.unit,
        denomination: "currency",
        currency: "USD",
      });
    }
  }
  return out;
}

/**
 * Observations of a model's `prices`. A plain object is the price. A conditional list is resolved
 * for `date` (YYYY-MM-DD): among the unconstrained and `start_date` entries, the one with the latest
 * `start_date` not after `date` applies (the unconstrained entry counts as the earliest; when none
 * applies, the first entry, as upstream does).
 *
 * Daily time windows (T71): upstream's last matching entry wins, so each window entry holds its
 * window and the entry in force holds the rest of the day. The part a caller pays with no
 * condition met is the dearest one — DeepSeek's 00:30–16:30 UTC window holds the standard price,
 * its unconstrained entry the off-peak discount — so that part gives the plain dimensions and every
 * other part carries `time_window: <HHMM-HHMM>-utc-off-peak` (its own hours, UTC). A discount is
 * never the standard price.
 */
function pricesOf(
  prices: GenaiModel["prices"],
  date: string,
  keys: Readonly<Record<string, FieldRule>>,
  qualifiers: Qualifiers,
  unmapped: UnmappedTally,
  refused: { invalidDates: number },
): PriceObservation[] {
  const taken = new Set<string>();
  if (!Array.isArray(prices)) return observationsOf(prices, keys, qualifiers, taken, unmapped);
  const entries: GenaiConditionalPrice[] = prices;
  const dated: Dated<GenaiConditionalPrice>[] = [];
  const windows: { minutes: readonly [number, number]; entry: GenaiConditionalPrice }[] = [];
  for (const entry of entries) {
    const c = entry.constraint;
    if (!c) dated.push({ since: "", at: Number.NEGATIVE_INFINITY, entry });
    else if ("start_date" in c && typeof c.start_date === "string") {
      const since = c.start_date.slice(0, 10);
      const at = dayInstant(since);
      // T420: a start_date that is no real calendar day (2027-13-45) is a refused record, never in force.
      if (at === null) refused.invalidDates += 1;
      else dated.push({ since, at, entry });
    } else if ("start_time" in c && typeof c.start_time === "string" && typeof c.end_time === "string") {
      const a = utcMinutes(c.start_time);
      const b = utcMinutes(c.end_time);
      if (a !== null && b !== null && a !== b) windows.push({ minutes: [a, b], entry });
    }
  }
  const current = inForce(dated, date);
  const parts: { intervals: (readonly [number, number])[]; prices: GenaiModelPrice }[] = windows.map((w) => ({
    intervals: [w.minutes],
    prices: w.entry.prices,
  }));
  if (current) {
    const rest = complement(windows.map((w) => w.minutes));
    if (rest.length > 0 || parts.length === 0) parts.push({ intervals: rest, prices: current.entry.prices });
  }
  if (parts.length === 0) return [];
  const next = current ? nextDated(dated, date) : undefined;
  if (parts.length === 1)
    return announced(observationsOf(parts[0]!.prices, keys, qualifiers, taken, unmapped), next, keys, qualifiers);
  const standard = parts.reduce((best, p) => (headline(p.prices) > headline(best.prices) ? p : best));
  const out = observationsOf(standard.prices, keys, qualifiers, taken, unmapped);
  for (const part of parts) {
    if (part === standard || headline(part.prices) >= headline(standard.prices)) continue;
    const slug = `${part.intervals.map(([a, b]) => `${hhmm(a)}-${hhmm(b)}`).join("_")}-utc-off-peak`;
    out.push(...observationsOf(part.prices, keys, { ...qualifiers, time_window: slug }, taken, unmapped));
  }
  return announced(out, next, keys, qualifiers);
}

/** A dated entry: its start day (`""` for the unconstrained entry) and that day's instant (-∞ for none). */
interface Dated<E> {
  readonly since: string;
  readonly at: number;
  readonly entry: E;
}

/** The instant of the payload's day (T420: days are compared as instants). */
function instantOfDay(date: string): number {
  return dayInstant(date) ?? Number.NaN;
}

/** The dated entry that takes over after `date`: the earliest `start_date` after it (T335, T420). */
function nextDated<T extends { at: number }>(dated: readonly T[], date: string): T | undefined {
  const day = instantOfDay(date);
  let next: T | undefined;
  for (const d of dated) if (d.at > day && (!next || d.at < next.at)) next = d;
  return next;
}

/**
 * Marks the prices that a later `start_date` entry ends (issue 37 §4, T335): each observation whose
 * dimension the next entry prices at another amount, or does not price at all (a bracket that the
 * next entry drops), carries `validity: {until: start_date, next}`. A dimension the next entry
 * prices alike has no end. Time-window prices are left alone (their windows are not dated).
 */
function announced(
  out: PriceObservation[],
  next: Dated<GenaiConditionalPrice> | undefined,
  keys: Readonly<Record<string, FieldRule>>,
  qualifiers: Qualifiers,
): PriceObservation[] {
  if (!next || !/^\d{4}-\d{2}-\d{2}$/.test(next.since)) return out;
  const after = new Map(
    observationsOf(next.entry.prices, keys, qualifiers, new Set(), new UnmappedTally()).map((o) => [
      `${dimensionKey(o.dimension)}|${o.unit}`,
      o.amount,
    ]),
  );
  return out.map((o) => {
    if (o.dimension.qualifiers.time_window !== undefined) return o;
    const amount = after.get(`${dimensionKey(o.dimension)}|${o.unit}`) ?? null;
    return amount === o.amount ? o : { ...o, validity: { until: next.since, next: amount } };
  });
}

/** The dated entry in force on `date` (the latest `start_date` not after it), else the first entry. */
function inForce<T extends { at: number }>(dated: readonly T[], date: string): T | undefined {
  const day = instantOfDay(date);
  let current: T | undefined;
  for (const d of dated) {
    if (d.at <= day && (!current || d.at >= current.at)) current = d;
  }
  return current ?? dated[0];
}

/**
 * The date the prices in force on `date` took effect, when the source states one: the `start_date`
 * of the dated entry in force (OpenAI's o3 at 2 / 8 from 2025-06-10). Its own dating of a market
 * move, evidence of how fresh the amounts are (T170); null for an undated price.
 */
export function effectiveSince(prices: GenaiModel["prices"], date: string): string | null {
  if (!Array.isArray(prices)) return null;
  const dated = (prices as GenaiConditionalPrice[]).flatMap((entry) => {
    const c = entry.constraint;
    if (!c) return [{ since: "", at: Number.NEGATIVE_INFINITY }];
    if (!("start_date" in c) || typeof c.start_date !== "string") return [];
    const since = c.start_date.slice(0, 10);
    const at = dayInstant(since);
    return at === null ? [] : [{ since, at }]; // T420: no real day, never in force
  });
  const since = inForce(dated, date)?.since ?? "";
  return /^\d{4}-\d{2}-\d{2}$/.test(since) ? since : null;
}

/** The amount that ranks a price set among time windows: its input, else its output (USD per 1M tokens). */
function headline(prices: GenaiModelPrice): number {
  for (const key of ["input_mtok", "input_text_mtok", "output_mtok", "output_text_mtok"]) {
    const parsed = GenaiPriceValue.safeParse(prices[key]);
    if (parsed.success) return typeof parsed.data === "number" ? parsed.data : parsed.data.base;
  }
  return 0;
}

/** The minutes of the day (UTC) no window covers, as [start, end) intervals that may wrap midnight. */
function complement(windows: readonly (readonly [number, number])[]): [number, number][] {
  const covered = new Array<boolean>(1440).fill(false);
  for (const [a, b] of windows) for (let m = a; m !== b; m = (m + 1) % 1440) covered[m] = true;
  const start = covered.indexOf(true);
  if (start < 0) return [[0, 0]];
  const out: [number, number][] = [];
  let open: number | null = null;
  for (let k = 0; k < 1440; k++) {
    const m = (start + k) % 1440;
    if (!covered[m] && open === null) open = m;
    if (covered[m] && open !== null) {
      out.push([open, m]);
      open = null;
    }
  }
  if (open !== null) out.push([open, start]);
  return out;
}

/** Merges listings of one seller and model (e.g. one Hugging Face model served by several backends). */
function mergeListings(listings: Listing[]): Listing[] {
  const byKey = new Map<string, Listing>();
  for (const l of listings) {
    const key = `${l.seller}\u0000${l.model}`;
    const prev = byKey.get(key);
    if (!prev) {
      byKey.set(key, l);
      continue;
    }
    const seen = new Set(prev.prices.map((p) => dimensionKey(p.dimension)));
    const aliases = [...new Set([...(prev.aliases ?? []), ...(l.aliases ?? [])])];
    byKey.set(key, {
      ...prev,
      name: prev.name ?? l.name,
      contextWindow: prev.contextWindow ?? l.contextWindow,
      status: prev.status ?? l.status,
      ...(aliases.length > 0 ? { aliases } : {}),
      prices: [...prev.prices, ...l.prices.filter((p) => !seen.has(dimensionKey(p.dimension)))],
    });
  }
  return [...byKey.values()];
}

/**
 * Parses one genai-prices payload (v1 or v2 `data.json`) into listings, one per seller and model.
 * Prices are resolved for the payload's `observedAt` date (dated price lists). A model that does not
 * validate, and a model without any usable price, is skipped.
 * @throws SourcePayloadError when `data.json` is missing, not JSON, or not an array of providers
 */
function parseReport(payload: SourcePayload): ParseReport {
  const providers = payloadSchema(
    "genai-prices",
    payload,
    GENAI_PRICES_FILE,
    GenaiPricesFile,
    "an array of providers {id, models[]}",
  );
  const date = payload.observedAt.slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) {
    throw new SourcePayloadError(`genai-prices: observedAt ${JSON.stringify(payload.observedAt)} is not an ISO date`);
  }
  const keys = genaiPricesFormat(providers) === "v2" ? V2_PRICE_KEYS : V1_PRICE_KEYS;
  const unmapped = new UnmappedTally();
  const refused = { invalidDates: 0 };
  const listings: Listing[] = [];
  for (const provider of providers) {
    for (const rawModel of provider.models) {
      const parsed = GenaiModel.safeParse(rawModel);
      if (!parsed.success) continue;
      const model = parsed.data;
      const { seller, qualifiers } = sellerOf(provider.id, model.id);
      const prices = pricesOf(model.prices, date, keys, qualifiers, unmapped, refused);
      if (prices.length === 0) continue;
      const aliases = [...new Set(equalsOf(model.match))].filter((a) => a !== model.id);
      const effective = effectiveSince(model.prices, date);
      listings.push({
        ...EMPTY_LISTING_META,
        seller,
        model: model.id,
        makerHint: makerHintOf(seller, model.id),
        ...(aliases.length > 0 ? { aliases } : {}),
        name: model.name ?? null,
        contextWindow: model.context_window ?? model.max_tokens ?? null,
        status: model.deprecated === true ? "deprecated" : null,
        ...(effective ? { pricesDated: { on: effective, kind: "effective" as const } } : {}),
        prices,
      });
    }
  }
  return {
    listings: mergeListings(listings),
    unmapped: unmapped.toRecord(),
    ...(refused.invalidDates > 0 ? { rejected: { invalid_date: refused.invalidDates } } : {}),
  };
}

/**
 * genai-prices by Pydantic (MIT): a curated list of providers and their model prices, in USD per 1M
 * tokens (`*_mtok`) and USD per 1,000 requests (`requests_kcount`). Reads the v1 feed (all recorded
 * snapshots) and the v2 feed. Decisions: D1 (ids kept as spelled), D2 (seller per provider), D7
 * (exact amounts), D27 (dimension vocabulary).
 */
export const genaiPricesSource = sourceAdapter(
  "genai-prices",
  {
    name: "genai-prices (Pydantic)",
    license: "MIT",
    homepage: "https://github.com/pydantic/genai-prices",
    weight: 0.8,
    authoritativeFor: [],
  },
  UPSTREAM,
  parseReport,
);
