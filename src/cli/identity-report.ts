import type { UnmatchedRow } from "../domain/dataset.js";

/** Filters of `tariff identity --unmatched` (issue 12 §4). */
export interface UnmatchedFilter {
  readonly source?: string;
  /** A word the reason must contain (`maker`, `moving`, `router`…). */
  readonly reason?: string;
}

/**
 * The unmatched listings of a run as a maintainer reads them: one line per listing with source,
 * seller, spelling, the reason and the nearest model, grouped by source, then a count per reason and
 * one per source.
 * Rows come from the run record (`RunSummary.unmatched`).
 */
export function formatUnmatched(rows: readonly UnmatchedRow[], filter: UnmatchedFilter = {}): string {
  const kept = selectUnmatched(rows, filter);
  const lines = [`${kept.length} unmatched listing(s)${describe(filter)}`];
  const width = Math.min(60, Math.max(10, ...kept.map((r) => r.model.length)));
  for (const r of kept)
    lines.push(
      `${r.source.padEnd(18)} ${r.seller.padEnd(24)} ${r.model.padEnd(width)}  ${r.reason}${r.nearest ? `  (nearest: ${r.nearest})` : ""}`,
    );
  const reasons = new Map<string, number>();
  const sources = new Map<string, number>();
  for (const r of kept) {
    const head = r.reason
      .replace(/^[a-z0-9-]+ model not listed/, "model not listed")
      .replace(/names no [a-z0-9-]+ model/, "names no model of its maker");
    reasons.set(head, (reasons.get(head) ?? 0) + 1);
    sources.set(r.source, (sources.get(r.source) ?? 0) + 1);
  }
  const byCount = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  lines.push("", "by reason:");
  for (const [reason, n] of byCount(reasons)) lines.push(`${String(n).padStart(6)}  ${reason}`);
  // (issue 25 §7: the counts per source the run summary and /sources unmatchedLastRun give)
  lines.push("", "by source:");
  for (const [source, n] of byCount(sources)) lines.push(`${String(n).padStart(6)}  ${source}`);
  return `${lines.join("\n")}\n`;
}

/** The rows a filter keeps, sorted by source, seller and spelling. */
export function selectUnmatched(rows: readonly UnmatchedRow[], filter: UnmatchedFilter = {}): UnmatchedRow[] {
  return rows
    .filter(
      (r) => (!filter.source || r.source === filter.source) && (!filter.reason || r.reason.includes(filter.reason)),
    )
    .sort((a, b) => cmp(a.source, b.source) || cmp(a.seller, b.seller) || cmp(a.model, b.model));
}

function describe(filter: UnmatchedFilter): string {
  const parts = [
    filter.source ? `source ${filter.source}` : "",
    filter.reason ? `reason containing "${filter.reason}"` : "",
  ];
  const text = parts.filter(Boolean).join(", ");
  return text ? ` (${text})` : "";
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
