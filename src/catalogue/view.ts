import { setImmediate as nextTurn } from "node:timers/promises";
import type { HistoryPoint, PublishedChange } from "../domain/change.js";
import { CHANNEL_NAMES, CHANNELS, type Channel, MULTI_SELLER_CHANNELS, NAMED_RESELLERS } from "../domain/channel.js";
import { confidenceRank } from "../domain/confidence.js";
import type { Dataset, PublishedModel, PublishedPrice } from "../domain/dataset.js";
import { CURRENT_WITHIN_DAYS, EVIDENCE_MAX_AGE_DAYS } from "../domain/freshness.js";
import type { SourceAttempt } from "../domain/source-attempt.js";
import { toApiPrice } from "./api-shapes.js";
import { buildHistory } from "./history-series.js";
import { firstJudgement, judgedParts, sellerSources, type ViewJudgement } from "./judged-view.js";
import type { ApiMeta, ApiPrice, ApiProvider, ApiRate, ApiSource } from "./schemas.js";
import { apiSources } from "./source-records.js";
import { type SearchField, searchField } from "./text-match.js";
import {
  buildTimeline,
  buildTimelineInSteps,
  datasetTimeline,
  type PointInTimeSource,
  type PriceTimeline,
  versionOn,
} from "./timeline.js";
import type { ServedPrice } from "./verified-now.js";

/** What the catalogue needs to know of a configured source (its registry record). */
export interface SourceRecordInfo {
  readonly id: string;
  readonly info: {
    readonly name: string;
    readonly license: string | null;
    readonly homepage: string;
    readonly weight: number;
    readonly authoritativeFor: readonly string[];
    /** Fields known and deliberately not published, field → reason (T306). */
    readonly skippedFields?: Readonly<Record<string, string>>;
  };
}

/** Rates payload contract version (api-v1.md Versioning §2). */
export const RATES_CONTRACT_VERSION = 2;

/**
 * The immutable in-memory view of one dataset version: everything a request needs, built once when
 * the version becomes current. Verbs read it; nothing mutates it.
 */
export interface CatalogueView {
  readonly version: string;
  /** D31: when this view (and so every body built from it) was built. */
  readonly generatedAt: string;
  readonly meta: ApiMeta;
  readonly providers: readonly ApiProvider[];
  /** `/sources`: this version's record of each source with its last live attempt, its health judged when built (T310). */
  readonly sources: readonly ApiSource[];
  /**
   * A digest of `sources` (T310): the `/sources` answer changes with the sources' last attempts and
   * the clock, not only with the version, so its ETag is over this (D21 amended by T310).
   */
  readonly sourcesRevision: string;
  readonly rates: readonly ApiRate[];
  /** Sorted by id, byte order (D10). */
  readonly models: readonly ModelEntry[];
  /** Every model by id, tombstones (`listed: false`) included: an id once published keeps answering (T66). */
  readonly byId: ReadonlyMap<string, ModelEntry>;
  /** Other spellings and former ids → the model id they name (D1, T67); never an id of `byId`. */
  readonly aliasOf: ReadonlyMap<string, string>;
  readonly dataset: Dataset;
  /**
   * Every change published up to this version, newest first (issue 3): by `occurredAt` descending,
   * then in publication order (publishing version, then its order in it).
   */
  readonly changes: readonly ChangeEntry[];
  /** The same entries in publication order, oldest first: what `/changes?since=` pages through (T226). */
  readonly published: readonly ChangeEntry[];
  /** Direct-channel history per model id: series in (date, seq) order. */
  readonly history: ReadonlyMap<string, readonly SeriesEntry[]>;
  /**
   * This version's prices of every channel per model id, in dataset order (the cost verb reads them),
   * as judged when served (T460: a price whose seller's page is stale is not `verified`).
   */
  readonly pricesByModel: ReadonlyMap<string, readonly ServedPrice[]>;
  /**
   * The judgement behind `models`, `byId`, `pricesByModel` and `rates` (issue 46 §5, T460–T462): the
   * sellers' own pages stale at the moment judged, and the version's parts as built.
   */
  readonly judgement: ViewJudgement;
  /**
   * The point-in-time index an `at=` question reads (issue 17 §2, T146): every version's spans
   * when the view holds them all, else the spans of the version in force on `at`, read on demand
   * (T165, T199): a transport awaits {@link loadTimeline} with the same `at` first.
   * @throws Error when called before {@link loadTimeline} settled (a transport's fault)
   */
  timeline(at?: string): PriceTimeline;
  /**
   * Loads what {@link timeline} needs for `at` (the version in force then: one version's spans,
   * kept in a small LRU), or with no `at` every version's spans (the CLI's many-day questions).
   * Concurrent callers share a load; resolves at once when loaded. A store that cannot be read
   * rejects with StoreUnavailableError (T199).
   */
  loadTimeline(at?: string): Promise<void>;
  /**
   * The dataset version in force on `at` (YYYY-MM-DD, T147) — the newest version dated on or before
   * it, up to the served one — or null before the first run; reads the list of versions only, never
   * their spans (issue 47 §2, T470: what a past-day answer is kept under).
   * @throws StoreUnavailableError while the store cannot be read
   */
  versionOn(at: string): Promise<string | null>;
}

