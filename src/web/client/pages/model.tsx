import { useEffect, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { API, getJson, modelPath, useApi } from "../api.js";
import { ConfidenceBadge, DisputedMark } from "../components/badges.js";
import { type Column, DataTable, numeric } from "../components/data-table.js";
import { DataAge } from "../components/freshness.js";
import { HistoryCharts } from "../components/history-charts.js";
import { DimensionLabel, PriceCell } from "../components/price-cell.js";
import { Failed, Loading, WhenLoaded } from "../components/status.js";
import { TableWrap } from "../components/table-wrap.js";
import { useDataset, useTitle } from "../dataset.js";
import { formatAmount, formatCount, formatDate } from "../format.js";
import type { ChannelInfo, Envelope, HistorySeries, Model, Price } from "../types.js";
import { NotFoundPage } from "./not-found.js";

/** Channels holding several sellers, each price with `qualifiers.seller` (D2). */
const MULTI_SELLER = new Set(["coding_plan", "token_plan", "other"]);

/** The prices of one channel for the model (empty when the channel does not sell it). */
interface ChannelPrices {
  readonly channel: ChannelInfo;
  readonly prices: readonly Price[];
}

/**
 * The model page (issue 18 §2), `/m/{provider}/{model}`: lifecycle and limits, every dimension in
 * every channel side by side, each price's evidence, and a history chart per dimension. An alias
 * follows the API's 308 and replaces the URL with the canonical one (T121); an unknown model is
 * the not-found page.
 */
export function ModelPage(props: { readonly params: { readonly provider: string; readonly model: string } }) {
  const { provider, model } = props.params;
  const path = modelPath(`${provider}/${model}`);
  const main = useApi<Model, { channel: string }>(path);
  const { route } = useLocation();
  const movedTo = main.state === "ok" ? main.movedTo : null;
  useEffect(() => {
    // An alias: the API answered 308 to the canonical model; the address bar follows it.
    const canonical = movedTo?.match(/^\/models\/([^/?]+\/[^/?]+)/)?.[1];
    if (canonical && canonical !== `${provider}/${model}`) route(`/m/${canonical}`, true);
  }, [movedTo]);

  if (main.state === "error" && main.error.status === 404) return <NotFoundPage modelId={`${provider}/${model}`} />;
  const loaded = main.state === "ok" && !movedTo ? main.data : null;
  // One heading element in every state, so the focus put on it by a navigation stays there (T125).
  return (
    <article aria-labelledby="model-title">
      <h1 id="model-title" tabIndex={-1}>
        {loaded ? loaded.data.name : `${provider}/${model}`}
      </h1>
      {main.state === "error" ? <Failed what="the model" error={main.error} /> : null}
      {loaded ? (
        <ModelView model={loaded.data} datasetVersion={loaded.meta.datasetVersion} />
      ) : main.state === "error" ? null : (
        <Loading what="the model" />
      )}
    </article>
  );
}

function ModelView(props: { readonly model: Model; readonly datasetVersion: string }) {
  const m = props.model;
  useTitle(`${m.name} prices`);
  const dataset = useDataset();
  const channels = useChannelPrices(m, dataset?.channels ?? null);
  const history = useApi<HistorySeries[]>(`${modelPath(m.id)}/history`);
  const ready = channels !== null && history.state !== "loading";
  useEffect(() => {
    // What the browser test measures as "interactive" (issue 18 Must show; T126).
    if (ready) performance.mark("tariff:model-ready");
  }, [ready]);

  return (
    <div data-ready={ready ? "true" : undefined}>
      <p class="lead">
        <code>{m.id}</code> · made by {m.provider} ·{" "}
        <span class={`badge state-${m.lifecycle.state}`}>{m.lifecycle.state}</span> ·{" "}
        <a href={`/compare?models=${m.id}`}>Compare with other models</a> ·{" "}
        <a href={`${API}${modelPath(m.id)}`}>JSON</a> · <DataAge />
      </p>
      <Facts model={m} />
      {channels === null ? <Loading what="prices in every channel" /> : <ChannelMatrix channels={channels} />}
      <section aria-labelledby="history-title">
        <h2 id="history-title">Price history</h2>
        <p class="muted">The maker's own prices; one point per change.</p>
        <WhenLoaded what="price history" loaded={history}>
          {({ data }) => <HistoryCharts series={data} until={formatDate(props.datasetVersion)} />}
        </WhenLoaded>
      </section>
      {channels === null ? null : <SellersAndEvidence channels={channels} />}
    </div>
  );
}

/** The model's prices in every channel of `/meta` (one request each), or null while loading. */
function useChannelPrices(model: Model, channels: readonly ChannelInfo[] | null): ChannelPrices[] | null {
  const [loaded, setLoaded] = useState<ChannelPrices[] | null>(null);
  useEffect(() => {
    if (!channels) return;
    const controller = new AbortController();
    setLoaded(null);
    Promise.all(
      channels.map(async (channel): Promise<ChannelPrices> => {
        if (channel.id === "direct") return { channel, prices: model.prices };
        const { body } = await getJson<Envelope<Model>>(
          `${modelPath(model.id)}?channel=${channel.id}`,
          controller.signal,
        );
        return { channel, prices: body.data.prices };
      }),
    ).then(setLoaded, () => {
      if (!controller.signal.aborted) setLoaded(channels.map((channel) => ({ channel, prices: [] })));
    });
    return () => controller.abort();
  }, [model, channels]);
  return loaded;
}

function Facts(props: { readonly model: Model }) {
  const m = props.model;
  const rows: [string, string][] = [
    ["Maker", m.provider],
    ["Family", m.family ?? "—"],
    ["Context window", m.contextWindow === null ? "—" : `${formatCount(m.contextWindow)} tokens`],
    ["Max output", m.maxOutputTokens === null ? "—" : `${formatCount(m.maxOutputTokens)} tokens`],
    ["Open weights", m.openWeights ? "yes" : "no"],
    ["Lifecycle", m.lifecycle.state],
    ["Released", m.lifecycle.releasedOn ?? "—"],
    ["Deprecated", m.lifecycle.deprecatedOn ?? "—"],
    ["Retires", m.lifecycle.retiresOn ?? "—"],
    ["First seen", formatDate(m.firstSeenAt)],
  ];
  return (
    <section aria-labelledby="facts-title">
      <h2 id="facts-title">Lifecycle and limits</h2>
      <dl class="facts">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** A dimension row of the channel matrix: its label and unit. */
interface Row {
  readonly key: string;
  readonly label: string;
  readonly displayUnit: string;
}

const rowKey = (p: Price) => `${p.label}|${p.displayUnit}`;

/** Every dimension in every single-seller channel (direct, the five resellers), side by side. */
function ChannelMatrix(props: { readonly channels: readonly ChannelPrices[] }) {
  const single = props.channels.filter((c) => !MULTI_SELLER.has(c.channel.id));
  const selling = single.filter((c) => c.prices.length > 0);
  const notSelling = props.channels.filter((c) => c.prices.length === 0).map((c) => c.channel.name);
  const seen = new Map<string, Row>();
  for (const c of selling)
    for (const p of c.prices)
      if (!seen.has(rowKey(p))) seen.set(rowKey(p), { key: rowKey(p), label: p.label, displayUnit: p.displayUnit });
  const rows = [...seen.values()];
  const cells = selling.map((c) => new Map(c.prices.map((p) => [rowKey(p), p] as const)));
  return (
    <section aria-labelledby="channels-title">
      <h2 id="channels-title">Prices by channel</h2>
      {notSelling.length > 0 ? <p class="muted">Not sold in: {notSelling.join(", ")}.</p> : null}
      {selling.length === 0 ? (
        <p>No channel with its own price list sells this model.</p>
      ) : (
        <TableWrap label="Prices by channel">
          <table class="matrix" data-testid="channel-matrix">
            <caption class="visually-hidden">Every price dimension in every channel that sells the model</caption>
            <thead>
              <tr>
                <th scope="col">Price</th>
                {selling.map((c) => (
                  <th scope="col" key={c.channel.id} data-channel={c.channel.id}>
                    {c.channel.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.key} data-key={row.key}>
                  <th scope="row">
                    <DimensionLabel label={row.label} displayUnit={row.displayUnit} />
                  </th>
                  {cells.map((byKey, i) => (
                    <PriceCell
                      key={selling[i]!.channel.id}
                      channel={selling[i]!.channel.id}
                      price={byKey.get(row.key)}
                      showStale
                    />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </section>
  );
}

/** The multi-seller channels (plans, other resellers), then the evidence of every price. */
function SellersAndEvidence(props: { readonly channels: readonly ChannelPrices[] }) {
  const multi = props.channels.filter((c) => MULTI_SELLER.has(c.channel.id) && c.prices.length > 0);
  return (
    <>
      {multi.length > 0 ? (
        <section aria-labelledby="sellers-title">
          <h2 id="sellers-title">Plans and other sellers</h2>
          {multi.map((c) => (
            <SellerTable key={c.channel.id} channel={c} />
          ))}
        </section>
      ) : null}
      <section aria-labelledby="evidence-title">
        <h2 id="evidence-title">Evidence</h2>
        <p class="muted">
          Which sources agree with each price and which dissent; the fallback is what would show if the primary source
          failed; a stale price is one its sources stopped confirming.
        </p>
        {props.channels
          .filter((c) => c.prices.length > 0)
          .map((c) => (
            <details key={c.channel.id} open={c.channel.id === "direct"}>
              <summary>
                {c.channel.name} ({c.prices.length} prices)
              </summary>
              <EvidenceTable channel={c} />
            </details>
          ))}
      </section>
    </>
  );
}

/**
 * A multi-seller channel (plans, other resellers) as a matrix: a row per seller, a column per
 * dimension (the label without its seller qualifier).
 */
function SellerTable(props: { readonly channel: ChannelPrices }) {
  const { channel, prices } = props.channel;
  const dimension = (p: Price) => `${p.label.replace(` (seller: ${p.qualifiers.seller})`, "")}|${p.displayUnit}`;
  const columns = new Map<string, { label: string; displayUnit: string }>();
  const sellers = new Map<string, Map<string, Price>>();
  for (const p of prices) {
    const key = dimension(p);
    if (!columns.has(key)) columns.set(key, { label: key.split("|")[0]!, displayUnit: p.displayUnit });
    const seller = p.qualifiers.seller ?? "—";
    const row = sellers.get(seller) ?? new Map<string, Price>();
    sellers.set(seller, row);
    row.set(key, p);
  }
  const sellerNames = [...sellers.keys()].sort();
  return (
    <TableWrap label={`${channel.name} by seller`}>
      <table class="matrix">
        <caption>
          {channel.name} ({sellerNames.length} sellers)
        </caption>
        <thead>
          <tr>
            <th scope="col">Seller</th>
            {[...columns.entries()].map(([key, c]) => (
              <th scope="col" key={key}>
                <DimensionLabel label={c.label} displayUnit={c.displayUnit} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sellerNames.map((seller) => (
            <tr key={seller}>
              <th scope="row">{seller}</th>
              {[...columns.keys()].map((key) => (
                <PriceCell key={key} price={sellers.get(seller)?.get(key)} showStale />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

const EVIDENCE_COLUMNS: readonly Column[] = [
  "Price",
  numeric("Amount"),
  "Confidence",
  "Agreeing sources",
  "Dissenting sources",
  numeric("Fallback"),
  "In effect since",
  "Stale since",
];

/** Each price of a channel with its evidence: agreeing and dissenting sources, fallback, dates. */
function EvidenceTable(props: { readonly channel: ChannelPrices }) {
  const name = props.channel.channel.name;
  return (
    <DataTable
      label={`Evidence in ${name}`}
      caption={`Evidence of each price in ${name}`}
      columns={EVIDENCE_COLUMNS}
      class="evidence"
    >
      {props.channel.prices.map((p) => (
        <tr key={p.label}>
          <th scope="row">
            <DimensionLabel label={p.label} displayUnit={p.displayUnit} />
          </th>
          <td class="num">{formatAmount(p.amount, p)}</td>
          <td>
            <ConfidenceBadge level={p.confidence} /> {Math.round(p.confidenceScore * 100)}/100{" "}
            <DisputedMark disputed={p.disputed} />
          </td>
          <td>{p.sources.join(", ") || "—"}</td>
          <td>{p.dissenting.join(", ") || "none"}</td>
          <td class="num">{p.fallbackAmount === null ? "—" : formatAmount(p.fallbackAmount, p)}</td>
          <td>{formatDate(p.effectiveFrom)}</td>
          <td>{p.staleSince ? formatDate(p.staleSince) : "not stale"}</td>
        </tr>
      ))}
    </DataTable>
  );
}
