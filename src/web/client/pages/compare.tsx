import { useEffect, useMemo, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { getJson, modelIdsParam, modelPage, modelPath, query, useApi } from "../api.js";
import { AtPicker, PastNotice, usePageAt } from "../components/at-picker.js";
import { ColumnHeads } from "../components/data-table.js";
import { AddModel } from "../components/model-picker.js";
import { Page } from "../components/page.js";
import { DimensionLabel, PriceCell } from "../components/price-cell.js";
import { Loading, WhenLoaded } from "../components/status.js";
import { type ChartLine, LINE_COLORS, LINE_DASHES, StepChart } from "../components/step-chart.js";
import { TableWrap } from "../components/table-wrap.js";
import { formatCount, formatDate, headline } from "../format.js";
import type { Envelope, HistorySeries, Model, Price } from "../types.js";

/** `/compare` takes 2 to 8 ids (api-v1.md). */
const MAX_MODELS = 8;

/**
 * Compare (issue 18 §3): 2–8 models side by side (`/compare`), one column each, and a chart of
 * their input prices and one of their output prices over time, each model in its own colour and
 * dash (T208). The ids and `at` live in the URL; ids beyond the eighth are named, not dropped.
 */
export function ComparePage() {
  const { query: params, route } = useLocation();
  const at = usePageAt();
  const asked = useMemo(() => modelIdsParam(params.models), [params.models]);
  const ids = asked.slice(0, MAX_MODELS);
  const dropped = asked.slice(MAX_MODELS);
  const [refused, setRefused] = useState<string | null>(null);
  const setIds = (next: readonly string[], day: string | null = at) =>
    route(`/compare${query({ models: next.join(",") || null, at: day })}`, true);
  const compared = useApi<Model[], { found: number; requested: number }>(
    ids.length >= 2 ? `/compare${query({ models: ids.join(","), at })}` : null,
  );

  return (
    <Page id="compare" title="Compare models">
      <search class="filters">
        <AddModel
          ids={ids}
          max={MAX_MODELS}
          placeholder="e.g. sonnet, gpt-4o"
          onAdd={(next) => {
            setRefused(null);
            setIds(next);
          }}
          onFull={setRefused}
        />
        <AtPicker at={at} onChange={(day) => setIds(ids, day)} />
      </search>
      {dropped.length > 0 || refused ? (
        <p class="error" role="alert">
          Compare takes up to {MAX_MODELS} models: {[...dropped, ...(refused ? [refused] : [])].join(", ")}{" "}
          {dropped.length + (refused ? 1 : 0) === 1 ? "was" : "were"} left out. Remove one to add another.
        </p>
      ) : null}
      <PastNotice at={at} version={compared.state === "ok" ? compared.data.meta.datasetVersion : undefined} />
      {ids.length > 0 ? (
        <ul class="chips" aria-label="Models compared">
          {ids.map((id) => (
            <li key={id}>
              <a href={modelPage(id, at)}>{id}</a>{" "}
              <button type="button" aria-label={`Remove ${id}`} onClick={() => setIds(ids.filter((x) => x !== id))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {ids.length < 2 ? <p>Pick at least two models to compare (up to eight).</p> : null}
      {ids.length >= 2 ? (
        <WhenLoaded what="the comparison" loaded={compared}>
          {({ data, meta }) => (
            <Comparison models={data} requested={ids} until={formatDate(meta.datasetVersion)} at={at} />
          )}
        </WhenLoaded>
      ) : null}
    </Page>
  );
}

function Comparison(props: {
  readonly models: readonly Model[];
  readonly requested: readonly string[];
  readonly until: string;
  readonly at: string | null;
}) {
  const { models } = props;
  const missing = props.requested.filter((id) => !models.some((m) => m.id === id));
  const seen = new Map<string, { label: string; displayUnit: string }>();
  for (const m of models)
    for (const p of m.prices) if (!seen.has(key(p))) seen.set(key(p), { label: p.label, displayUnit: p.displayUnit });
  const facts: [string, (m: Model) => string][] = [
    ["Maker", (m) => m.provider],
    ["Context window", (m) => formatCount(m.contextWindow)],
    ["Max output", (m) => formatCount(m.maxOutputTokens)],
    ["Lifecycle", (m) => m.lifecycle.state],
    ["Released", (m) => m.lifecycle.releasedOn ?? "—"],
  ];
  return (
    <>
      {missing.length > 0 ? (
        <p class="error">
          Not in the catalogue{props.at ? ` on ${props.at}` : ""}: {missing.join(", ")}.
        </p>
      ) : null}
      <section aria-labelledby="side-title">
        <h2 id="side-title">Side by side</h2>
        <p class="muted">The makers' own prices.</p>
        <TableWrap label="Models side by side">
          <table class="compare" data-testid="compare-table">
            <caption class="visually-hidden">The makers' prices of the compared models</caption>
            <thead>
              <tr>
                <td />
                {models.map((m) => (
                  <th scope="col" key={m.id} data-model={m.id}>
                    <a href={modelPage(m.id, props.at)}>{m.name}</a>
                    <div class="muted">{m.id}</div>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {facts.map(([name, value]) => (
                <tr key={name}>
                  <th scope="row">{name}</th>
                  {models.map((m) => (
                    <td key={m.id}>{value(m)}</td>
                  ))}
                </tr>
              ))}
              {[...seen.entries()].map(([k, row]) => (
                <tr key={k}>
                  <th scope="row">
                    <DimensionLabel label={row.label} displayUnit={row.displayUnit} />
                  </th>
                  {models.map((m) => (
                    <PriceCell key={m.id} price={m.prices.find((x) => key(x) === k)} />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </section>
      <CompareChart models={models} until={props.until} />
    </>
  );
}

const key = (p: Price) => `${p.label}|${p.displayUnit}`;

/**
 * The input prices of the models over time in one chart and their output prices in another (T123,
 * T208): each model keeps its colour and dash pattern in both, so overlapping lines stay apart.
 */
function CompareChart(props: { readonly models: readonly Model[]; readonly until: string }) {
  const { models } = props;
  const histories = useHistories(models);
  const charts = useMemo(() => {
    if (!histories) return null;
    return (["input", "output"] as const).map((direction) => {
      const lines: ChartLine[] = [];
      models.forEach((m, i) => {
        const price = headline(m.prices, direction);
        const series =
          price && histories[i]?.find((s) => s.label === price.label && s.displayUnit === price.displayUnit);
        if (series)
          lines.push({
            label: m.name,
            points: series.points,
            color: LINE_COLORS[i % LINE_COLORS.length]!,
            dash: LINE_DASHES[i % LINE_DASHES.length],
          });
      });
      return { direction, lines };
    });
  }, [histories, models]);
  const units = new Set(
    models.flatMap((m) => [headline(m.prices, "input"), headline(m.prices, "output")]).map((p) => p?.displayUnit),
  );
  units.delete(undefined);
  const unit = units.size === 1 ? [...units][0]! : "USD per 1M tokens";
  return (
    <section aria-labelledby="compare-chart-title">
      <h2 id="compare-chart-title">Input and output prices over time</h2>
      {units.size > 1 ? (
        <p class="error">
          These models are billed in different units ({[...units].join(", ")}); amounts are not converted.
        </p>
      ) : null}
      {charts === null ? <Loading what="price histories" /> : null}
      {charts?.every((c) => c.lines.length === 0) ? <p>No input or output price history for these models.</p> : null}
      <div class="charts wide-charts">
        {(charts ?? [])
          .filter((c) => c.lines.length > 0)
          .map(({ direction, lines }) => (
            <ChartCard key={direction} direction={direction} lines={lines} until={props.until} unit={unit} />
          ))}
      </div>
    </section>
  );
}

/** The price histories of `models`, in their order (null while loading; none for each when they fail). */
function useHistories(models: readonly Model[]): HistorySeries[][] | null {
  const [histories, setHistories] = useState<HistorySeries[][] | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    setHistories(null);
    Promise.all(
      models.map((m) =>
        getJson<Envelope<HistorySeries[]>>(`${modelPath(m.id)}/history`, controller.signal).then(
          ({ body }) => body.data,
        ),
      ),
    ).then(setHistories, () => {
      if (!controller.signal.aborted) setHistories(models.map(() => []));
    });
    return () => controller.abort();
  }, [models]);
  return histories;
}

/** One direction's chart of the models' lines, with every line's points as a table behind a disclosure. */
function ChartCard(props: {
  readonly direction: "input" | "output";
  readonly lines: readonly ChartLine[];
  readonly until: string;
  readonly unit: string;
}) {
  const { direction, lines, unit } = props;
  return (
    <figure class="chart-card" data-direction={direction}>
      <figcaption>
        <strong>{direction === "input" ? "Input" : "Output"}</strong> <span class="muted">{unit}</span>
      </figcaption>
      <StepChart
        lines={lines}
        until={props.until}
        height={240}
        unit={unit}
        name={`${direction === "input" ? "Input" : "Output"} price history of ${lines.map((l) => l.label).join(", ")}, ${unit}`}
      />
      <details>
        <summary>Points of every line</summary>
        <table>
          <ColumnHeads columns={["Model", "Points (from date: amount)"]} />
          <tbody>
            {lines.map((line) => (
              <tr key={line.label}>
                <th scope="row">{line.label}</th>
                <td>{line.points.map(([d, a]) => `${d}: ${a}`).join("; ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
