import { useEffect, useMemo } from "preact/hooks";
import { useLocation } from "preact-iso";
import { MULTI_SELLER_CHANNELS } from "../../../domain/channel.js";
import { type ListedPrice, listedPrice, offersByPrice } from "../../../domain/listed-price.js";
import { lastPriceMove } from "../../../domain/price-move.js";
import { API, modelPath, query, useApi } from "../api.js";
import { AnnouncedNote } from "../components/announced-note.js";
import { AtPicker, PastNotice, usePageAt } from "../components/at-picker.js";
import { ConfidenceBadge, DisputedMark, LevelsLink, OutlierMark, UnconfirmedMark } from "../components/badges.js";
import { ColumnHeads, numeric } from "../components/data-table.js";
import { DataAge } from "../components/freshness.js";
import { type AnnouncedPoint, HistoryCharts } from "../components/history-charts.js";
import { PageStaleNote } from "../components/page-stale-note.js";
import { DimensionLabel } from "../components/price-cell.js";
import { Failed, Loading, WhenLoaded } from "../components/status.js";
import { TableWrap } from "../components/table-wrap.js";
import { useTitle } from "../dataset.js";
import {
  channelName,
  formatAmount,
  formatCount,
  formatDate,
  formatRatio,
  isOutlier,
  OUTLIER_RATIO,
} from "../format.js";
import type { HistorySeries, Model, Price, Provider } from "../types.js";
import { NotFoundPage } from "./not-found.js";

/**
 * The model page (issue 18 §2, issue 28 §2), `/m/{provider}/{model}`: ONE request for the model and
 * every channel's prices (`?channel=all`, T201), the summary first (headline input and output,
 * cheapest offer, confidence, last change), then the maker's prices with their evidence, every
 * offer cheapest first, each channel's full list folded, and the maker's price history last (it
 * loads beside the prices and, being last, moves nothing when it arrives). An alias follows the
 * API's 308 and replaces the URL (T121); an unknown model is the not-found page; a failed request
 * offers to try again and says nothing about the model (T208).
 */
export function ModelPage(props: { readonly params: { readonly provider: string; readonly model: string } }) {
  const { provider, model } = props.params;
  const at = usePageAt();
  const { route } = useLocation();
  const path = modelPath(`${provider}/${model}`);
  const main = useApi<Model, { channel: string; at?: string }>(`${path}${query({ channel: "all", at })}`);
  const history = useApi<HistorySeries[]>(`${path}/history`);
  const movedTo = main.state === "ok" ? main.movedTo : null;
  useEffect(() => {
    // An alias: the API answered 308 to the canonical model; the address bar follows it.
    const canonical = movedTo?.match(/^\/models\/([^/?]+\/[^/?]+)/)?.[1];
    if (canonical && canonical !== `${provider}/${model}`) route(`/m/${canonical}${query({ at })}`, true);
  }, [movedTo]);

  if (main.state === "error" && main.error.status === 404 && !at)
    return <NotFoundPage modelId={`${provider}/${model}`} />;
  const loaded = main.state === "ok" && !movedTo ? main.data : null;
  // One heading element in every state, so the focus put on it by a navigation stays there (T125).
  return (
    <article aria-labelledby="model-title" class="model-page">
      <h1 id="model-title" tabIndex={-1}>
        {loaded ? loaded.data.name : `${provider}/${model}`}
      </h1>
      {main.state === "error" ? (
        main.error.status === 404 && at ? (
          <p role="alert">
            {provider}/{model} was not in the catalogue on {at}. <a href={`/m/${provider}/${model}`}>Latest prices</a>
          </p>
        ) : (
          <Failed what="the model's prices" error={main.error} retry={main.retry} />
        )
      ) : null}
      {loaded ? (
        <ModelView
          model={loaded.data}
          datasetVersion={loaded.meta.datasetVersion}
          at={at}
          onAt={(day) => route(`/m/${loaded.data.id}${query({ at: day })}`, true)}
          history={history}
        />
      ) : main.state === "error" ? null : (
        <Loading what="the model's prices" />
      )}
    </article>
  );
}

