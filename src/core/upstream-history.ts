import type { HistoryPoint } from "../domain/change.js";
import type { DatedPrice } from "../domain/dated-price.js";
import { seriesKey } from "../domain/dimension.js";
import type { SourceId } from "../domain/observation.js";
import { displayUnit } from "../domain/unit.js";
import type { SpellingIndex } from "./build-dataset.js";
import { baseLabel } from "./labels.js";

/** Last amount per `modelId|seriesKey` among recorded (not upstream-dated) points. */
export function lastPointIndex(points: readonly HistoryPoint[]): Map<string, number> {
  const last = new Map<string, number>();
  for (const p of points) if (!p.recordedBy.startsWith("upstream:")) last.set(`${p.modelId}|${p.seriesKey}`, p.amount);
  return last;
}

/**
 * History points from an upstream's own dated prices (llm-prices `historical-v1.json`), for the
 * direct channel and only for dates before our first run: each row becomes a point on its
 * `fromDate`. Rows without `fromDate` cannot be dated and give no point. Re-publishing the same
 * point is a no-op in the store, so this is idempotent.
 */
export function upstreamPoints(
  dated: readonly { source: SourceId; rows: readonly DatedPrice[] }[],
  spellings: SpellingIndex,
  firstRunDate: string,
): HistoryPoint[] {
  const points: HistoryPoint[] = [];
  for (const { source, rows } of dated) {
    for (const row of rows) {
      if (row.fromDate === null || row.fromDate >= firstRunDate) continue;
      const at = spellings.get(`${source}|${row.seller}|${row.model}`);
      if (at?.channel !== "direct") continue;
      points.push({
        modelId: at.modelId,
        seriesKey: seriesKey({ ...row.dimension, unit: row.unit }),
        label: baseLabel(row.dimension),
        displayUnit: displayUnit(row.unit, row.denomination, row.currency),
        date: row.fromDate,
        amount: row.amount,
        seq: 0,
        recordedBy: `upstream:${source}`,
      });
    }
  }
  return points;
}