/**
 * A change with what `/changes` filters on, precomputed. `provider` and `slug` name the model the
 * record belongs to now: a record published under a former id follows the model (issue 36 §1, T321),
 * while the record itself (`change.modelId`, the API's `model`) stays as published.
 */
export interface ChangeEntry {
  readonly change: PublishedChange;
  readonly provider: string;
  readonly slug: string;
  /** The provider and slug of `change.modelId` when the model has another id now (T321). */
  readonly recorded?: { readonly provider: string; readonly slug: string };
  readonly search: readonly SearchField[];
}

/** One history series of a model (api-v1.md "History series"). */
export interface SeriesEntry {
  readonly seriesKey: string;
  readonly label: string;
  readonly displayUnit: string;
  /** Sorted by date then recording order. */
  readonly points: readonly HistoryPoint[];
  /**
   * The first day (YYYY-MM-DD) the series' price is no longer published (its removal, T456), null
   * while the current version publishes it.
   */
  readonly endedOn: string | null;
  /** Days the price was not published between two of its spans (T456): `[first day without, first day with again]`. */
  readonly gaps: readonly (readonly [string, string])[];
}

/** The permanent record a view also serves: every change and history point (never pruned). */
export interface CatalogueRecord {
  /** In publication order, as the store loads them. */
  readonly changes: readonly PublishedChange[];
  readonly history: readonly HistoryPoint[];
  /**
   * Series no longer published (T456): `modelId|seriesKey` → the first day (YYYY-MM-DD) without the
   * price; absent: every series with points is taken as still published.
   */
  readonly ended?: ReadonlyMap<string, string>;
  /** Series removed and published again (T456): `modelId|seriesKey` → the days without the price. */
  readonly gaps?: ReadonlyMap<string, readonly (readonly [string, string])[]>;
  /**
   * The store's price and model spans, or how to load them on first use (T165); without it, the
   * dataset alone is the timeline.
   */
  readonly timeline?: PriceTimeline | PointInTimeSource;
  /** Each source's last live attempt (T310); absent or empty when no live run tried any. */
  readonly attempts?: readonly SourceAttempt[];
}

/** One model with its prices per channel and precomputed search fields. */
export interface ModelEntry {
  readonly model: PublishedModel;
  readonly prices: ReadonlyMap<Channel, readonly ApiPrice[]>;
  /** D16: weakest direct price's level rank, or -1 without direct prices. */
  readonly weakestDirectRank: number;
  readonly search: readonly SearchField[];
  readonly providerName: string;
  readonly providerSearch: readonly SearchField[];
}

/** Builds the view of a dataset, in one go (see {@link buildViewInSteps} for a serving process). */
export function buildView(
  dataset: Dataset,
  registry: readonly SourceRecordInfo[],
  now: Date = new Date(),
  record: CatalogueRecord = { changes: [], history: [] },
): CatalogueView {
  const steps = viewSteps(dataset, registry, now, record);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * Builds the same view as {@link buildView}, letting the event loop run what waits (requests)
 * between steps of a few ms each (T267): a server swapping in a new version keeps answering.
 */
export async function buildViewInSteps(
  dataset: Dataset,
  registry: readonly SourceRecordInfo[],
  now: Date = new Date(),
  record: CatalogueRecord = { changes: [], history: [] },
): Promise<CatalogueView> {
  const steps = viewSteps(dataset, registry, now, record);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await nextTurn();
  }
}

/** Models, or changes, made between two steps of {@link viewSteps}. */
const ROWS_PER_STEP = 250;

/**
 * The work of {@link buildView}, cut into steps: it yields after each phase and after every
 * {@link ROWS_PER_STEP} models or changes, and returns the view (T267). Every step computes what
 * the one-go build computes, in the same order, so both views are alike.
 */
