import type { Channel } from "../domain/channel.js";
import { type Confidence, confidenceRank } from "../domain/confidence.js";
import type { PublishedModel, PublishedPrice } from "../domain/dataset.js";
import type { Modality } from "../domain/dimension.js";
import { type ListedPrice, listedPrice } from "../domain/listed-price.js";
import { isMaker } from "../domain/sellers.js";
import { badRequest } from "./errors.js";
import type { PublishedState } from "./point-in-time.js";
import {
  alignsWithWords,
  matchesAll,
  matchRank,
  parseTextQuery,
  type SearchField,
  searchField,
  type TextQuery,
} from "./text-match.js";
import { modelsAt } from "./timeline.js";
import type { CatalogueView } from "./view.js";

/**
 * The shared filter and order of GET /models and GET /models/search (D10, D11, D16), the sorts and
 * filters added for the web catalogue (T203) and keyset cursors both ways (D12, T203). Pure over a view.
 */

/**
 * Orders of `/models` (T203): `id` is D10's (rank with `q`, then id); `input`/`output` by the listed
 * price (T202) ascending, `-input`/`-output` descending; `context`/`-context` by context window;
 * `recent` newest listed-price move first; `sellers` the models sold by the most sellers (channel and
 * seller pairs) first, the market's own measure of what people use. Models without the sort's value
 * come last; ties keep D10.
 */
export const MODEL_SORTS = [
  "id",
  "sellers",
  "input",
  "-input",
  "output",
  "-output",
  "context",
  "-context",
  "recent",
] as const;
export type ModelSort = (typeof MODEL_SORTS)[number];

export interface ModelFilter {
  readonly q: TextQuery | null;
  readonly providers: readonly string[];
  /** D16: the weakest direct price at this level or stronger. */
  readonly confidence: Confidence | null;
  /** T202: the listed price's confidence (the badge) is exactly this level. */
  readonly listedConfidence: Confidence | null;
  /** T203: sold in this channel (at least one price there); the listed price is then that channel's. */
  readonly channel: Channel | null;
  /** T203: at least one price (any channel) of this modality. */
  readonly modality: Modality | null;
  readonly openWeights: boolean | null;
  /** T203: context window of at least this many tokens. */
  readonly minContext: number | null;
  readonly sort: ModelSort;
}

/** A model as a list reads it: its record, every channel's prices, search fields. */
export interface ListedModel {
  readonly model: PublishedModel;
  /** Every channel's prices, dataset order. */
  readonly prices: readonly PublishedPrice[];
  readonly search: readonly SearchField[];
  readonly providerName: string;
}

/** A matching model with its sort key. */
export interface RankedModel {
  readonly entry: ListedModel;
  /** D10 rank with `q` (its integer part) and the order within it (T451); 0 without. */
  readonly rank: number;
  /** The listed price (T202) in the filter's channel, or null. */
  readonly listed: ListedPrice<PublishedPrice> | null;
  readonly key: SortKey;
}

/** A total order: [no value (1) or value (0), value, D10 rank, id]. */
type SortKey = readonly [number, number, number, string];

/** Options of {@link modelFilter} beyond D10's three (T202, T203). */
export interface ExtraFilters {
  readonly listedConfidence?: Confidence | undefined;
  readonly channel?: Channel | undefined;
  readonly modality?: Modality | undefined;
  readonly openWeights?: boolean | undefined;
  readonly minContext?: number | undefined;
  readonly sort?: ModelSort | undefined;
}

export function modelFilter(
  q: string | undefined,
  providers: readonly string[],
  confidence: Confidence | undefined,
  extra: ExtraFilters = {},
): ModelFilter {
  return {
    q: parseTextQuery(q),
    providers: [...new Set(providers)].sort(),
    confidence: confidence ?? null,
    listedConfidence: extra.listedConfidence ?? null,
    channel: extra.channel ?? null,
    modality: extra.modality ?? null,
    openWeights: extra.openWeights ?? null,
    minContext: extra.minContext ?? null,
    sort: extra.sort ?? "id",
  };
}

const currentModels = new WeakMap<CatalogueView, ListedModel[]>();

/** The listed models of the served version (built once per view). */
export function modelsOf(view: CatalogueView): readonly ListedModel[] {
  let list = currentModels.get(view);
  if (!list) {
    list = view.models.map((e) => ({
      model: e.model,
      prices: view.pricesByModel.get(e.model.id) ?? [],
      search: e.search,
      providerName: e.providerName,
    }));
    currentModels.set(view, list);
  }
  return list;
}

