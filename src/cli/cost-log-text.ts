import type { CostLogReport, GroupTotal, ReasonGroup } from "./cost-log-report.js";

/** The text report of `tariff cost <file>` for a terminal (T216, T345); `--json` prints the report itself. */

/** The reasons the text report lists one by one; the rest are summed in one line (T345). */
const MAX_REASONS_SHOWN = 12;
/** The lines a reason lists in the text report (the JSON lists all). */
const LINES_SHOWN = 5;

/** One reason of the text report: count, reason, the value left out, its days and first lines (T345). */
function reasonLine(g: ReasonGroup): string {
  const value: string[] = [];
  if (g.unpricedTokens > 0) value.push(`${g.unpricedTokens.toLocaleString("en")} tokens without a price`);
  if (g.unpricedCalls > 0) value.push(`${g.unpricedCalls.toLocaleString("en")} calls without a price`);
  const priced = Object.entries(g.pricedPart)
    .map(([k, v]) => `${k} ${v}`)
    .join(" + ");
  if (priced !== "") value.push(`priced lines ${priced}`);
  if (g.days) value.push(g.days[0] === g.days[1] ? g.days[0] : `${g.days[0]} … ${g.days[1]}`);
  const shown = g.lines.slice(0, LINES_SHOWN).join(", ");
  const more = g.lines.length > LINES_SHOWN ? ` and ${g.lines.length - LINES_SHOWN} more` : "";
  return `${g.count} × ${g.reason}${value.length > 0 ? ` — ${value.join("; ")}` : ""} (line ${shown}${more})`;
}

/** The report as text for a terminal: totals, then per model, channel and day, then what was not priced. */
export function formatReport(report: CostLogReport, file: string): string {
  const money = (totals: Readonly<Record<string, number>>) =>
    Object.keys(totals).length === 0
      ? "—"
      : Object.entries(totals)
          .map(([k, v]) => `${k} ${v}`)
          .join(" + ");
  const lines = [
    `${file}: ${report.records} record(s), ${report.priced} priced, ${report.unpriced} not priced` +
      (report.asModel ? ` — each priced as ${report.asModel}` : ""),
    `total: ${money(report.totals)}`,
    `prices of dataset version(s): ${
      Object.entries(report.versions)
        .map(([v, n]) => `${v} (${n})`)
        .join(", ") || "—"
    }`,
  ];
  const table = (title: string, groups: Readonly<Record<string, GroupTotal>>) => {
    const rows = Object.entries(groups);
    if (rows.length === 0) return;
    const width = Math.max(...rows.map(([k]) => k.length));
    lines.push("", `by ${title}:`);
    for (const [k, g] of rows) lines.push(`  ${k.padEnd(width)}  ${String(g.records).padStart(8)}  ${money(g.totals)}`);
  };
  const asUndated = Object.entries(report.pricedAsUndated);
  if (asUndated.length > 0) {
    lines.push("", "dated snapshots billed at their undated name's prices (T347):");
    for (const [k, n] of asUndated) lines.push(`  ${n} × ${k}`);
  }
  table("model", report.byModel);
  table("channel", report.byChannel);
  table("day", report.byDay);
  // T345: a short report — one line per reason (no day in a reason), the value left out beside it,
  // the first lines of each; `--json` lists every line.
  const groups = (title: string, list: readonly ReasonGroup[]) => {
    if (list.length === 0) return;
    lines.push("", title);
    for (const g of list.slice(0, MAX_REASONS_SHOWN)) lines.push(`  ${reasonLine(g)}`);
    if (list.length > MAX_REASONS_SHOWN) {
      const rest = list.slice(MAX_REASONS_SHOWN);
      lines.push(
        `  … ${rest.length} more reason(s), ${rest.reduce((n, g) => n + g.count, 0)} record(s): --json lists them all`,
      );
    }
  };
  groups(
    `priced but for a part (${report.partlyPriced} record(s); the totals leave the part out):`,
    report.unpricedParts,
  );
  groups(
    `not priced (${report.unpriced} record(s); the totals leave them out, their priced lines beside each reason):`,
    report.problems,
  );
  return `${lines.join("\n")}\n`;
}
