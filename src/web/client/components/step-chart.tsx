import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

/** One line of a {@link StepChart}: `[date, amount]` points, one per change (D17). */
export interface ChartLine {
  readonly label: string;
  readonly points: readonly (readonly [string, number])[];
  readonly color: string;
  /** A dash pattern (canvas `setLineDash`), or solid. */
  readonly dash?: readonly number[] | undefined;
  /** The last date the line is drawn to (a published price before an announced one, T364); else the chart's end. */
  readonly end?: string | undefined;
}

/** Colours of lines, each at least 4.5:1 on white. */
export const LINE_COLORS = ["#1d4ed8", "#b91c1c", "#047857", "#a16207", "#7e22ce", "#0e7490", "#be185d", "#374151"];

/**
 * Dash patterns, so lines that lie on top of each other stay distinguishable (issue 28 §7, T208):
 * the first solid, the others dashed differently and drawn thinner over it.
 */
export const LINE_DASHES: readonly (readonly number[] | undefined)[] = [
  undefined,
  [8, 4],
  [2, 3],
  [12, 4, 2, 4],
  [4, 4],
  [16, 6],
  [1, 5],
  [8, 3, 1, 3],
];

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
      return line.end !== undefined && date > line.end ? null : current;
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
 * An axis tick (`$3`, `$0.25`) or a hover value (`$3.00`, as amounts show elsewhere) in the unit's
 * currency, or a plain number for credits.
 */
function moneyFormat(currency: string | null, minimumFractionDigits: number): (v: number) => string {
  const format = currency
    ? new Intl.NumberFormat("en", { style: "currency", currency, minimumFractionDigits, maximumFractionDigits: 6 })
    : new Intl.NumberFormat("en", { maximumFractionDigits: 6 });
  return (v) => format.format(v);
}

/** The currency a display unit names ("USD per 1M tokens" → USD), or null (credits). */
export function unitCurrency(displayUnit: string): string | null {
  const code = displayUnit.split(" ")[0] ?? "";
  return /^[A-Z]{3}$/.test(code) && code !== "XXX" ? code : null;
}

/**
 * A uPlot step chart of price lines (D17: one point per change; T123). The y axis is labelled
 * with the unit and its ticks carry the currency; hovering (or tapping) shows each line's value on
 * that day in the legend (T208). The canvas is an image with a text name; the caller gives the same
 * numbers as a table for screen readers.
 */
export function StepChart(props: {
  readonly lines: readonly ChartLine[];
  /** Draw the lines up to this date (the dataset version's day). */
  readonly until: string;
  /** The image's accessible name. */
  readonly name: string;
  /** The display unit of every line, e.g. "USD per 1M tokens". */
  readonly unit: string;
  readonly height?: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  const { lines, until, unit, height = 180 } = props;
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const data = alignLines(lines, until);
    const tick = moneyFormat(unitCurrency(unit), 0);
    const money = moneyFormat(unitCurrency(unit), 2);
    const options: uPlot.Options = {
      width: Math.max(240, el.clientWidth),
      height,
      scales: { x: { time: true }, y: { range: (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.15 : 1] } },
      axes: [
        { stroke: "#1f2937", grid: { stroke: "#e5e7eb" }, ticks: { stroke: "#9ca3af" } },
        {
          stroke: "#1f2937",
          grid: { stroke: "#e5e7eb" },
          ticks: { stroke: "#9ca3af" },
          size: 64,
          label: unit,
          labelSize: 20,
          labelFont: "12px system-ui, sans-serif",
          values: (_u, splits) => {
            const ticks = splits.map((v) => tick(v));
            // The ticks are drawn on the canvas; the element names them too (tests, and a check by eye in dev tools).
            el.dataset.yTicks = ticks.join(" | ");
            return ticks;
          },
        },
      ],
      cursor: { drag: { x: false, y: false }, points: { size: 8 } },
      legend: { show: true, live: true },
      series: [
        { label: "Date", value: (_u, v) => (v == null ? "—" : new Date(v * 1000).toISOString().slice(0, 10)) },
        ...lines.map(
          (line, i): uPlot.Series => ({
            label: line.label,
            stroke: line.color,
            width: i === 0 ? 2.5 : 2,
            dash: line.dash ? [...line.dash] : undefined,
            paths: uPlot.paths.stepped!({ align: 1 }),
            value: (_u, v) => (v == null ? "—" : money(v)),
            points: { show: true, size: 6, fill: line.color, filter: (u, si) => changeIndices(u.data[si] ?? []) },
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
  }, [lines, until, height, unit]);
  return <div class="chart" ref={box} role="img" aria-label={props.name} style={{ minHeight: `${height + 40}px` }} />;
}
