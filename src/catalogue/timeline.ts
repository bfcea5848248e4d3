import type { Dataset, PublishedModel, PublishedPrice } from "../domain/dataset.js";
import { priceKey } from "../domain/dataset.js";
import { dimensionKey } from "../domain/dimension.js";
import { comparePrices } from "../domain/price-order.js";
import type { Span, StoredSpans } from "../store/catalogue-store.js";

/**
 * What every dataset version published, for point-in-time answers (`at=YYYY-MM-DD`, issue 17 §2,
 * T146–T148): the store's validity intervals of prices and models, indexed by model id. Immutable,
 * built with the view.
 */
export interface PriceTimeline {
  /** Every published dataset version, oldest first. */
  readonly versions: readonly string[];
  /** A model's spans, by id. */
  readonly models: ReadonlyMap<string, readonly Span<PublishedModel>[]>;
  /** A model's price spans (every channel), by model id, in dataset order (comparePrices). */
  readonly prices: ReadonlyMap<string, readonly Span<PublishedPrice>[]>;
}

/**
 * Where a server's point-in-time index reads from (T165, T199): the store, one version at a time
 * ({@link spansAt}), or whole for a caller that asks about many days ({@link spans}, the CLI).
 * @see StoreSpans, the store-backed source with its backoff
 */
export interface PointInTimeSource {
  /** Every published dataset version, oldest first. */
  versions(): Promise<readonly string[]>;
  /** The spans open at one version: what it published. */
  spansAt(version: string): Promise<StoredSpans>;
  /** Every span of every version. */
  spans(): Promise<StoredSpans>;
}

/** Spans grouped by a key of their value, in the order met. */
function grouped<T>(spans: readonly Span<T>[], key: (value: T) => string): Map<string, Span<T>[]> {
  const out = new Map<string, Span<T>[]>();
  for (const s of spans) {
    const list = out.get(key(s.value));
    if (list) list.push(s);
    else out.set(key(s.value), [s]);
  }
  return out;
}

/** A model's price spans in dimension order, the older span first. */
const spanOrder = (a: Span<PublishedPrice>, b: Span<PublishedPrice>) =>
  comparePrices(a.value, b.value) || (a.from < b.from ? -1 : 1);

