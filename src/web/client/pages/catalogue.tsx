import { useEffect, useId, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { MULTI_SELLER_CHANNELS } from "../../../domain/channel.js";
import { MODALITIES } from "../../../domain/dimension.js";
import { currentParams, type Loaded, modelPage, query, useApi } from "../api.js";
import { AtPicker, PastNotice, usePageAt } from "../components/at-picker.js";
import { ConfidenceBadge, DisputedMark, LevelsLink } from "../components/badges.js";
import { FilterPanel } from "../components/filter-panel.js";
import { MakerSelect } from "../components/maker-select.js";
import { ModelPicker } from "../components/model-picker.js";
import { Page } from "../components/page.js";
import { SelectField, type SelectOption } from "../components/select-field.js";
import { Status, WhenLoaded } from "../components/status.js";
import { TableWrap } from "../components/table-wrap.js";
import { useSettled } from "../debounce.js";
import {
  CHANNEL_OPTIONS,
  CONFIDENCE_LEVELS,
  channelName,
  formatAmount,
  formatCount,
  headline,
  weakest,
} from "../format.js";
import type { Envelope, Model, Price } from "../types.js";

const PAGE_SIZE = 50;

/**
 * The orders a person can choose (T203, T209). The default is the market's: the models sold by the
 * most sellers first (what people use); with a search text, the best matches first.
 */
const SORTS = [
  ["sellers", "Most sold first"],
  ["input", "Input price, lowest first"],
  ["-input", "Input price, highest first"],
  ["output", "Output price, lowest first"],
  ["-output", "Output price, highest first"],
  ["-context", "Context window, largest first"],
  ["context", "Context window, smallest first"],
  ["recent", "Latest price move first"],
  ["id", "Name (id)"],
] as const;
type Sort = (typeof SORTS)[number][0];

const CONTEXTS = [
  [32_000, "32K tokens or more"],
  [128_000, "128K or more"],
  [200_000, "200K or more"],
  [1_000_000, "1M or more"],
] as const;

/** The page's filters, all in the URL so a view is shareable and survives a reload (T208). */
interface Filters {
  readonly q: string;
  readonly provider: string;
  readonly channel: string;
  readonly modality: string;
  readonly openWeights: string;
  readonly minContext: string;
  readonly confidence: string;
  readonly sort: Sort | "";
}

const FILTER_KEYS = [
  "q",
  "provider",
  "channel",
  "modality",
  "openWeights",
  "minContext",
  "confidence",
  "sort",
] as const;

/**
 * The catalogue (issue 18 §1, issue 28 §4): search as you type, filters by maker, channel,
 * modality, open weights, context window and confidence, a choice of order, and keyset pages both
 * ways. Every row shows a price when any channel sells the model (the listed price, T202), marked
 * with its channel when it is not the maker's own; its badge is the one confidence the filter uses.
 */
export function CataloguePage() {
  const { query: params, route } = useLocation();
  const at = usePageAt();
  const filters = Object.fromEntries(FILTER_KEYS.map((k) => [k, params[k] ?? ""])) as unknown as Filters;
  const cursor = params.cursor ?? "";
  const page = Math.max(1, Number(params.page) || 1);
  const [text, setText] = useState(filters.q);
  const q = useSettled(text, 200);
  const ids = { sort: useId(), channel: useId(), modality: useId(), open: useId(), context: useId(), conf: useId() };

  const go = (next: Partial<Record<(typeof FILTER_KEYS)[number] | "cursor" | "page" | "at", string | null>>) => {
    // (from the address as it is now: a filter chosen while the search text settles is kept)
    const now = currentParams();
    const kept = Object.fromEntries(FILTER_KEYS.map((k) => [k, now[k] ?? null]));
    const keep = "cursor" in next ? {} : { cursor: null, page: null };
    route(
      `/${query({ ...kept, q: q || null, at: now.at ?? null, cursor: now.cursor ?? null, page: now.page ?? null, ...keep, ...next })}`,
      true,
    );
  };
  useEffect(() => {
    if ((params.q ?? "") !== q) go({ q: q || null });
  }, [q]);

  // With a search text the best matches come first unless an order is chosen (D10).
  const sort: Sort = filters.sort || (filters.q ? "id" : "sellers");
  const models = useApi<Model[], ModelsMeta>(
    `/models${query({
      q: filters.q,
      provider: filters.provider,
      channel: filters.channel,
      modality: filters.modality,
      openWeights: filters.openWeights,
      minContext: filters.minContext,
      listedConfidence: filters.confidence,
      sort,
      cursor,
      limit: PAGE_SIZE,
      prices: "listed",
      at,
    })}`,
  );
  const turn = (to: "first" | "previous" | "next", meta: ModelsMeta) => {
    if (to === "first" || (to === "previous" && page <= 2)) go({ cursor: null, page: null });
    else if (to === "previous") go({ cursor: meta.prevCursor, page: String(page - 1) });
    else go({ cursor: meta.nextCursor, page: String(page + 1) });
  };

  return (
    <Page
      id="catalogue"
      title="AI model prices"
      lead={
        <>
          Every model's price in every channel, reconciled from several open sources: how sure we are, which sources
          agree and which dissent.
        </>
      }
    >
      <search>
        <form class="filters" aria-label="Find models" onSubmit={(event) => event.preventDefault()}>
          <ModelPicker
            label="Search models"
            value={text}
            placeholder="e.g. opus, gpt-4o, llama"
            onInput={setText}
            onSubmit={setText}
            onPick={(s) => route(modelPage(s.id, at))}
          />
          <div class="field">
            <label for={ids.sort}>Order</label>
            <select id={ids.sort} value={sort} onChange={(e) => go({ sort: e.currentTarget.value })}>
              {SORTS.map(([value, name]) => (
                <option key={value} value={value}>
                  {value === "id" && filters.q ? "Best match" : name}
                </option>
              ))}
            </select>
          </div>
          <FilterPanel
            active={
              [
                filters.provider,
                filters.channel,
                filters.modality,
                filters.minContext,
                filters.openWeights,
                filters.confidence,
                at,
              ].filter(Boolean).length
            }
          >
            <MakerSelect value={filters.provider} onChange={(slug) => go({ provider: slug || null })} />
            <SelectField
              id={ids.channel}
              label="Sold in"
              value={filters.channel}
              options={[["", "Any channel"], ...CHANNEL_OPTIONS.map((c): SelectOption => [c.id, c.name])]}
              onChange={(v) => go({ channel: v || null })}
            />
            <SelectField
              id={ids.modality}
              label="Priced modality"
              value={filters.modality}
              options={[["", "Any"], ...MODALITIES.filter((m) => m !== "text").map((m): SelectOption => [m, m])]}
              onChange={(v) => go({ modality: v || null })}
            />
            <SelectField
              id={ids.context}
              label="Context window"
              value={filters.minContext}
              options={[["", "Any size"], ...CONTEXTS.map(([n, name]): SelectOption => [String(n), name])]}
              onChange={(v) => go({ minContext: v || null })}
            />
            <div class="field">
              <label for={ids.open}>Weights</label>
              <select
                id={ids.open}
                value={filters.openWeights}
                onChange={(e) => go({ openWeights: e.currentTarget.value || null })}
              >
                <option value="">Open or closed</option>
                <option value="true">Open weights</option>
                <option value="false">Closed weights</option>
              </select>
            </div>
            <div class="field">
              <label for={ids.conf}>Confidence</label>
              <select
                id={ids.conf}
                value={filters.confidence}
                onChange={(e) => go({ confidence: e.currentTarget.value || null })}
              >
                <option value="">Any confidence</option>
                {CONFIDENCE_LEVELS.map((level) => (
                  <option key={level} value={level}>
                    {level}
                  </option>
                ))}
              </select>
            </div>
            <AtPicker at={at} onChange={(day) => go({ at: day })} />
          </FilterPanel>
        </form>
      </search>
      <p class="muted">
        A row's price is the maker's own input and output price per 1M tokens; where the maker publishes none, the
        cheapest channel's, named under it. Its badge is the weaker confidence of the two, and the confidence filter
        keeps exactly that badge. <LevelsLink />
      </p>
      <PastNotice at={at} version={models.state === "ok" ? models.data.meta.datasetVersion : undefined} />
      <ModelList models={models} page={page} sort={sort} at={at} onTurn={turn} />
    </Page>
  );
}

/** The `meta` fields of a `/models` answer (api-v1.md; the keyset cursors of D12 and T203). */
interface ModelsMeta {
  readonly count: number;
  readonly nextCursor: string | null;
  readonly prevCursor: string | null;
}

/** Which column an order sorts (for `aria-sort`). */
const SORTED_COLUMN: Partial<Record<Sort, [column: string, direction: "ascending" | "descending"]>> = {
  input: ["input", "ascending"],
  "-input": ["input", "descending"],
  output: ["output", "ascending"],
  "-output": ["output", "descending"],
  context: ["context", "ascending"],
  "-context": ["context", "descending"],
};

/**
 * One page of `/models` as it loads: then a status line saying what it shows, the models' table
 * (cards on a phone) and the keyset pager (T203).
 */
function ModelList(props: {
  readonly models: Loaded<Envelope<Model[], ModelsMeta>>;
  /** 1 for the first page. */
  readonly page: number;
  readonly sort: Sort;
  readonly at: string | null;
  readonly onTurn: (to: "first" | "previous" | "next", meta: ModelsMeta) => void;
}) {
  const { page, onTurn } = props;
  const sorted = SORTED_COLUMN[props.sort];
  const heading = (column: string, label: string, numeric = false) => (
    <th scope="col" class={numeric ? "num" : undefined} aria-sort={sorted?.[0] === column ? sorted[1] : undefined}>
      {label}
    </th>
  );
  return (
    <WhenLoaded what="the models" loaded={props.models}>
      {({ data, meta }) => (
        <>
          <Status>
            Page {page}: {data.length} models
            {meta.nextCursor ? ", more on the next page" : ""}
          </Status>
          <TableWrap label="Models">
            <table class="models cards">
              <caption class="visually-hidden">Models with their listed input and output price per 1M tokens</caption>
              <thead>
                <tr>
                  {heading("model", "Model")}
                  {heading("maker", "Maker")}
                  {heading("input", "Input / 1M tokens", true)}
                  {heading("output", "Output / 1M tokens", true)}
                  {heading("confidence", "Confidence")}
                  {heading("context", "Context", true)}
                  {heading("state", "State")}
                </tr>
              </thead>
              <tbody>
                {data.map((m) => (
                  <ModelRow key={m.id} model={m} at={props.at} />
                ))}
              </tbody>
            </table>
          </TableWrap>
          {data.length === 0 ? <p>No model matches these filters.</p> : null}
          <nav class="pager" aria-label="Pages">
            <button type="button" disabled={page === 1} onClick={() => onTurn("first", meta)}>
              First page
            </button>
            <button type="button" disabled={page === 1 && !meta.prevCursor} onClick={() => onTurn("previous", meta)}>
              Previous page
            </button>
            <button type="button" disabled={!meta.nextCursor} onClick={() => onTurn("next", meta)}>
              Next page
            </button>
          </nav>
        </>
      )}
    </WhenLoaded>
  );
}

/** The seller of a listed price that is not the maker's own, as a short note under the amount. */
function Via(props: { readonly price: Price }) {
  const p = props.price;
  if (!p.channel || p.channel === "direct") return null;
  const channel = channelName(p.channel);
  const seller = p.seller && MULTI_SELLER_CHANNELS.has(p.channel) ? p.seller : null;
  return (
    <div class="via muted" data-channel={p.channel}>
      via {seller ? `${seller} (${channel})` : channel}
    </div>
  );
}

function ModelRow(props: { readonly model: Model; readonly at: string | null }) {
  const m = props.model;
  const input = headline(m.prices, "input");
  const output = headline(m.prices, "output");
  const shown = [input, output].filter((p) => p !== undefined);
  const level = weakest(shown.map((p) => p.confidence));
  return (
    <tr data-model={m.id}>
      <th scope="row" data-label="Model">
        <a href={modelPage(m.id, props.at)}>{m.name}</a>
        <div class="muted">{m.id}</div>
      </th>
      <td data-label="Maker">{m.provider}</td>
      <td class="num" data-label="Input / 1M">
        {input ? (
          <>
            <span class="amount" data-amount={input.amount}>
              {formatAmount(input.amount, input)}
            </span>
            <Via price={input} />
          </>
        ) : (
          "—"
        )}
      </td>
      <td class="num" data-label="Output / 1M">
        {output ? (
          <>
            <span class="amount" data-amount={output.amount}>
              {formatAmount(output.amount, output)}
            </span>
            {input?.channel === output.channel && input?.seller === output.seller ? null : <Via price={output} />}
          </>
        ) : (
          "—"
        )}
      </td>
      <td data-label="Confidence" class="row-confidence">
        <ConfidenceBadge level={level} /> <DisputedMark disputed={shown.some((p) => p.disputed)} />
        {level ? null : <span class="muted">no price</span>}
      </td>
      <td class="num" data-label="Context">
        {formatCount(m.contextWindow)}
      </td>
      <td data-label="State">{m.lifecycle.state}</td>
    </tr>
  );
}
