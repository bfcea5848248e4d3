import { useMemo } from "preact/hooks";
import { formatDate } from "../format.js";
import type { HistorySeries } from "../types.js";
import { ColumnHeads, numeric } from "./data-table.js";
import { type ChartLine, LINE_COLORS, StepChart } from "./step-chart.js";

const POINT_COLUMNS = ["From", numeric("Amount")];

/**
 * A history chart per dimension (issue 18 §2, D17): one small step chart per series of
 * `/models/{p}/{m}/history`, each with its points as a table for screen readers. Input and output
 * come first; the other dimensions are folded (issue 28 §6).
 */
export function HistoryCharts(props: { readonly series: readonly HistorySeries[]; readonly until: string }) {
  if (props.series.length === 0) return <p>No price history for this model.</p>;
  const ordered = [...props.series].sort((a, b) => rank(a.label) - rank(b.label) || a.label.localeCompare(b.label));
  const first = ordered.filter((s) => rank(s.label) < 2);
  const rest = ordered.filter((s) => rank(s.label) >= 2);
  const chart = (s: HistorySeries, i: number) => (
    <SeriesChart key={`${s.label}|${s.displayUnit}`} series={s} until={props.until} color={LINE_COLORS[i % 8]!} />
  );
  return (
    <>
      <div class="charts">{first.map(chart)}</div>
      {rest.length > 0 ? (
        <details class="more-charts">
          <summary>History of the other {rest.length} prices</summary>
          <div class="charts">{rest.map((s, i) => chart(s, i + first.length))}</div>
        </details>
      ) : null}
    </>
  );
}

function rank(label: string): number {
  if (label === "Input") return 0;
  if (label === "Output") return 1;
  return 2;
}

function SeriesChart(props: { readonly series: HistorySeries; readonly until: string; readonly color: string }) {
  const s = props.series;
  const lines = useMemo(
    (): ChartLine[] => [{ label: s.label, points: s.points, color: props.color }],
    [s, props.color],
  );
  const changes = s.points.length - 1;
  const name = `${s.label}, ${s.displayUnit}: ${s.points.map(([d, a]) => `${a} from ${d}`).join(", ")}`;
  return (
    <figure class="chart-card">
      <figcaption>
        <strong>{s.label}</strong> <span class="muted">{s.displayUnit}</span>
        <span class="muted"> · {changes === 0 ? "unchanged" : `${changes} change${changes === 1 ? "" : "s"}`}</span>
      </figcaption>
      <StepChart lines={lines} until={props.until} name={name} unit={s.displayUnit} height={150} />
      <details>
        <summary>Points of {s.label}</summary>
        <table>
          <ColumnHeads columns={POINT_COLUMNS} />
          <tbody>
            {s.points.map(([date, amount], i) => (
              <tr key={`${date}|${i}`}>
                <td>
                  <time dateTime={date}>{formatDate(date)}</time>
                </td>
                <td class="num">{amount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