/**
 * The maker's prices announced from a later day (T335), for the history charts' dashed future
 * points (T364): one per label and unit with an announced amount (a price that ends with none
 * announced has no point to draw). The maker's own seller's prices only, as the history is.
 */
function announcedPoints(direct: readonly Price[]): AnnouncedPoint[] {
  return direct.flatMap((p) =>
    p.announced && p.effectiveUntil
      ? [{ label: p.label, displayUnit: p.displayUnit, day: p.effectiveUntil.slice(0, 10), amount: p.announced.amount }]
      : [],
  );
}

/** A price of `?channel=all`: it carries its channel and seller (T201). */
type ChannelPrice = Price & { readonly channel: NonNullable<Price["channel"]>; readonly seller: string };

function ModelView(props: {
  readonly model: Model;
  readonly datasetVersion: string;
  readonly at: string | null;
  readonly onAt: (at: string | null) => void;
  readonly history: ReturnType<typeof useApi<HistorySeries[]>>;
}) {
  const m = props.model;
  const prices = m.prices as ChannelPrice[];
  const listed = useMemo(() => listedPrice(prices), [prices]);
  const offers = useMemo(() => offersByPrice(prices), [prices]);
  const direct = prices.filter((p) => p.channel === "direct");
  useTitle(`${m.name} prices`, describe(m, listed));
  const ready = props.history.state !== "loading";
  useEffect(() => {
    // What the browser test measures as "interactive" (issue 18 Must show; T126).
    if (ready) performance.mark("tariff:model-ready");
  }, [ready]);

  return (
    <div data-ready={ready ? "true" : undefined}>
      <p class="lead">
        <code>{m.id}</code> · made by {m.provider} ·{" "}
        <span class={`badge state-${m.lifecycle.state}`}>{m.lifecycle.state}</span> · <DataAge />
      </p>
      <PastNotice at={props.at} version={props.datasetVersion} />
      <Summary
        model={m}
        listed={listed}
        cheapest={offers[0] ?? null}
        channelName={channelName}
        at={props.at}
        history={props.history.state === "ok" ? props.history.data.data : null}
      />
      <p class="actions">
        <a href={`/cost${query({ models: m.id, at: props.at })}`}>Estimate a workload</a>
        <a href={`/compare${query({ models: m.id, at: props.at })}`}>Compare with other models</a>
        <a href={`${API}${modelPath(m.id)}${query({ channel: "all", at: props.at })}`}>JSON</a>
      </p>
      <AtPicker at={props.at} onChange={props.onAt} />
      <MakerPrices prices={direct} maker={m.provider} />
      <Offers offers={offers} maker={listed?.channel === "direct" ? listed : null} channelName={channelName} />
      <ChannelLists prices={prices} />
      <section aria-labelledby="history-title">
        <h2 id="history-title">Price history</h2>
        <p class="muted">The maker's own prices; one point per change. Hover or tap a chart to read its values.</p>
        <WhenLoaded what="the price history" loaded={props.history}>
          {({ data }) => (
            <HistoryCharts series={data} until={formatDate(props.datasetVersion)} announced={announcedPoints(direct)} />
          )}
        </WhenLoaded>
      </section>
    </div>
  );
}

/** The description a shared link previews (T207; the server writes the same into the HTML). */
function describe(m: Model, listed: ListedPrice<Price> | null): string {
  if (!listed) return `${m.name} (${m.id}): no token price published in any channel. Tariff, open AI-model prices.`;
  const part = (p: Price | null, what: string) => (p ? `${formatAmount(p.amount, p)} ${what}` : null);
  const amounts = [part(listed.input, "input"), part(listed.output, "output")].filter(Boolean).join(" / ");
  const whose = listed.channel === "direct" ? "the maker's price" : `via ${listed.seller}`;
  return `${m.name}: ${amounts} per 1M tokens (${whose}, ${listed.confidence} confidence). Every channel's price with its sources on Tariff.`;
}