function* viewSteps(
  dataset: Dataset,
  registry: readonly SourceRecordInfo[],
  now: Date,
  record: CatalogueRecord,
): Generator<void, CatalogueView> {
  const generatedAt = now.toISOString();
  const providerNames = new Map(dataset.providers.map((p) => [p.slug, p.name]));
  const pricesByModel = new Map<string, PublishedPrice[]>();
  for (const p of dataset.prices) {
    const list = pricesByModel.get(p.modelId);
    if (list) list.push(p);
    else pricesByModel.set(p.modelId, [p]);
  }
  yield;
  const all: ModelEntry[] = [];
  for (const model of dataset.models) {
    if (all.length > 0 && all.length % ROWS_PER_STEP === 0) yield;
    const byChannel = new Map<Channel, ApiPrice[]>();
    const own = pricesByModel.get(model.id) ?? [];
    for (const p of own) {
      const list = byChannel.get(p.channel) ?? [];
      list.push(toApiPrice(p));
      byChannel.set(p.channel, list);
    }
    const direct = own.filter((p) => p.channel === "direct");
    const providerName = providerNames.get(model.provider) ?? model.provider;
    all.push({
      model,
      prices: byChannel,
      weakestDirectRank: direct.length === 0 ? -1 : Math.min(...direct.map((p) => confidenceRank(p.confidence))),
      search: [searchField(model.slug), searchField(model.name)],
      providerName,
      providerSearch: [searchField(model.provider), searchField(providerName)],
    });
  }
  yield;
  const rawById = new Map(all.map((m) => [m.model.id, m]));
  const aliasOf = buildAliasIndex(dataset.models, rawById);
  yield;
  const officialSources = registry
    .filter((s) => s.info.authoritativeFor.some((seller) => dataset.providers.some((p) => p.slug === seller)))
    .map((s) => s.id);

  const sellersByChannel = new Map<Channel, Set<string>>();
  for (const p of dataset.prices) {
    const set = sellersByChannel.get(p.channel) ?? new Set<string>();
    set.add(p.seller);
    sellersByChannel.set(p.channel, set);
  }
  const { lastRun, ...sources } = apiSources(dataset, registry, record.attempts ?? [], generatedAt);
  // T460: `verified` judged at `now` from the sellers' pages' last reads; lists, counts and rates
  // hold listed models only, a tombstone answers by id alone (T66).
  const judgement = firstJudgement(
    { byId: rawById, pricesByModel },
    sellerSources(registry),
    sources.sources,
    dataset.sources,
    dataset.run.datasetVersion,
    now.getTime(),
  );
  const { models, byId, rates, pricesByModel: served } = judgedParts(judgement, officialSources);
  yield;
  const meta: ApiMeta = {
    datasetVersion: dataset.run.datasetVersion,
    generatedAt,
    models: models.length,
    providers: dataset.providers.length,
    prices: dataset.prices.length,
    lastRun, // the version's run, or a later live run that published nothing (T450)
    rates: { contractVersion: RATES_CONTRACT_VERSION, officialSources },
    channels: CHANNELS.map((id) => ({
      id,
      name: CHANNEL_NAMES[id],
      sellers: channelSellers(id, sellersByChannel.get(id)),
    })),
    freshness: freshnessOf(dataset, registry),
  };
  const providers: ApiProvider[] = dataset.providers.map((p) => ({ ...p }));
  yield;
  const changes = yield* changeSteps(record.changes, dataset.run.datasetVersion, (id) =>
    byId.has(id) ? id : (aliasOf.get(id) ?? id),
  );
  yield;
  const history = buildHistory(record, dataset, byId, aliasOf);
  yield;
  return {
    version: dataset.run.datasetVersion,
    generatedAt,
    meta,
    providers,
    ...sources,
    rates,
    models,
    byId,
    aliasOf,
    dataset,
    ...changes,
    history,
    pricesByModel: served,
    judgement,
    ...pointInTimeIndex(record.timeline ?? datasetTimeline(dataset), dataset),
  };
}

/** `/meta` freshness (T223): each configured source's last success, the newest of them, and the bounds. */
function freshnessOf(dataset: Dataset, registry: readonly SourceRecordInfo[]): ApiMeta["freshness"] {
  const health = new Map(dataset.sources.map((s) => [s.source as string, s.lastSuccessAt]));
  const sources = Object.fromEntries(registry.map((s) => [s.id, health.get(s.id) ?? null]));
  const times = Object.values(sources).filter((t): t is string => t !== null);
  return {
    newestEvidenceAt: times.length === 0 ? null : times.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a)),
    sources,
    currentWithinDays: CURRENT_WITHIN_DAYS,
    evidenceMaxAgeDays: EVIDENCE_MAX_AGE_DAYS,
  };
}