/** The listed models as dataset version `version` published them (`at`, T147, T203). */
export function modelsOfVersion(view: CatalogueView, state: PublishedState): ListedModel[] {
  const { version, timeline } = state;
  if (version === null || timeline === null) return [];
  const names = new Map(view.providers.map((p) => [p.slug, p.name]));
  return modelsAt(timeline, version)
    .filter((m) => m.listed)
    .map((model) => ({
      model,
      prices: state.prices(model.id),
      search: [searchField(model.slug), searchField(model.name)],
      providerName: names.get(model.provider) ?? model.provider,
    }));
}

/** Every matching model in the filter's order (D10 without a sort). */
export function matchModels(
  view: CatalogueView,
  filter: ModelFilter,
  models: readonly ListedModel[] = modelsOf(view),
): RankedModel[] {
  const providers = filter.providers.length > 0 ? new Set(filter.providers) : null;
  const minRank = filter.confidence ? confidenceRank(filter.confidence) : null;
  const out: RankedModel[] = [];
  for (const entry of models) {
    const m = entry.model;
    if (providers && !providers.has(m.provider)) continue;
    if (minRank !== null && weakestDirectRank(entry.prices) < minRank) continue;
    if (filter.openWeights !== null && m.openWeights !== filter.openWeights) continue;
    if (filter.minContext !== null && (m.contextWindow ?? 0) < filter.minContext) continue;
    if (filter.channel !== null && !entry.prices.some((p) => p.channel === filter.channel)) continue;
    if (filter.modality !== null && !entry.prices.some((p) => p.modality === filter.modality)) continue;
    let rank = 0;
    if (filter.q) {
      if (!matchesAll(filter.q, entry.search)) continue;
      rank = matchRank(filter.q, entry.search) + tieBreak(filter.q, entry);
    }
    const needsListed = filter.listedConfidence !== null || filter.sort !== "id";
    const listed =
      needsListed || filter.channel !== null ? listedPrice(entry.prices, filter.channel ?? undefined) : null;
    if (filter.listedConfidence !== null && listed?.confidence !== filter.listedConfidence) continue;
    out.push({ entry, rank, listed, key: sortKey(filter.sort, entry, listed, rank) });
  }
  out.sort((a, b) => compareKeys(a.key, b.key));
  return out;
}

const DAY = 86_400_000;
/** Days a release date counts back over in {@link tieBreak}: 2000-01-01 → 2099. */
const RELEASE_SPAN_DAYS = 36_525;
const RELEASE_EPOCH = Date.parse("2000-01-01T00:00:00Z");

/**
 * The order within one D10 rank (issue 50 §2, T451; amends D10's "then id"): the query's tokens
 * starting at words first ({@link alignsWithWords}), then a maker's own model (a provider that is a
 * maker, D1) before a reseller's listing or a fine-tune, then models still served before retired ones
 * (a deprecated model is still sold), then the newest release first, then id. A fraction in [0, 1) added to the D10 rank,
 * so D10's four ranks keep their order and a cursor's key stays a number.
 */
function tieBreak(query: TextQuery, entry: ListedModel): number {
  const m = entry.model;
  const aligned = alignsWithWords(query, entry.search) ? 0 : 0.5;
  const maker = isMaker(m.provider) ? 0 : 0.25;
  const current = m.lifecycle.state === "retired" ? 0.125 : 0;
  const released = m.lifecycle.releasedOn ? Date.parse(m.lifecycle.releasedOn) : Number.NaN;
  const age = Number.isNaN(released)
    ? 1
    : Math.min(1, Math.max(0, 1 - (released - RELEASE_EPOCH) / DAY / RELEASE_SPAN_DAYS));
  return aligned + maker + current + age * 0.1249;
}

/** D16: rank of the weakest direct price, -1 without direct prices. */
function weakestDirectRank(prices: readonly PublishedPrice[]): number {
  let rank = Number.POSITIVE_INFINITY;
  for (const p of prices) if (p.channel === "direct") rank = Math.min(rank, confidenceRank(p.confidence));
  return rank === Number.POSITIVE_INFINITY ? -1 : rank;
}

function sortKey(
  sort: ModelSort,
  entry: ListedModel,
  listed: ListedPrice<PublishedPrice> | null,
  rank: number,
): SortKey {
  const id = entry.model.id;
  const value = (v: number | null | undefined, descending: boolean): SortKey =>
    v === null || v === undefined ? [1, 0, rank, id] : [0, descending ? -v : v, rank, id];
  switch (sort) {
    case "input":
    case "-input":
      return value(listed?.input?.amount, sort === "-input");
    case "output":
    case "-output":
      return value(listed?.output?.amount, sort === "-output");
    case "context":
    case "-context":
      return value(entry.model.contextWindow, sort === "-context");
    case "recent":
      return value(listed ? Date.parse(listed.changedAt) : null, true);
    case "sellers":
      return value(new Set(entry.prices.map((p) => `${p.channel}\u0000${p.seller}`)).size, true);
    default:
      return [0, 0, rank, id];
  }
}

