import type { PublishedModel, PublishedPrice } from "../domain/dataset.js";
import { priceOnDay } from "../domain/dated-price.js";
import { dateParam } from "./endpoint.js";
import { badRequest } from "./errors.js";
import { judgePrices } from "./judged-view.js";
import { modelFollowing, type PriceTimeline, pricesFollowing, versionOn } from "./timeline.js";
import type { ServedPrice, StalePages } from "./verified-now.js";
import type { CatalogueView } from "./view.js";

/**
 * `at=YYYY-MM-DD` (issue 17 §2, T147; issue 37 §4, T336): answers with what the newest dataset
 * version dated on or before that day published, each price whose stated end (`effectiveUntil`) is
 * on or before the day replaced by its announced successor (or left out when none is announced).
 * A future day is the served version with the announcements due by then. Shared by
 * /models, /models/{p}/{m}, /compare, /rates and /cost (the price-file exports refuse a future day):
 * one answer per day in every verb.
 */
export const atParam = dateParam(
  "at",
  "Point in time, `YYYY-MM-DD` (UTC): answer with the prices of the newest dataset version published on or " +
    "before that day (`meta.at`, `meta.datasetVersion` say which); every price whose `effectiveUntil` is on or " +
    "before the day is taken as its `announced` price (T336). A future day " +
    "answers from the served version. A day before the first run: 404 for one model, an empty list otherwise.",
  "2025-09-15",
).optional();

/** Max-age of an answer for an `at` before the current version's day: it can no longer change (T148). */
export const PAST_MAX_AGE = 3600;

/** The catalogue as one dataset version published it: the models and prices a verb reads. */
export interface PublishedState {
  /** The dataset version answered, or null when `at` lies before the first run. */
  readonly version: string | null;
  /** The requested day, when `at` was given (echoed as `meta.at`). */
  readonly at: string | undefined;
  /** The point-in-time index holding `version` (`view.timeline(at)`), when `at` was given. */
  readonly timeline: PriceTimeline | null;
  model(id: string): PublishedModel | null;
  /** Every channel's prices of a model, in dataset order, `verified` as judged for the day (T461). */
  prices(id: string): readonly ServedPrice[];
  /** The sellers' own pages stale for this answer (T461): the view's now, none for a settled day. */
  readonly stale: StalePages;
}

/**
 * The state a request answers from: the view's own version without `at`, else the version in
 * force on `at` (T147), a model's former ids standing for it before it had its id (T320), with the
 * prices as they apply that day (announced successors, T336). `verified` (T461): without `at`, and
 * for a day the served version answers (on or after its day: its prices, its pages' reads), judged as
 * the view is, when served; a settled day (before it, T148) as its own version was built (T292).
 * @param future whether a day after today (UTC) is answered (T336); false: it is a 400 (the exports)
 * @throws CatalogueError bad_request for an `at` after today (UTC) when `future` is false
 */
export function publishedState(
  view: CatalogueView,
  at: string | undefined,
  today: Date = new Date(),
  future = true,
): PublishedState {
  if (at === undefined)
    return {
      version: view.version,
      at,
      timeline: null,
      model: (id) => view.byId.get(id)?.model ?? null,
      prices: (id) => view.pricesByModel.get(id) ?? [],
      stale: view.judgement.stale,
    };
  const day = today.toISOString().slice(0, 10);
  if (at > day && !future) throw badRequest(`at must not be in the future: ${at} is after today, ${day} (UTC)`);
  const timeline = view.timeline(at);
  const version = versionOn(timeline, at);
  // T320: a model answers for the days before identity placed it under its id, through its former ids.
  const formerIds = (id: string) => view.byId.get(id)?.model.formerIds ?? [];
  const settled = isSettledAt(view, at);
  const onDay = (id: string) => (version ? pricesOnDay(pricesFollowing(timeline, id, formerIds(id), version), at) : []);
  return {
    version,
    at,
    timeline,
    model: (id) => (version ? modelFollowing(timeline, id, formerIds(id), version) : null),
    prices: settled ? onDay : (id) => judgePrices(view, onDay(id)),
    stale: settled ? new Map() : view.judgement.stale,
  };
}

/** Prices as they apply on `day` (T336): ended ones replaced by their announced successor, or left out. */
function pricesOnDay(prices: readonly PublishedPrice[], day: string): PublishedPrice[] {
  const out: PublishedPrice[] = [];
  for (const p of prices) {
    const applied = priceOnDay(p, day);
    if (applied) out.push(applied);
  }
  return out;
}

/**
 * The `meta` fields of an answer for a state: `datasetVersion` is the version answered (T147) and
 * `at` the requested day; null version (before the first run) answers as the first version would
 * not exist, so `datasetVersion` stays the view's.
 */
export function stateMeta(view: CatalogueView, state: PublishedState): { datasetVersion: string; at?: string } {
  if (state.at === undefined) return { datasetVersion: view.version };
  return { datasetVersion: state.version ?? view.version, at: state.at };
}

/** Whether an `at` answer can no longer change: its day lies before the current version's day (T148). */
export function isSettledAt(view: CatalogueView, at: string): boolean {
  return at < view.version.slice(0, 10);
}
