import { envelope } from "./envelope.js";
import { moved, notFound } from "./errors.js";
import { HistoryQuery, type RawQuery, validateQuery } from "./params.js";
import type { ApiHistorySeries, Envelope } from "./shapes.js";
import { type CatalogueView, resolveModelId } from "./view.js";

/**
 * GET /models/{provider}/{model}/history (issue 3, D17): one series per direct-channel price
 * dimension, a point per change. Point rules of api-v1.md: equal consecutive amounts fold into the
 * first; two changes on one date are both kept, in order. `from`/`to` keep the points in the
 * inclusive range; a series left without points is omitted.
 * @throws CatalogueError bad_request for a bad date or from after to (checked first, D14); not_found with the id
 */
export function getModelHistory(
  view: CatalogueView,
  provider: string,
  model: string,
  raw: RawQuery,
): Envelope<ApiHistorySeries[]> {
  const query = validateQuery(HistoryQuery, raw);
  const id = `${provider}/${model}`;
  if (!view.byId.has(id)) {
    const target = resolveModelId(view, id);
    throw target ? moved(id, target) : notFound(id);
  }
  const data: ApiHistorySeries[] = [];
  for (const series of view.history.get(id) ?? []) {
    const folded: [string, number][] = [];
    for (const p of series.points) {
      if (folded.length > 0 && folded[folded.length - 1]![1] === p.amount) continue;
      folded.push([p.date, p.amount]);
    }
    const points = folded.filter(([date]) => (!query.from || date >= query.from) && (!query.to || date <= query.to));
    if (points.length > 0) data.push({ label: series.label, displayUnit: series.displayUnit, points });
  }
  return envelope(view, data, { model: id, granularity: "change" });
}
