import type { HistoryPoint } from "../domain/change.js";
import type { Dataset } from "../domain/dataset.js";
import { seriesKey } from "../domain/dimension.js";
import type { CatalogueRecord, ModelEntry, SeriesEntry } from "./view.js";

/**
 * The history series of every model (D17) from the record's points. A former id's points belong to
 * the model it became (issue 12 §11: one history across renames), but only before the model's own
 * first point (T456): after it, they are another id's prices, which `?at=` on the model never answers;
 * and only from one former id (several are an alias family, each its own prices).
 */
export function buildHistory(
  record: CatalogueRecord,
  dataset: Dataset,
  byId: ReadonlyMap<string, ModelEntry>,
  aliasOf: ReadonlyMap<string, string>,
): Map<string, SeriesEntry[]> {
  const last = dataset.run.datasetVersion.slice(0, 10);
  const firstOwn = new Map<string, string>();
  for (const p of record.history)
    if (byId.has(p.modelId) && p.date < (firstOwn.get(p.modelId) ?? "9999")) firstOwn.set(p.modelId, p.date);
  // Several former ids of one model are an alias family, not a rename: none of them is its history.
  const formers = new Map<string, Set<string>>();
  for (const p of record.history) {
    const target = byId.has(p.modelId) ? undefined : aliasOf.get(p.modelId);
    if (target !== undefined) formers.set(target, (formers.get(target) ?? new Set()).add(p.modelId));
  }
  const bySeries = new Map<string, SeriesPoints>();
  for (const raw of record.history) {
    const own = byId.has(raw.modelId);
    const modelId = own ? raw.modelId : aliasOf.get(raw.modelId);
    if (modelId === undefined || !byId.has(modelId) || raw.date > last) continue;
    if (!own && (raw.date >= (firstOwn.get(modelId) ?? "9999") || formers.get(modelId)!.size > 1)) continue;
    const key = `${modelId}|${raw.seriesKey}`;
    const p = own ? raw : { ...raw, modelId };
    const entry = bySeries.get(key) ?? { points: [], own: false };
    entry.points.push(p);
    if (own) {
      entry.own = true;
      if (!raw.recordedBy.startsWith("upstream:") && raw.date < (entry.ownFirst ?? "9999")) entry.ownFirst = raw.date;
    } else entry.former = `${raw.modelId}|${raw.seriesKey}`;
    bySeries.set(key, entry);
  }
  return seriesByModel(bySeries, dataset, record);
}

/** One series' points, the key of the series they were recorded under and, if any, the former id's series. */
interface SeriesPoints {
  readonly points: HistoryPoint[];
  /** The model published this series under its own id (else only a former id did, T456). */
  own: boolean;
  former?: string;
  /** The first day of the model's own (run-recorded) points in this series. */
  ownFirst?: string;
}

/**
 * The days a series was not published (T456): its own gaps, and the days between a former id's last
 * day and the model's own first point (a rename with a pause between).
 */
function seriesGaps(
  record: CatalogueRecord,
  own: string | undefined,
  former: string | undefined,
  ownFirst: string | undefined,
): (readonly [string, string])[] {
  // A former id's gaps speak only before the model's own first point (T507): a former id that left
  // while the model priced itself, and came back, is no gap of the model's.
  const formerGaps = (former ? (record.gaps?.get(former) ?? []) : [])
    .filter(([from]) => ownFirst === undefined || from < ownFirst)
    .map(([from, to]): readonly [string, string] => [from, ownFirst !== undefined && to > ownFirst ? ownFirst : to]);
  const gaps = [...formerGaps, ...(own ? (record.gaps?.get(own) ?? []) : [])];
  const formerEnd = former && own ? record.ended?.get(former) : undefined;
  if (formerEnd && ownFirst && formerEnd < ownFirst) gaps.push([formerEnd, ownFirst]);
  return gaps.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** Sorts each series' points and names it with today's label (D27), ended where the record says so (T456). */
function seriesByModel(
  bySeries: ReadonlyMap<string, SeriesPoints>,
  dataset: Dataset,
  record: CatalogueRecord,
): Map<string, SeriesEntry[]> {
  // Current labels win (they are extended against today's dimensions, D27); retired series keep their last label.
  const currentLabel = new Map<string, string>();
  for (const p of dataset.prices) if (p.channel === "direct") currentLabel.set(`${p.modelId}|${seriesKey(p)}`, p.label);
  const result = new Map<string, SeriesEntry[]>();
  for (const [key, { points: list, own, former, ownFirst }] of bySeries) {
    list.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.seq - b.seq));
    const last = list[list.length - 1]!;
    const entry: SeriesEntry = {
      seriesKey: last.seriesKey,
      label: currentLabel.get(key) ?? last.label,
      displayUnit: last.displayUnit,
      points: list,
      // A series only a former id published ends when the former id's did (T507).
      endedOn: currentLabel.has(key) ? null : (record.ended?.get(own || !former ? key : former) ?? null),
      gaps: seriesGaps(record, own ? key : undefined, former, ownFirst),
    };
    const series = result.get(last.modelId);
    if (series) series.push(entry);
    else result.set(last.modelId, [entry]);
  }
  return result;
}
