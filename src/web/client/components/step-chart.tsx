import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

/** One line of a {@link StepChart}: `[date, amount]` points, one per change (D17). */
export interface ChartLine {
  readonly label: string;
  readonly points: readonly (readonly [string, number])[];
  readonly color: string;
  /** Dashed (compare: output) or solid. */
  readonly dashed?: boolean;
}

/** Colours of lines, each at least 4.5:1 on white. */
export const LINE_COLORS = ["#1d4ed8", "#b91c1c", "#047857", "#a16207", "#7e22ce", "#0e7490", "#be185d", "#374151"];

const seconds = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;

/**
 * Lines on one shared x: the union of the change dates and `until`; each line holds its last
 * amount until its next change (null before its first), so a step line drawn through the values
 * is the price as it stood on every day.
 */
export function alignLines(lines: readonly ChartLine[], until: string): uPlot.AlignedData {
  const dates = [...new Set([...lines.flatMap((l) => l.points.map(([d]) => d)), until])].sort();
  const ys = lines.map((line) => {
    let i = 0;
    let current: number | null = null;
    return dates.map((date) => {
      while (i < line.points.length && line.points[i]![0] <= date) current = line.points[i++]![1];
      return current;
    });
  });
  return [dates.map(seconds), ...ys];
}

/** Indices where a line changes (or starts): the only points drawn as dots. */
function changeIndices(values: ArrayLike<number | null | undefined>): number[] {
  const out: number[] = [];
  for (let i = 0; i < values.length; i++)
    if (values[i] != null && (i === 0 || values[i] !== values[i - 1])) out.push(i);
  return out;
}

/**
 * A uPlot step chart of price lines (D17: one point per change; T123). The canvas is an image
 * with a text name; the caller gives the same numbers as a table for screen readers.
 */
export function StepChart(props: {
  readonly lines: readonly ChartLine[];
  /** Draw the lines up to this date (the dataset version's day). */
  readonly until: string;
  /** The image's accessible name. */
  readonly name: string;
  readonly height?: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  const { lines, until, height = 180 } = props;
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const data = alignLines(lines, until);
    const options: uPlot.Options = {
      width: Math.max(240, el.clientWidth),
      height,
      scales: { x: { time: true }, y: { range: (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.15 : 1] } },
      axes: [
        { stroke: "#1f2937", grid: { stroke: "#e5e7eb" }, ticks: { stroke: "#9ca3af" } },
        // The unit is in the chart's caption; the axis keeps the width for its numbers.
        { stroke: "#1f2937", grid: { stroke: "#e5e7eb" }, ticks: { stroke: "#9ca3af" }, size: 56 },
      ],
      cursor: { drag: { x: false, y: false } },
      legend: { show: lines.length > 1 },
      series: [
        { label: "Date" },
        ...lines.map(
          (line): uPlot.Series => ({
            label: line.label,
            stroke: line.color,
            width: 2,
            dash: line.dashed ? [6, 4] : undefined,
            paths: uPlot.paths.stepped!({ align: 1 }),
            points: { show: true, size: 6, fill: line.color, filter: (u, i) => changeIndices(u.data[i] ?? []) },
          }),
        ),
      ],
    };
    const chart = new uPlot(options, data, el);
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(240, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [lines, until, height]);
  return <div class="chart" ref={box} role="img" aria-label={props.name} />;
}