function compareKeys(a: SortKey, b: SortKey): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2] || (a[3] < b[3] ? -1 : a[3] > b[3] ? 1 : 0);
}

/** Where a cursor continues: after its row (`meta.nextCursor`) or before it (`meta.prevCursor`, T203). */
export interface CursorPosition {
  readonly key: SortKey;
  readonly before: boolean;
}

interface CursorBody {
  /** dataset version the cursor was made in */
  v: string;
  /** sort key of the row: [no value, value, rank, id] (T203) */
  k?: [number, number, number, string];
  /** D10 rank and id of the last row (cursors made before T203) */
  r?: number;
  i?: string;
  /** signature of the filters and order it was made with */
  f: string;
  /** "b": the page before the row (T203) */
  d?: "b";
}

function signature(filter: ModelFilter, at: string | undefined): string {
  // The first three, alone, are the signature of cursors made before T203, which stay valid.
  const base: unknown[] = [filter.q?.tokens ?? [], filter.providers, filter.confidence];
  const extra = [
    filter.listedConfidence,
    filter.channel,
    filter.modality,
    filter.openWeights,
    filter.minContext,
    filter.sort === "id" ? null : filter.sort,
    at ?? null,
  ];
  return JSON.stringify(extra.every((x) => x === null) ? base : [...base, ...extra]);
}

/** D12: opaque base64url text of a row's sort key and the filters. */
export function encodeCursor(
  version: string,
  row: RankedModel,
  filter: ModelFilter,
  before = false,
  at?: string,
): string {
  const body: CursorBody = { v: version, k: [...row.key], f: signature(filter, at), ...(before ? { d: "b" } : {}) };
  return Buffer.from(JSON.stringify(body), "utf8").toString("base64url");
}

/**
 * Decodes a cursor and checks it was made with the same filters and order.
 * @throws CatalogueError bad_request when it does not decode or the filters differ (D12)
 */
export function decodeCursor(cursor: string, filter: ModelFilter, at?: string): CursorPosition {
  const invalid = () => badRequest("cursor is not valid: pass meta.nextCursor of a previous response unchanged");
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  if (typeof body !== "object" || body === null || typeof (body as CursorBody).f !== "string") throw invalid();
  const b = body as CursorBody;
  let key: SortKey;
  if (Array.isArray(b.k)) {
    const [n, v, r, i] = b.k as unknown[];
    if (typeof n !== "number" || typeof v !== "number" || typeof r !== "number" || typeof i !== "string")
      throw invalid();
    key = [n, v, r, i];
  } else if (typeof b.r === "number" && typeof b.i === "string") key = [0, 0, b.r, b.i];
  else throw invalid();
  if (b.f !== signature(filter, at))
    throw badRequest(
      "cursor was made with other filters or another sort (q, provider, confidence, listedConfidence, channel, " +
        "modality, openWeights, minContext, sort, at); repeat them unchanged or drop the cursor",
    );
  return { key, before: b.d === "b" };
}

/**
 * One page of rows from a cursor's position: the rows after it, or the `limit` rows before it; the
 * next cursor (null exactly on the last page, D12) and the previous one (null on the first, T203).
 */
export function page(
  view: CatalogueView,
  rows: readonly RankedModel[],
  filter: ModelFilter,
  limit: number,
  from: CursorPosition | null,
  at?: string,
): { rows: RankedModel[]; nextCursor: string | null; prevCursor: string | null } {
  let start = 0;
  if (from) {
    const index = rows.findIndex((r) => compareKeys(r.key, from.key) > 0);
    const after = index < 0 ? rows.length : index;
    if (!from.before) start = after;
    else {
      // The row the cursor names is the first of the page after; the page before ends before it.
      const named = rows.findIndex((r) => compareKeys(r.key, from.key) >= 0);
      start = Math.max(0, (named < 0 ? rows.length : named) - limit);
    }
  }
  const slice = rows.slice(start, start + limit);
  const last = slice[slice.length - 1];
  const first = slice[0];
  return {
    rows: slice,
    nextCursor: start + limit < rows.length && last ? encodeCursor(view.version, last, filter, false, at) : null,
    prevCursor: start > 0 && first ? encodeCursor(view.version, first, filter, true, at) : null,
  };
}