/** Versions a view keeps the spans of for `at=` (issue 26 §4, T199): least recently asked first out. */
const SLICES_KEPT = 4;

/**
 * The view's point-in-time index (T165, T199). Given whole (a timeline), it is just that. Given a
 * source, nothing is read until an `at=` question: then the list of versions (once) and the spans
 * of the version in force on that day, one version at a time, read by the store in pages between
 * requests; the last {@link SLICES_KEPT} versions asked are kept, so memory stays at a few
 * versions' prices whatever days are asked. With no `at`, every span is read (the CLI).
 */
function pointInTimeIndex(
  source: PriceTimeline | PointInTimeSource,
  dataset: Dataset,
): Pick<CatalogueView, "timeline" | "loadTimeline" | "versionOn"> {
  if (!("spansAt" in source))
    return {
      timeline: () => source,
      loadTimeline: () => Promise.resolve(),
      versionOn: (at) => Promise.resolve(versionOn(source, at)),
    };
  const served = dataset.run.datasetVersion;
  // A day on or after the served version's is answered by the served version: its own dataset,
  // indexed once, without the store (T165, T199).
  const servedDay = served.slice(0, 10);
  let own: PriceTimeline | null = null;
  let ownLoading: Promise<void> | null = null;
  let whole: PriceTimeline | null = null;
  let wholeLoading: Promise<void> | null = null;
  let versions: string[] | null = null;
  let versionsLoading: Promise<string[]> | null = null;
  const slices = new Map<string, PriceTimeline>(); // in order of last use, oldest first
  const loading = new Map<string, Promise<void>>();
  const unloaded = () => new Error("the point-in-time index was read before loadTimeline() settled");
  const loadVersions = (): Promise<string[]> => {
    if (versions) return Promise.resolve(versions);
    versionsLoading ??= source.versions().then(
      (all) => {
        // The timeline ends at the version served: a view of an older version answers as of then.
        versions = all.filter((v) => v <= served).sort();
        return versions;
      },
      (error: unknown) => {
        versionsLoading = null; // a failed load is tried again by the next question
        throw error;
      },
    );
    return versionsLoading;
  };
  const use = (version: string, slice: PriceTimeline) => {
    slices.delete(version);
    slices.set(version, slice);
    for (const oldest of slices.keys()) {
      if (slices.size <= SLICES_KEPT) break;
      slices.delete(oldest);
    }
  };
  return {
    async versionOn(at: string): Promise<string | null> {
      if (whole) return versionOn(whole, at);
      return at >= servedDay ? served : versionOn({ versions: await loadVersions() }, at);
    },
    timeline(at?: string): PriceTimeline {
      if (whole) return whole;
      if (at !== undefined && at >= servedDay && own) return own;
      if (at === undefined || !versions) throw unloaded();
      const version = versionOn({ versions }, at);
      if (version === null) return { versions, models: new Map(), prices: new Map() };
      const slice = slices.get(version);
      if (!slice) throw unloaded();
      return slice;
    },
    async loadTimeline(at?: string): Promise<void> {
      if (whole) return;
      if (at === undefined) {
        wholeLoading ??= Promise.all([loadVersions(), source.spans()]).then(
          ([list, spans]) => {
            whole = buildTimeline(list, spans);
            slices.clear();
          },
          (error: unknown) => {
            wholeLoading = null;
            throw error;
          },
        );
        return wholeLoading;
      }
      if (at >= servedDay) {
        ownLoading ??= buildTimelineInSteps([served], {
          models: dataset.models.map((value) => ({ from: served, to: null, value })),
          // As the store's spans give them: without evidence (T146), so both answer alike.
          prices: dataset.prices.map((value) => ({ from: served, to: null, value: { ...value, observations: [] } })),
        }).then((t) => {
          own = t;
        });
        return ownLoading;
      }
      const list = await loadVersions();
      const version = versionOn({ versions: list }, at);
      if (version === null) return;
      const known = slices.get(version);
      if (known) return use(version, known);
      let load = loading.get(version);
      if (!load) {
        load = source
          .spansAt(version)
          .then(async (spans) => use(version, await buildTimelineInSteps(list, spans)))
          .finally(() => loading.delete(version));
        loading.set(version, load);
      }
      return load;
    },
  };
}

