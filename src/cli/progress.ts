import type { Dataset } from "../domain/dataset.js";
import type { IngestReporter } from "../ingest/run-ingest.js";

/**
 * Progress lines and a per-run summary for `tariff ingest` (issue 2 §6): observations per source,
 * models, prices, conflicts. Writes to the given stream (stderr by default, so stdout stays clean).
 */
export function consoleReporter(out: NodeJS.WritableStream = process.stderr): IngestReporter {
  return {
    skipped(date, reason) {
      out.write(`skip ${date}: ${reason}\n`);
    },
    sourceFailed(date, source, message) {
      out.write(`  ! ${date} ${source} failed: ${message}\n`);
    },
    published(dataset: Dataset, index: number, total: number, changes: number) {
      const s = dataset.run.summary;
      const bar = `[${"#".repeat(index)}${".".repeat(Math.max(0, total - index))}]`;
      const perSource = Object.entries(s.observations)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ");
      out.write(
        `${bar} ${index}/${total} ${dataset.run.datasetVersion} ${dataset.run.status}: ` +
          `${s.models} models, ${s.prices} prices, ${s.disputed} disputed, ${changes} changes; ` +
          `observations: ${perSource || "none"}\n`,
      );
    },
  };
}
