/**
 * When a model's price last moved (issue 38 §5, T344). Pure; the web model page's "Last price
 * change" reads it from the history the API serves (`/models/{id}/history`), so the summary, the
 * history charts and `/changes` tell one story.
 */

/** What the rule reads of a history series (api-v1.md "History series"): its label and `[date, amount]` points. */
export interface MoveSeries {
  readonly label: string;
  readonly points: readonly (readonly [string, number])[];
}

/** The answer: the newest move's date, or none since the first point. Dates YYYY-MM-DD. */
export interface LastMove {
  /** The newest date a series of the labels moved to another amount; null when none moved. */
  readonly changedOn: string | null;
  /** The earliest first point of those series: what "no change since" counts from; null without a series. */
  readonly since: string | null;
}

/**
 * The last move of the series named by `labels` (the listed input and output): a series' first
 * point is when the catalogue first saw the price, not a change; consecutive equal amounts are
 * folded by the API (point rule 2), so every later point of another amount is a move. With
 * `until` (YYYY-MM-DD), only the points up to that day count.
 */
export function lastPriceMove(series: readonly MoveSeries[], labels: readonly string[], until?: string): LastMove {
  let changedOn: string | null = null;
  let since: string | null = null;
  for (const s of series) {
    // With `until` (a page of a past day), the points after it had not happened yet.
    const points = until === undefined ? s.points : s.points.filter(([date]) => date <= until);
    if (!labels.includes(s.label) || points.length === 0) continue;
    const first = points[0]![0];
    if (since === null || first < since) since = first;
    for (let i = 1; i < points.length; i++) {
      const [date, amount] = points[i]!;
      if (amount !== points[i - 1]![1] && (changedOn === null || date > changedOn)) changedOn = date;
    }
  }
  return { changedOn, since };
}
