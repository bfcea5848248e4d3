import type { HistoryPoint } from "../domain/change.js";
import type { PublishedPrice } from "../domain/dataset.js";
import { seriesKey } from "../domain/dimension.js";
import { DAY_MS } from "../domain/freshness.js";
import type { Span } from "../store/catalogue-store.js";

/**
 * A model's price history as the published spans tell it (issue 50 §3, T456): the history, `?at=`
 * and `/changes` read one record. `points` has a point where a direct price starts a series or its
 * amount moves (api-v1.md point rules; the endpoint folds equal neighbours), dated by the version that
 * published it; `ended` maps each `modelId|seriesKey` whose last span is closed to the first day
 * (YYYY-MM-DD) it was no longer published, and `gaps` the days a series was removed and later
 * published again (`[first day without, first day with]`). Upstream-dated points (an upstream's own history before
 * the first run, `recordedBy` `upstream:<source>`) are kept as recorded. Pure.
 * @param spans the store's direct-channel price spans (any order)
 * @param recorded the store's history points: only the upstream-dated ones are read (the store can
 *   filter them: `loadHistory({ upstreamDated: true })`)
 */
export function historyFromSpans(
  spans: readonly Span<PublishedPrice>[],
  recorded: readonly HistoryPoint[],
): { points: HistoryPoint[]; ended: Map<string, string>; gaps: Map<string, [string, string][]> } {
  const bySeries = new Map<string, Span<PublishedPrice>[]>();
  for (const s of spans) {
    if (s.value.channel !== "direct") continue;
    const key = `${s.value.modelId}|${seriesKey(s.value)}`;
    const list = bySeries.get(key);
    if (list) list.push(s);
    else bySeries.set(key, [s]);
  }
  const points = recorded.filter((p) => p.recordedBy.startsWith("upstream:"));
  const ended = new Map<string, string>();
  const gaps = new Map<string, [string, string][]>();
  for (const [key, list] of bySeries) {
    list.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
    let previous: Span<PublishedPrice> | undefined;
    for (const span of list) {
      // A price removed and published again later: the days between are a gap of the series.
      const reopened = previous?.to != null && previous.to < span.from;
      if (reopened) gaps.set(key, [...(gaps.get(key) ?? []), [previous!.to!.slice(0, 10), span.from.slice(0, 10)]]);
      if (span.value.amount !== previous?.value.amount || reopened) points.push(pointOf(span.value, span.from));
      previous = span;
    }
    const last = list[list.length - 1]!;
    if (last.to !== null) ended.set(key, last.to.slice(0, 10));
  }
  return { points, ended, gaps };
}

/** The history point of a direct price first published by version `from` (ISO). */
function pointOf(p: PublishedPrice, from: string): HistoryPoint {
  return {
    modelId: p.modelId,
    seriesKey: seriesKey(p),
    label: p.label,
    displayUnit: p.displayUnit,
    date: from.slice(0, 10),
    amount: p.amount,
    seq: Date.parse(from) % DAY_MS,
    recordedBy: `run-${from}`,
  };
}
