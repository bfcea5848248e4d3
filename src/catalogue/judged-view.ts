import type { Channel } from "../domain/channel.js";
import { confidenceRank } from "../domain/confidence.js";
import type { PublishedPrice } from "../domain/dataset.js";
import { buildRates, toApiPrice } from "./api-shapes.js";
import type { ApiPrice, ApiRate, ApiSource } from "./schemas.js";
import {
  judgePrice,
  lastRead,
  type SellerSources,
  type ServedPrice,
  type StalePages,
  sameStalePages,
  stalePagesAt,
  stalePagesKey,
} from "./verified-now.js";
import type { CatalogueView, ModelEntry, SourceRecordInfo } from "./view.js";

/**
 * A view's prices judged when served (issue 46 §5, T460–T462): the version's models and prices as
 * built (`raw`), and what is served from them with the sellers' own lists that are stale at the
 * moment judged. Computed once per (version, stale pages), never per request.
 */
export interface ViewJudgement {
  /** The sellers' own sources stale at the moment judged, with their last read. */
  readonly stale: StalePages;
  /**
   * "" when `stale` is what the version's own records give at the version's time (the answer is a
   * function of the version alone), else a digest of `stale`: the ETag's extra part (T462).
   */
  readonly key: string;
  /** The stale pages at the version's own time, from its records alone (no later attempt). */
  readonly baseline: StalePages;
  readonly sellers: SellerSources;
  /** The version's entries and prices as built, before any judgement. */
  readonly raw: {
    readonly byId: ReadonlyMap<string, ModelEntry>;
    readonly pricesByModel: ReadonlyMap<string, readonly PublishedPrice[]>;
  };
}

/** What the served view derives from a judgement: its entries, prices and rates. */
export interface JudgedParts {
  readonly models: readonly ModelEntry[];
  readonly byId: ReadonlyMap<string, ModelEntry>;
  readonly pricesByModel: ReadonlyMap<string, readonly ServedPrice[]>;
  readonly rates: readonly ApiRate[];
}

/** Who speaks for which seller, and the weights, from the registry (T460). */
export function sellerSources(registry: readonly SourceRecordInfo[]): SellerSources {
  return {
    speaksFor: new Map(
      registry.filter((s) => s.info.authoritativeFor.length > 0).map((s) => [s.id, s.info.authoritativeFor]),
    ),
    weight: new Map(registry.map((s) => [s.id, s.info.weight])),
  };
}

/** Each seller's own source's last successful read, from `/sources` records (T460). */
export function pageReads(sources: readonly ApiSource[], sellers: SellerSources): Map<string, string | null> {
  const byId = new Map(sources.map((s) => [s.source, s]));
  return new Map(
    [...sellers.speaksFor.keys()].map((id) => {
      const record = byId.get(id);
      return [id, record ? lastRead(record) : null];
    }),
  );
}

/** The judgement of a freshly built view: its stale pages at `atMs` and at the version's own time. */
export function firstJudgement(
  raw: ViewJudgement["raw"],
  sellers: SellerSources,
  sources: readonly ApiSource[],
  versionRecords: readonly { readonly source: string; readonly lastSuccessAt: string | null }[],
  version: string,
  atMs: number,
): ViewJudgement {
  const recorded = new Map(versionRecords.map((s) => [s.source, s.lastSuccessAt]));
  const baselineReads = new Map([...sellers.speaksFor.keys()].map((id) => [id, recorded.get(id) ?? null]));
  const baseline = stalePagesAt(baselineReads, Date.parse(version));
  const stale = stalePagesAt(pageReads(sources, sellers), atMs);
  return { stale, key: keyOf(stale, baseline), baseline, sellers, raw };
}

function keyOf(stale: StalePages, baseline: StalePages): string {
  return sameStalePages(stale, baseline) ? "" : stalePagesKey(stale);
}

/**
 * The view judged at `atMs` (epoch ms) with its current `/sources` records (T460): the same object
 * when the stale pages are those it was judged with, else a view serving the judged prices, entries
 * and rates (computed once per version and stale pages, T462).
 */
export function judgeView(view: CatalogueView, atMs: number): CatalogueView {
  const j = view.judgement;
  const stale = stalePagesAt(pageReads(view.sources, j.sellers), atMs);
  if (sameStalePages(stale, j.stale)) return view;
  const judgement: ViewJudgement = { ...j, stale, key: keyOf(stale, j.baseline) };
  return { ...view, ...judgedParts(judgement, view.meta.rates.officialSources), judgement };
}

const MEMO = new WeakMap<ViewJudgement["raw"], Map<string, JudgedParts>>();

/** The served entries, prices and rates of a judgement, memoized per version's raw parts and stale pages. */
export function judgedParts(judgement: ViewJudgement, officialSources: readonly string[]): JudgedParts {
  const memoKey = `${stalePagesKey(judgement.stale)}|${officialSources.join(",")}`;
  let memo = MEMO.get(judgement.raw);
  if (!memo) {
    memo = new Map();
    MEMO.set(judgement.raw, memo);
  }
  const known = memo.get(memoKey);
  if (known) return known;
  const made = computeParts(judgement, officialSources);
  if (memo.size >= 8) memo.clear(); // a handful of stale sets per version at most; never grows unbounded
  memo.set(memoKey, made);
  return made;
}

function computeParts(judgement: ViewJudgement, officialSources: readonly string[]): JudgedParts {
  const { stale, sellers, raw } = judgement;
  const pricesByModel = new Map<string, readonly ServedPrice[]>();
  const byId = new Map<string, ModelEntry>();
  for (const [id, entry] of raw.byId) {
    const rawPrices = raw.pricesByModel.get(id);
    if (!rawPrices) {
      byId.set(id, entry);
      continue;
    }
    const judged = rawPrices.map((p) => judgePrice(p, stale, sellers));
    pricesByModel.set(id, judged);
    byId.set(id, judged.every((p, i) => p === rawPrices[i]) ? entry : entryWith(entry, judged));
  }
  // Prices of a model absent from the models (none in a consistent dataset) are kept as built.
  for (const [id, list] of raw.pricesByModel) if (!pricesByModel.has(id)) pricesByModel.set(id, list);
  const models = [...byId.values()].filter((m) => m.model.listed);
  const rates = buildRates(
    models.map((m) => m.model),
    pricesByModel,
    officialSources,
    stale,
  );
  return { models, byId, pricesByModel, rates };
}

/** An entry with its prices rebuilt from judged ones. */
function entryWith(entry: ModelEntry, prices: readonly ServedPrice[]): ModelEntry {
  const byChannel = new Map<Channel, ApiPrice[]>();
  for (const p of prices) {
    const list = byChannel.get(p.channel) ?? [];
    list.push(toApiPrice(p));
    byChannel.set(p.channel, list);
  }
  const direct = prices.filter((p) => p.channel === "direct");
  return {
    ...entry,
    prices: byChannel,
    weakestDirectRank: direct.length === 0 ? -1 : Math.min(...direct.map((p) => confidenceRank(p.confidence))),
  };
}

/** Prices judged with a view's current stale pages (the `at=` answers of the served version, T461). */
export function judgePrices(view: CatalogueView, prices: readonly PublishedPrice[]): ServedPrice[] {
  const { stale, sellers } = view.judgement;
  return prices.map((p) => judgePrice(p, stale, sellers));
}