/** The summary (issue 28 §2): what people come for, first and above the fold on a phone. */
function Summary(props: {
  readonly model: Model;
  readonly listed: ListedPrice<Price> | null;
  readonly cheapest: ListedPrice<Price> | null;
  readonly channelName: (id: string) => string;
  readonly at: string | null;
  /** The maker's price history, once loaded: what "Last price change" reads (T344). */
  readonly history: readonly HistorySeries[] | null;
}) {
  const { model: m, listed, cheapest } = props;
  // T344: the last move of the maker's listed input and output, from the history the charts show;
  // the first point of a series is when the catalogue first saw the price, not a change.
  const move =
    listed?.channel === "direct" && props.history
      ? lastPriceMove(
          props.history,
          [listed.input?.label, listed.output?.label].filter((l): l is string => l !== undefined),
          props.at ?? undefined,
        )
      : null;
  const whose = !listed
    ? null
    : listed.channel === "direct"
      ? "The maker's own price"
      : `${makerListsNoMoney(m.prices as ChannelPrice[]) ? "The maker lists it only in a plan, in credits" : "The maker publishes none"}: cheapest channel, ${offerName(listed, props.channelName)}`;
  return (
    <section aria-labelledby="summary-title" class="summary" data-testid="summary">
      <h2 id="summary-title" class="visually-hidden">
        Summary
      </h2>
      <dl class="headline">
        <Headline direction="input" price={listed?.input ?? null} />
        <Headline direction="output" price={listed?.output ?? null} />
      </dl>
      {whose ? (
        <p class="whose">
          {whose} · <ConfidenceBadge level={listed?.confidence} /> <LevelsLink />
        </p>
      ) : (
        <p class="whose">No channel publishes a token price for this model.</p>
      )}
      <Facts model={m} listed={listed} cheapest={cheapest} channelName={props.channelName} move={move} />
    </section>
  );
}

/**
 * The summary's facts: the cheapest offer (marked when it is far from the maker's price, T349),
 * the last price change (T344), the context windows (T342), max output, open weights, release.
 */
function Facts(props: {
  readonly model: Model;
  readonly listed: ListedPrice<Price> | null;
  readonly cheapest: ListedPrice<Price> | null;
  readonly channelName: (id: string) => string;
  readonly move: ReturnType<typeof lastPriceMove> | null;
}) {
  const { model: m, listed, cheapest } = props;
  const ratio =
    listed && cheapest?.input && listed.input ? formatRatio(cheapest.input.amount, listed.input.amount) : null;
  const outlier =
    listed?.channel === "direct" && cheapest?.input && listed.input
      ? isOutlier(cheapest.input.amount, listed.input.amount)
      : false;
  return (
    <dl class="facts">
      <div>
        <dt>Cheapest offer</dt>
        <dd data-testid="cheapest">
          {cheapest ? (
            <>
              {offerName(cheapest, props.channelName)}:{" "}
              {cheapest.input ? formatAmount(cheapest.input.amount, cheapest.input) : "—"} /{" "}
              {cheapest.output ? formatAmount(cheapest.output.amount, cheapest.output) : "—"}{" "}
              <ConfidenceBadge level={cheapest.confidence} /> <OutlierMark ratio={ratio} outlier={outlier} />{" "}
              <UnconfirmedMark flags={cheapest.trust.flags} />
            </>
          ) : (
            "—"
          )}
        </dd>
      </div>
      <LastChange move={props.move} />
      <div>
        <dt>Context window</dt>
        <dd data-testid="context-window">
          {m.contextWindow === null ? "—" : `${formatCount(m.contextWindow)} tokens`}
          {/* T342: the maker's long-context window, the one /cost accepts, beside the listed one. */}
          {m.longContextWindow !== null ? `; ${formatCount(m.longContextWindow)} with long context` : null}
        </dd>
      </div>
      <div>
        <dt>Max output</dt>
        <dd>{m.maxOutputTokens === null ? "—" : `${formatCount(m.maxOutputTokens)} tokens`}</dd>
      </div>
      <div>
        <dt>Open weights</dt>
        <dd>{m.openWeights ? "yes" : "no"}</dd>
      </div>
      <div>
        <dt>Released</dt>
        <dd>{m.lifecycle.releasedOn ?? "—"}</dd>
      </div>
    </dl>
  );
}

