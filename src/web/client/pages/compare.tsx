import { useEffect, useMemo, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { getJson, modelPath, query, useApi } from "../api.js";
import { ColumnHeads } from "../components/data-table.js";
import { ModelPicker } from "../components/model-picker.js";
import { Page } from "../components/page.js";
import { DimensionLabel, PriceCell } from "../components/price-cell.js";
import { Loading, WhenLoaded } from "../components/status.js";
import { type ChartLine, LINE_COLORS, StepChart } from "../components/step-chart.js";
import { TableWrap } from "../components/table-wrap.js";
import { formatCount, formatDate, headline } from "../format.js";
import type { Envelope, HistorySeries, Model, Price } from "../types.js";

/** `/compare` takes 2 to 8 ids (api-v1.md). */
const MAX_MODELS = 8;

/**
 * Compare (issue 18 §3): 2–8 models side by side (`/compare`), one column each, and one chart of
 * their input and output prices over time (solid input, dashed output). The ids live in the URL.
 */
export function ComparePage() {
  const { query: params, route } = useLocation();
  const ids = useMemo(
    () => [...new Set((params.models ?? "").split(",").filter((id) => /^[^/]+\/[^/]+$/.test(id)))].slice(0, MAX_MODELS),
    [params.models],
  );
  const setIds = (next: readonly string[]) => route(`/compare${query({ models: next.join(",") || null })}`, true);
  const compared = useApi<Model[], { found: number; requested: number }>(
    ids.length >= 2 ? `/compare${query({ models: ids.join(",") })}` : null,
  );

  return (
    <Page id="compare" title="Compare models">
      <search class="filters">
        <ModelPicker
          label={ids.length >= MAX_MODELS ? "Compare up to 8 models" : "Add a model"}
          placeholder="e.g. sonnet, gpt-4o"
          clearOnPick
          onPick={(s) => {
            if (!ids.includes(s.id) && ids.length < MAX_MODELS) setIds([...ids, s.id]);
          }}
        />
      </search>
      {ids.length > 0 ? (
        <ul class="chips" aria-label="Models compared">
          {ids.map((id) => (
            <li key={id}>
              <a href={`/m/${id}`}>{id}</a>{" "}
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
          {({ data, meta }) => <Comparison models={data} requested={ids} until={formatDate(meta.datasetVersion)} />}
        </WhenLoaded>
      ) : null}
    </Page>
  );
}

function Comparison(props: {
  readonly models: readonly Model[];
  readonly requested: readonly string[];
  readonly until: string;
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
      {missing.length > 0 ? <p class="error">Not in the catalogue: {missing.join(", ")}.</p> : null}
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
                    <a href={`/m/${m.id}`}>{m.name}</a>
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

/** Input (solid) and output (dashed) price of each model over time, in one chart. */
function CompareChart(props: { readonly models: readonly Model[]; readonly until: string }) {
  const [histories, setHistories] = useState<HistorySeries[][] | null>(null);
  const { models } = props;
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
  const lines = useMemo(() => {
    if (!histories) return null;
    const out: ChartLine[] = [];
    models.forEach((m, i) => {
      for (const direction of ["input", "output"] as const) {
        const price = headline(m.prices, direction);
        const series =
          price && histories[i]?.find((s) => s.label === price.label && s.displayUnit === price.displayUnit);
        if (series)
          out.push({
            label: `${m.name} ${direction}`,
            points: series.points,
            color: LINE_COLORS[i % LINE_COLORS.length]!,
            dashed: direction === "output",
          });
      }
    });
    return out;
  }, [histories, models]);
  const units = new Set(
    models.flatMap((m) => [headline(m.prices, "input"), headline(m.prices, "output")]).map((p) => p?.displayUnit),
  );
  units.delete(undefined);
  const unit = units.size === 1 ? [...units][0]! : "per 1M tokens";
  return (
    <section aria-labelledby="compare-chart-title">
      <h2 id="compare-chart-title">Input and output prices over time</h2>
      {units.size > 1 ? (
        <p class="error">
          These models are billed in different units ({[...units].join(", ")}); amounts are not converted.
        </p>
      ) : null}
      {lines === null ? <Loading what="price histories" /> : null}
      {lines !== null && lines.length === 0 ? <p>No input or output price history for these models.</p> : null}
      {lines !== null && lines.length > 0 ? (
        <figure class="chart-card wide">
          <figcaption>{unit}: solid lines input, dashed lines output</figcaption>
          <StepChart
            lines={lines}
            until={props.until}
            height={300}
            name={`Input and output price history of ${models.map((m) => m.name).join(", ")}, ${unit}`}
          />
          <details>
            <summary>Points of every line</summary>
            <table>
              <ColumnHeads columns={["Line", "Points (from date: amount)"]} />
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
      ) : null}
    </section>
  );
}