/**
 * The alias index (T67): former ids first (an id once published names its model for good), then
 * each model's aliases under its maker (`anthropic/claude-3.5-sonnet`), lower-cased; an alias two
 * models claim names neither, and an id of a model is never an alias.
 */
function buildAliasIndex(
  models: readonly PublishedModel[],
  byId: ReadonlyMap<string, ModelEntry>,
): Map<string, string> {
  const index = new Map<string, string>();
  // A tombstone's former ids answer too: it answers 200 by id (T66).
  for (const m of models)
    for (const f of m.formerIds) if (!byId.has(f) && (m.listed || !index.has(f))) index.set(f, m.id);
  const claimed = new Map<string, string | null>();
  for (const m of models) {
    if (!m.listed) continue;
    for (const alias of m.aliases) {
      // `anthropic/claude-3.5-sonnet` answers both as spelled and by its last segment under the maker.
      const last = alias.slice(alias.lastIndexOf("/") + 1).toLowerCase();
      for (const id of new Set([`${m.provider}/${alias.toLowerCase()}`, `${m.provider}/${last}`])) {
        if (byId.has(id) || index.has(id)) continue;
        claimed.set(id, claimed.has(id) && claimed.get(id) !== m.id ? null : m.id);
      }
    }
  }
  for (const [id, target] of claimed) if (target) index.set(id, target);
  return index;
}

/**
 * The model id a requested id answers as (D1, T67): itself when it is a model (a tombstone too),
 * else the model its alias or former id names (case-insensitive), else null.
 */
export function resolveModelId(view: CatalogueView, id: string): string | null {
  if (view.byId.has(id)) return id;
  return (
    view.aliasOf.get(id) ??
    view.aliasOf.get(id.toLowerCase()) ??
    (view.byId.has(id.toLowerCase()) ? id.toLowerCase() : null)
  );
}

/** The view's changes (`/changes`): publication order and newest first; yields every {@link ROWS_PER_STEP} (T267). */
function* changeSteps(
  changes: readonly PublishedChange[],
  version: string,
  /** The id a published id answers as now: itself, or the model a former id names (T66, T321). */
  current: (id: string) => string,
): Generator<void, { changes: ChangeEntry[]; published: ChangeEntry[] }> {
  // The same few thousand names recur across runs: their search forms are computed once each.
  const fields = new Map<string, SearchField>();
  const field = (text: string) => {
    const known = fields.get(text);
    if (known) return known;
    const made = searchField(text);
    fields.set(text, made);
    return made;
  };
  // A view of a version holds what that version and the ones before it published.
  const ordered = changes.filter((c) => c.publishedIn <= version).sort(comparePublication);
  yield;
  const published: ChangeEntry[] = [];
  for (const change of ordered) {
    if (published.length > 0 && published.length % ROWS_PER_STEP === 0) yield;
    const [provider = "", ...rest] = current(change.modelId).split("/");
    const slug = rest.join("/");
    const search = [field(slug), field(change.modelName), field(provider), field(change.providerName)];
    if (current(change.modelId) === change.modelId) {
      published.push({ change, provider, slug, search });
      continue;
    }
    // T321: a former id's record answers under the model's id and still under the id it was published as.
    const [oldProvider = "", ...oldRest] = change.modelId.split("/");
    const recorded = { provider: oldProvider, slug: oldRest.join("/") };
    published.push({ change, provider, slug, recorded, search: [...search, field(recorded.slug)] });
  }
  yield;
  // Newest first; within one `occurredAt`, publication order (the detection order of a run).
  const newest = [...published].sort((a, b) => compareNewestFirst(a.change, b.change));
  return { changes: newest, published };
}

/** Publication order (T226): publishing version, then the record's order in it. */
export function comparePublication(a: PublishedChange, b: PublishedChange): number {
  return a.publishedIn < b.publishedIn ? -1 : a.publishedIn > b.publishedIn ? 1 : a.seq - b.seq;
}

/** `/changes` order: `occurredAt` descending, then publication order (a total order, T226). */
export function compareNewestFirst(a: PublishedChange, b: PublishedChange): number {
  if (a.occurredAt !== b.occurredAt) return a.occurredAt > b.occurredAt ? -1 : 1;
  return comparePublication(a, b);
}

function channelSellers(channel: Channel, seen: ReadonlySet<string> | undefined): string[] {
  if (channel === "direct") return [];
  const named = NAMED_RESELLERS[channel];
  if (named) return [named.seller];
  return MULTI_SELLER_CHANNELS.has(channel) ? [...(seen ?? [])].sort() : [];
}
