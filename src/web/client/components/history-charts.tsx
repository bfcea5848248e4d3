import { useMemo } from "preact/hooks";
import { formatDate } from "../format.js";
import type { HistorySeries } from "../types.js";
import { ColumnHeads, numeric } from "./data-table.js";
import { type ChartLine, LINE_COLORS, StepChart } from "./step-chart.js";

const POINT_COLUMNS = ["From", numeric("Amount")];

/** A price announced after the served one (T335), as a series' future point (T364). */
export interface AnnouncedPoint {
  readonly label: string;
  readonly displayUnit: string;
  /** `YYYY-MM-DD`, the day it takes effect. */
  readonly day: string;
  readonly amount: number;
}

/**
 * A history chart per dimension (issue 18 §2, D17): one small step chart per series of
 * `/models/{p}/{m}/history`, each with its points as a table for screen readers. Input and output
 * come first; the other dimensions are folded (issue 28 §6).
 */
export function HistoryCharts(props: {
  readonly series: readonly HistorySeries[];
  readonly until: string;
  /** The maker's prices announced from a later day: each drawn dashed after its series (T364). */
  readonly announced?: readonly AnnouncedPoint[];
}) {
  if (props.series.length === 0) return <p>No price history for this model.</p>;
  const ordered = [...props.series].sort((a, b) => rank(a.label) - rank(b.label) || a.label.localeCompare(b.label));
  const first = ordered.filter((s) => rank(s.label) < 2);
  const rest = ordered.filter((s) => rank(s.label) >= 2);
  const chart = (s: HistorySeries, i: number) => (
    <SeriesChart
      key={`${s.label}|${s.displayUnit}`}
      series={s}
      until={props.until}
      color={LINE_COLORS[i % 8]!}
      announced={props.announced?.find((a) => a.label === s.label && a.displayUnit === s.displayUnit) ?? null}
    />
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

/**
 * One series' chart and its points; an announced price (T364) continues the line dashed from the
 * chart's end to its day, labelled "(announced)", and is the table's last row.
 */
function SeriesChart(props: {
  readonly series: HistorySeries;
  readonly until: string;
  readonly color: string;
  readonly announced: AnnouncedPoint | null;
}) {
  const s = props.series;
  const next = props.announced && props.announced.day > props.until ? props.announced : null;
  const lines = useMemo((): ChartLine[] => {
    // T456: a removed price's line stops on the day it was no longer published.
    const own: ChartLine = { label: s.label, points: s.points, color: props.color, end: s.endedOn ?? undefined };
    const last = s.points[s.points.length - 1];
    if (!next || !last || s.endedOn) return [own];
    return [
      { ...own, end: props.until },
      {
        label: `${s.label} (announced)`,
        points: [
          [props.until, last[1]],
          [next.day, next.amount],
        ],
        color: props.color,
        dash: [4, 4],
      },
    ];
  }, [s, props.color, props.until, next]);
  const changes = s.points.length - 1;
  const name = `${s.label}, ${s.displayUnit}: ${s.points.map(([d, a]) => `${a} from ${d}`).join(", ")}${s.endedOn ? `; removed from ${s.endedOn}` : ""}`;
  return (
    <figure class="chart-card">
      <figcaption>
        <strong>{s.label}</strong> <span class="muted">{s.displayUnit}</span>
        <span class="muted"> · {changes === 0 ? "unchanged" : `${changes} change${changes === 1 ? "" : "s"}`}</span>
        {s.endedOn ? (
          <span class="muted" data-testid="series-ended">
            {" "}
            · no longer published from <time dateTime={s.endedOn}>{formatDate(s.endedOn)}</time>
          </span>
        ) : null}
      </figcaption>
      <StepChart
        lines={lines}
        until={next ? next.day : props.until}
        name={next ? `${name}; announced: ${next.amount} from ${next.day}` : name}
        unit={s.displayUnit}
        height={150}
      />
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
            {next ? (
              <tr class="announced" data-testid="announced-point">
                <td>
                  <time dateTime={next.day}>{next.day}</time> (announced)
                </td>
                <td class="num">{next.amount}</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