/** Model ids in byte order (the order `comparePrices` puts models in). */
const modelIds = (byModel: ReadonlyMap<string, unknown>) =>
  [...byModel.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** Builds the timeline of a store's spans over its published versions. */
export function buildTimeline(versions: readonly string[], spans: StoredSpans): PriceTimeline {
  const byModel = grouped(spans.prices, (p) => p.modelId);
  const prices = new Map<string, Span<PublishedPrice>[]>();
  for (const id of modelIds(byModel)) prices.set(id, byModel.get(id)!.sort(spanOrder));
  return { versions: [...versions].sort(), models: grouped(spans.models, (m) => m.id), prices };
}

/**
 * {@link buildTimeline} in steps (issue 26 §4, T199): the same timeline, its prices sorted one
 * model at a time with the event loop free every `step` spans, so a server building the slice of
 * one version for an `at=` question never pauses requests for the whole sort.
 */
export async function buildTimelineInSteps(
  versions: readonly string[],
  spans: StoredSpans,
  step = 2000,
): Promise<PriceTimeline> {
  const byModel = grouped(spans.prices, (p) => p.modelId);
  const prices = new Map<string, Span<PublishedPrice>[]>();
  let sorted = 0;
  for (const id of modelIds(byModel)) {
    const list = byModel.get(id)!.sort(spanOrder);
    prices.set(id, list);
    sorted += list.length;
    if (sorted >= step) {
      sorted = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return { versions: [...versions].sort(), models: grouped(spans.models, (m) => m.id), prices };
}

/** The timeline of one dataset alone (a view built without a store: every span is its version's). */
export function datasetTimeline(dataset: Dataset): PriceTimeline {
  const v = dataset.run.datasetVersion;
  return buildTimeline([v], {
    models: dataset.models.map((value) => ({ from: v, to: null, value })),
    prices: dataset.prices.map((value) => ({ from: v, to: null, value })),
  });
}

/**
 * The dataset version in force on `date` (YYYY-MM-DD): the newest version whose date is on or
 * before it (T147); null when the first run is later.
 */
export function versionOn(timeline: Pick<PriceTimeline, "versions">, date: string): string | null {
  let found: string | null = null;
  for (const v of timeline.versions) {
    if (v.slice(0, 10) > date) break;
    found = v;
  }
  return found;
}

function openAt<T>(span: Span<T>, version: string): boolean {
  return span.from <= version && (span.to === null || span.to > version);
}

/** The model as version `version` published it, or null when that version did not hold it. */
export function modelAt(timeline: PriceTimeline, id: string, version: string): PublishedModel | null {
  return timeline.models.get(id)?.find((s) => openAt(s, version))?.value ?? null;
}

/** The prices of a model (every channel) as version `version` published them, in dataset order. */
export function pricesAt(timeline: PriceTimeline, id: string, version: string): PublishedPrice[] {
  return (timeline.prices.get(id) ?? []).filter((s) => openAt(s, version)).map((s) => s.value);
}

/** Every model version `version` published, by id (byte order, D10). */
export function modelsAt(timeline: PriceTimeline, version: string): PublishedModel[] {
  const result: PublishedModel[] = [];
  for (const spans of timeline.models.values()) {
    const m = spans.find((s) => openAt(s, version));
    if (m) result.push(m.value);
  }
  return result.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * The former ids of a model that version `version` published, the one with the most prices then
 * first (then byte order): who stands for the model that day (T320).
 */
function formerAt(timeline: PriceTimeline, formerIds: readonly string[], version: string): string[] {
  const counted = formerIds
    .filter((f) => modelAt(timeline, f, version) !== null)
    .map((f) => ({ f, n: pricesAt(timeline, f, version).length }));
  return counted.sort((a, b) => b.n - a.n || (a.f < b.f ? -1 : a.f > b.f ? 1 : 0)).map((c) => c.f);
}

/**
 * The model `id` as version `version` published it, following its former ids (issue 36 §1, T320):
 * its own record when that version held `id`; else, when identity has since placed a listing of
 * that version under `id` (`formerIds`, T66), the record of the former id that version published
 * with the most prices, answered under `id` (its name, dates and lifecycle as published then). Null
 * when the version held neither.
 */
export function modelFollowing(
  timeline: PriceTimeline,
  id: string,
  formerIds: readonly string[],
  version: string,
): PublishedModel | null {
  const own = modelAt(timeline, id, version);
  if (own) return own;
  const [first] = formerAt(timeline, formerIds, version);
  if (first === undefined) return null;
  const bar = id.indexOf("/");
  return { ...modelAt(timeline, first, version)!, id, provider: id.slice(0, bar), slug: id.slice(bar + 1) };
}

/**
 * The prices of model `id` as version `version` published them, following its former ids (T320):
 * its own prices when that version published `id` (so `at=` on the served version's day answers
 * exactly what the served version does, T147); else each price a former id had then (the one with
 * the most prices first) for a channel, seller, dimension and unit none before had, all under `id`,
 * in dataset order.
 */
export function pricesFollowing(
  timeline: PriceTimeline,
  id: string,
  formerIds: readonly string[],
  version: string,
): PublishedPrice[] {
  const own = pricesAt(timeline, id, version);
  if (formerIds.length === 0 || modelAt(timeline, id, version) !== null) return own;
  const seen = new Set(own.map((p) => priceKey(p, dimensionKey(p))));
  const out = [...own];
  for (const f of formerAt(timeline, formerIds, version))
    for (const p of pricesAt(timeline, f, version)) {
      const moved = { ...p, modelId: id };
      const key = priceKey(moved, dimensionKey(moved));
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(moved);
    }
  return out.length === own.length ? own : out.sort(comparePrices);
}