/** One headline amount of the summary, per 1M tokens ("—" when the listed price has none in that direction). */
function Headline(props: { readonly direction: "input" | "output"; readonly price: Price | null }) {
  return (
    <div>
      <dt>{props.direction === "input" ? "Input" : "Output"}</dt>
      <dd data-testid={`headline-${props.direction}`}>
        {props.price ? <Money price={props.price} /> : "—"}
        <span class="unit">per 1M tokens</span>
      </dd>
    </div>
  );
}

function Money(props: { readonly price: Price }) {
  const p = props.price;
  return (
    <span class="money" data-amount={p.amount}>
      {formatAmount(p.amount, p)}
    </span>
  );
}

/** An offer's name: the channel, and the seller in a channel of several sellers (D2). */
function offerName(o: { channel: string; seller: string }, channelName: (id: string) => string): string {
  if (o.channel === "direct") return "the maker";
  return MULTI_SELLER_CHANNELS.has(o.channel as never)
    ? `${o.seller} (${channelName(o.channel)})`
    : channelName(o.channel);
}

/**
 * True when the maker's own listing prices the model only in plan credits, never in money (issue 50:
 * Meta's Llama API lists Llama 3.3 70B at 0 credits, included in plan): the page says so, not
 * "publishes none" above a table of the maker's credits.
 */
const makerListsNoMoney = (prices: readonly ChannelPrice[]) =>
  prices.some((p) => p.channel === "direct") &&
  prices.every((p) => p.channel !== "direct" || p.denomination === "credit");

/** True for a price that applies only under a condition (a region, a tool, a mode): folded (T209). */
const conditional = (p: Price) => Object.keys(p.qualifiers).some((k) => k !== "seller");

/** The maker's own prices with their evidence: agreeing sources, dissenting ones with their amounts. */
function MakerPrices(props: { readonly prices: readonly ChannelPrice[]; readonly maker: string }) {
  const main = props.prices.filter((p) => !conditional(p));
  const folded = props.prices.filter(conditional);
  // T363: "confirmed on OpenAI's page" names the maker as `/providers` does, asked only when a page confirms a price.
  const maker = useMakerName(
    props.maker,
    props.prices.some((p) => (p.evidence?.length ?? 0) > 0 || p.pageStale !== undefined),
  );
  return (
    <section aria-labelledby="maker-title">
      <h2 id="maker-title">The maker's own prices</h2>
      {props.prices.length === 0 ? (
        <p>The maker publishes no price for this model; see the channels below.</p>
      ) : makerListsNoMoney(props.prices) ? (
        <>
          <p data-testid="maker-credits-only">
            The maker lists this model only inside a plan, in credits: it publishes no price in money. See the channels
            below for what sellers charge.
          </p>
          <EvidenceTable prices={main} label="The maker's plan credits" testId="maker-prices" maker={maker} />
        </>
      ) : (
        <>
          <EvidenceTable prices={main} label="The maker's own prices" testId="maker-prices" maker={maker} />
          {folded.length > 0 ? (
            <details>
              <summary>Regional and conditional prices ({folded.length})</summary>
              <EvidenceTable prices={folded} label="The maker's regional and conditional prices" maker={maker} />
            </details>
          ) : null}
        </>
      )}
    </section>
  );
}

