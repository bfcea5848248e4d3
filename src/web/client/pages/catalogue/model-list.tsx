import { MULTI_SELLER_CHANNELS } from "../../../../domain/channel.js";
import { type Loaded, modelPage } from "../../api.js";
import { ConfidenceBadge, DisputedMark } from "../../components/badges.js";
import { Status, WhenLoaded } from "../../components/status.js";
import { TableWrap } from "../../components/table-wrap.js";
import { channelName, formatAmount, formatCount, headline, weakest } from "../../format.js";
import type { Envelope, Model, Price } from "../../types.js";
import type { Sort } from "./filters.js";

/** The `meta` fields of a `/models` answer (api-v1.md; the keyset cursors of D12 and T203). */
export interface ModelsMeta {
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
export function ModelList(props: {
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

/** One model of the list: its name and id, maker, listed input and output prices with their sellers, confidence, context and state. */
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
