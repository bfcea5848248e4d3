import type { SourceHealth } from "../domain/dataset.js";
import type { SourceId } from "../domain/observation.js";
import type { BuildInput } from "./build-input.js";
import { cmp } from "./byte-order.js";
import type { SourceRejections } from "./screen-listings.js";

/**
 * Source health (D4, T75). A source parsed now reports this run; one that failed reports the
 * failure (0 rows); one absent from the run says so (`not_run`) and keeps the figures of the run
 * it last took part in (`lastRunAt`). `unmatchedLastRun` counts listings no model took (T65).
 */
export function buildHealth(
  input: BuildInput,
  rejected: ReadonlyMap<SourceId, SourceRejections>,
  unmatched: ReadonlyMap<SourceId, number>,
): SourceHealth[] {
  return input.sources
    .map((s): SourceHealth => {
      const prior = input.prior?.sources.get(s.source);
      const unmapped = s.unmapped ?? prior?.unmappedByField ?? {};
      if (s.fresh) {
        const r = rejected.get(s.source);
        return {
          source: s.source,
          lastSuccessAt: input.runTime,
          lastError: null,
          rowsLastRun: s.listings.reduce((n, l) => n + l.prices.length, 0),
          unmatchedLastRun: unmatched.get(s.source) ?? 0,
          lastRunStatus: "succeeded",
          lastRunAt: input.runTime,
          rejectedLastRun: r?.total ?? 0,
          rejectedByReason: sortedRecord(r?.byReason ?? {}),
          unmappedLastRun: Object.values(unmapped).reduce((n, c) => n + c, 0),
          unmappedByField: sortedRecord(unmapped),
        };
      }
      if (s.ran)
        return {
          source: s.source,
          lastSuccessAt: prior?.lastSuccessAt ?? null,
          lastError: s.error ? { at: input.runTime, message: s.error.message, httpStatus: s.error.httpStatus } : null,
          rowsLastRun: 0,
          unmatchedLastRun: 0,
          lastRunStatus: "failed",
          lastRunAt: input.runTime,
          rejectedLastRun: 0,
          rejectedByReason: {},
          unmappedLastRun: 0,
          unmappedByField: {},
        };
      return {
        source: s.source,
        lastSuccessAt: prior?.lastSuccessAt ?? null,
        lastError: prior?.lastError ?? null,
        rowsLastRun: prior?.rowsLastRun ?? 0,
        unmatchedLastRun: prior?.unmatchedLastRun ?? 0,
        lastRunStatus: "not_run",
        lastRunAt: prior?.lastRunAt ?? null,
        rejectedLastRun: prior?.rejectedLastRun ?? 0,
        rejectedByReason: prior?.rejectedByReason ?? {},
        unmappedLastRun: prior?.unmappedLastRun ?? 0,
        unmappedByField: prior?.unmappedByField ?? {},
      };
    })
    .sort((a, b) => cmp(a.source, b.source));
}

function sortedRecord(record: Readonly<Partial<Record<string, number>>>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(record)
      .filter((e): e is [string, number] => typeof e[1] === "number" && e[1] > 0)
      .sort(([a], [b]) => cmp(a, b)),
  );
}