/**
 * A maker's display name, as `/providers` gives it (`OpenAI` for `openai`; issue 38 §5, T363), asked
 * for only when `wanted`; the slug until the list answers, or when it lacks the maker.
 */
function useMakerName(slug: string, wanted: boolean): string {
  const providers = useApi<Provider[]>(wanted ? "/providers" : null);
  return providers.state === "ok" ? (providers.data.data.find((p) => p.slug === slug)?.name ?? slug) : slug;
}

/** Prices with their evidence (issue 28 §7): each dissenting source beside its own amount. */
function EvidenceTable(props: {
  readonly prices: readonly Price[];
  readonly label: string;
  readonly testId?: string;
  /** The maker's name, for "confirmed on <maker>'s page" (T294, T363); absent outside the maker's own prices. */
  readonly maker?: string;
}) {
  return (
    <TableWrap label={props.label}>
      <table class="evidence cards" data-testid={props.testId}>
        <caption class="visually-hidden">{props.label}, with the sources that agree and dissent</caption>
        <thead>
          <tr>
            <th scope="col">Price</th>
            <th scope="col" class="num">
              Amount
            </th>
            <th scope="col">Confidence</th>
            <th scope="col">Agreeing sources</th>
            <th scope="col">Dissenting sources</th>
          </tr>
        </thead>
        <tbody>
          {props.prices.map((p) => (
            <tr key={`${p.seller}|${p.label}|${p.displayUnit}`} data-key={`${p.label}|${p.displayUnit}`}>
              <th scope="row" data-label="Price">
                <DimensionLabel label={p.label} displayUnit={p.displayUnit} />
              </th>
              <td class="num" data-label="Amount">
                <span class="amount" data-amount={p.amount}>
                  {formatAmount(p.amount, p)}
                </span>
              </td>
              <td data-label="Confidence">
                <ConfidenceBadge level={p.confidence} score={p.confidenceScore} />{" "}
                <DisputedMark disputed={p.disputed} />
                {p.staleSince ? <span class="badge stale">stale since {formatDate(p.staleSince)}</span> : null}
                <AnnouncedNote price={p} />
                {props.maker ? <PageConfirmation price={p} maker={props.maker} /> : null}
                <PageStaleNote price={p} {...(props.maker ? { maker: props.maker } : {})} />
              </td>
              <td data-label="Agreeing">{p.sources.join(", ") || "—"}</td>
              <td data-label="Dissenting">
                <Dissent price={p} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** "confirmed on <maker>'s page, <date>" with the link to the page (issue 35 §6, T294). */
function PageConfirmation(props: { readonly price: Price; readonly maker: string }) {
  const page = props.price.evidence?.[0];
  if (!page) return null;
  return (
    <span class="confirmed" data-testid="page-confirmation">
      {" "}
      confirmed on{" "}
      <a href={page.url} rel="noopener">
        {props.maker}'s page
      </a>
      , <time dateTime={page.capturedAt}>{formatDate(page.capturedAt)}</time>
    </span>
  );
}

function Dissent(props: { readonly price: Price }) {
  const p = props.price;
  if (p.dissenting.length === 0) return <>none</>;
  const amounts = new Map((p.dissentingAmounts ?? []).map((d) => [d.source, d.amount]));
  return (
    <ul class="dissent">
      {p.dissenting.map((source) => (
        <li key={source}>
          {source}
          {amounts.has(source) ? `: ${formatAmount(amounts.get(source)!, p)}` : ""}
        </li>
      ))}
    </ul>
  );
}

/** "Last price change" (T344): the day of the maker's last move, linked to the history, or since when none. */
function LastChange(props: { readonly move: ReturnType<typeof lastPriceMove> | null }) {
  const { move } = props;
  return (
    <div>
      <dt>Last price change</dt>
      <dd data-testid="last-change">
        {move?.changedOn ? (
          <a href="#history-title">
            <time dateTime={move.changedOn}>{formatDate(move.changedOn)}</time>
          </a>
        ) : move?.since ? (
          <>
            none since <time dateTime={move.since}>{formatDate(move.since)}</time>
          </>
        ) : (
          "—"
        )}
      </dd>
    </div>
  );
}

/** Every offer with a headline price, cheapest first, each compared with the maker's list price (T209). */
function Offers(props: {
  readonly offers: readonly ListedPrice<Price>[];
  readonly maker: ListedPrice<Price> | null;
  readonly channelName: (id: string) => string;
}) {
  const { offers, maker } = props;
  return (
    <section aria-labelledby="offers-title">
      <h2 id="offers-title">Every channel that sells it, cheapest trusted first</h2>
      {offers.length === 0 ? (
        <p>No channel publishes an input or output price per 1M tokens for this model.</p>
      ) : (
        <>
          <p class="muted">
            {offers.length} offers of the input and output price per 1M tokens, those a buyer can trust first (medium
            confidence or better, and not far below the maker on one source's word). An offer more than {OUTLIER_RATIO}×
            away from the maker's price is flagged: check the seller's own page before relying on it.
          </p>
          <TableWrap label="Offers by channel">
            <table class="offers cards" data-testid="offers">
              <caption class="visually-hidden">
                Every channel and seller selling the model, cheapest input first
              </caption>
              <ColumnHeads
                columns={["Channel", numeric("Input"), numeric("Output"), "Compared with the maker", "Confidence"]}
              />
              <tbody>
                {offers.map((o) => {
                  const ratio = maker?.input && o.input ? formatRatio(o.input.amount, maker.input.amount) : null;
                  const outlier = maker?.input && o.input ? isOutlier(o.input.amount, maker.input.amount) : false;
                  return (
                    <tr key={`${o.channel}|${o.seller}`} data-channel={o.channel} data-seller={o.seller}>
                      <th scope="row" data-label="Channel">
                        {o.channel === "direct" ? "The maker" : offerName(o, props.channelName)}
                      </th>
                      <td class="num" data-label="Input">
                        {o.input ? <Money price={o.input} /> : "—"}
                      </td>
                      <td class="num" data-label="Output">
                        {o.output ? <Money price={o.output} /> : "—"}
                      </td>
                      <td data-label="Vs maker">
                        {o.channel === "direct" ? "list price" : maker ? (ratio ?? "same") : "—"}{" "}
                        <OutlierMark ratio={ratio} outlier={outlier} />
                      </td>
                      <td data-label="Confidence">
                        <ConfidenceBadge level={o.confidence} /> <UnconfirmedMark flags={o.trust.flags} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableWrap>
        </>
      )}
    </section>
  );
}

/** Each channel's full price list, folded (regional and seller rows included), with its evidence. */
function ChannelLists(props: { readonly prices: readonly ChannelPrice[] }) {
  const byChannel = new Map<string, ChannelPrice[]>();
  for (const p of props.prices) {
    if (p.channel === "direct") continue;
    const list = byChannel.get(p.channel) ?? [];
    list.push(p);
    byChannel.set(p.channel, list);
  }
  if (byChannel.size === 0) return null;
  const name = channelName;
  return (
    <section aria-labelledby="all-title">
      <h2 id="all-title">Every price in every channel</h2>
      <p class="muted">
        Sold in {[...byChannel.keys()].map(name).join(", ")}. Each list is folded; regional prices and every seller's
        rows are inside.
      </p>
      {[...byChannel.entries()].map(([channel, prices]) => {
        const sellers = new Set(prices.map((p) => p.seller)).size;
        return (
          <details key={channel} data-channel={channel}>
            <summary>
              {name(channel)} ({prices.length} prices{sellers > 1 ? `, ${sellers} sellers` : ""})
            </summary>
            <EvidenceTable prices={prices} label={`Prices in ${name(channel)}`} />
          </details>
        );
      })}
    </section>
  );
}
