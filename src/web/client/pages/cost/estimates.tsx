import { MULTI_SELLER_CHANNELS } from "../../../../domain/channel.js";
import { modelPage, query, useApi } from "../../api.js";
import { AnnouncedNote } from "../../components/announced-note.js";
import { ConfidenceBadge, LevelsLink, OutlierMark } from "../../components/badges.js";
import { ColumnHeads, numeric } from "../../components/data-table.js";
import { Status } from "../../components/status.js";
import { TableWrap } from "../../components/table-wrap.js";
import { channelName, formatAmount, formatCount, formatMoney, formatRatio, isOutlier } from "../../format.js";
import type { CostEstimate } from "../../types.js";
import type { CostQuery } from "./workload.js";

/** A single money total of an estimate, or null (credits, several currencies, no total). */
function moneyTotal(e: CostEstimate): { amount: number; currency: string } | null {
  const t = e.totals?.length === 1 ? e.totals[0]! : null;
  return t && t.denomination === "currency" ? { amount: t.amount, currency: t.currency } : null;
}

/** Who sells an offer, as a row names it: the maker, a channel, or a seller of a multi-seller channel. */
function offerName(e: CostEstimate): string {
  return e.channel === "direct"
    ? "The maker"
    : MULTI_SELLER_CHANNELS.has(e.channel)
      ? `${e.seller} (${channelName(e.channel)})`
      : channelName(e.channel);
}

/**
 * The estimates of `/cost` as one row per model (issue 38 §7, T349): the model's first offer in the
 * API's order — its cheapest offer the API ranks first, never re-ranked here — with the maker's own
 * price beside it, and every offer of the model, in the API's order, behind a disclosure. Models
 * are in the order of their first offer.
 */
export function Estimates(props: {
  readonly estimates: readonly CostEstimate[];
  readonly meta: { found: number; requested: number };
  readonly at: string | null;
  readonly usage: CostQuery;
}) {
  const { estimates, meta } = props;
  const byModel = new Map<string, CostEstimate[]>();
  for (const e of estimates) byModel.set(e.model, [...(byModel.get(e.model) ?? []), e]);
  return (
    <>
      <Status>
        {byModel.size} {byModel.size === 1 ? "model" : "models"}, {estimates.length}{" "}
        {estimates.length === 1 ? "offer" : "offers"}
        {meta.found < meta.requested
          ? ` (${meta.requested - meta.found} of the models asked for are not in the catalogue)`
          : ""}
        . <LevelsLink />
      </Status>
      {estimates.length === 0 ? <p>No channel asked for sells these models.</p> : null}
      <TableWrap label="Monthly cost per model">
        <table class="estimates cards" data-testid="estimates">
          <caption class="visually-hidden">Monthly cost per model: its first offer, and the maker's price</caption>
          <ColumnHeads
            columns={["Model", numeric("Per month"), numeric("The maker's price"), "Offer", "Every channel"]}
          />
          <tbody>
            {[...byModel].map(([model, offers]) => (
              <ModelRow key={model} offers={offers} at={props.at} usage={props.usage} />
            ))}
          </tbody>
        </table>
      </TableWrap>
    </>
  );
}

function money(amount: number, t: { readonly denomination: string; readonly currency: string }): string {
  return t.denomination === "currency" ? formatMoney(amount, t.currency) : `${formatCount(amount)} credits`;
}

/** A total as a cell shows it: money, credits, several totals, or why there is none. */
function TotalText(props: { readonly estimate: CostEstimate }) {
  const e = props.estimate;
  if (e.totals === null) return <span class="error">no total: {e.missing.join(", ")} not priced</span>;
  const total = e.totals.length === 1 ? e.totals[0]! : null;
  return total ? (
    <span class="amount total" data-amount={total.amount}>
      {money(total.amount, total)}
    </span>
  ) : (
    <span>{e.totals.map((t) => money(t.amount, t)).join(" + ")}</span>
  );
}

/** One model: its first offer in the API's order, the maker's price, and every offer behind a disclosure (T349). */
function ModelRow(props: {
  readonly offers: readonly CostEstimate[];
  readonly at: string | null;
  readonly usage: CostQuery;
}) {
  const offers = props.offers;
  const first = offers.find((e) => moneyTotal(e) !== null) ?? offers[0]!;
  const maker = offers.find((e) => e.channel === "direct");
  const makerTotal = maker ? moneyTotal(maker) : null;
  const total = moneyTotal(first);
  const reference = first !== maker && total && makerTotal ? makerTotal.amount : null;
  const ratio = reference !== null && total ? formatRatio(total.amount, reference) : null;
  const outlier = reference !== null && total !== null && total.amount > 0 ? isOutlier(total.amount, reference) : false;
  return (
    <tr data-model={first.model} data-channel={first.channel} data-seller={first.seller}>
      <th scope="row" data-label="Model">
        <a href={modelPage(first.model, props.at)}>{first.name}</a>
        <div class="muted">{first.model}</div>
      </th>
      <td class="num" data-label="Per month">
        <TotalText estimate={first} />
      </td>
      <td class="num" data-label="The maker's price">
        {maker ? (
          <span class="maker-total">
            <TotalText estimate={maker} />
          </span>
        ) : (
          <span class="muted">not sold direct</span>
        )}
      </td>
      <td data-label="Offer">
        {offerName(first)} <ConfidenceBadge level={first.confidence ?? undefined} />{" "}
        <OutlierMark ratio={ratio} outlier={outlier} />
        {first.bracket.contextMin > 0 ? (
          <div class="muted">long-context prices (&gt; {formatCount(first.bracket.contextMin)} tokens)</div>
        ) : null}
        <Announced estimate={first} usage={props.usage} />
        <PriceLines estimate={first} />
      </td>
      <td data-label="Every channel">
        <details class="offers">
          <summary>
            {offers.length} {offers.length === 1 ? "offer" : "offers"}
          </summary>
          <ol class="offer-list" data-testid="offers">
            {offers.map((e) => (
              <li key={`${e.channel}|${e.seller}`} data-channel={e.channel} data-seller={e.seller}>
                {offerName(e)}: <TotalText estimate={e} /> <ConfidenceBadge level={e.confidence ?? undefined} />
              </li>
            ))}
          </ol>
        </details>
      </td>
    </tr>
  );
}

/**
 * What an offer's prices become (issue 37 §4, T362): each priced line whose price a source dates,
 * as the model page says it ("from <date> this becomes <price>", "ends <date>"), and, for each such
 * date, the month's total from that day where it differs — `/cost` on that day (T336), which bills
 * the announced prices, on the same offer.
 */
function Announced(props: { readonly estimate: CostEstimate; readonly usage: CostQuery }) {
  const e = props.estimate;
  const dated = e.lines.filter((l) => l.status === "priced" && l.effectiveUntil !== null);
  if (dated.length === 0) return null;
  const days = [...new Set(dated.map((l) => l.effectiveUntil!.slice(0, 10)))].sort();
  return (
    <div class="announced-prices" data-testid="announced">
      <ul class="lines">
        {dated.map((l) => (
          <li key={l.usage}>
            {l.label} {formatAmount(l.amount!, { denomination: l.denomination!, currency: l.currency! })}:{" "}
            <AnnouncedNote
              price={{
                effectiveUntil: l.effectiveUntil,
                announced: l.announced,
                denomination: l.denomination!,
                currency: l.currency!,
              }}
            />
          </li>
        ))}
      </ul>
      {days.map((day) => (
        <TotalFrom key={day} estimate={e} usage={props.usage} day={day} />
      ))}
    </div>
  );
}

/** The offer's total from `day` on (T362): `/cost` at that day, shown only where it differs from today's. */
function TotalFrom(props: { readonly estimate: CostEstimate; readonly usage: CostQuery; readonly day: string }) {
  const e = props.estimate;
  const later = useApi<CostEstimate[]>(
    `/cost${query({ ...props.usage, model: e.model, channel: e.channel, at: props.day })}`,
  );
  if (later.state !== "ok") return null;
  const same = later.data.data.find((x) => x.channel === e.channel && x.seller === e.seller);
  const now = moneyTotal(e);
  const then = same ? moneyTotal(same) : null;
  if (!then || (now && now.amount === then.amount && now.currency === then.currency)) return null;
  return (
    <p class="total-from" data-testid="total-from" data-day={props.day} data-amount={then.amount}>
      From {props.day}: <strong>{formatMoney(then.amount, then.currency)}</strong> a month
    </p>
  );
}

/** The prices an estimate used, one line per usage parameter, behind a disclosure. */
function PriceLines(props: { readonly estimate: CostEstimate }) {
  const e = props.estimate;
  return (
    <details class="price-lines">
      <summary>Prices used</summary>
      <ul class="lines">
        {e.lines.map((l) => (
          <li key={l.usage}>
            {formatCount(l.tokens)}{" "}
            {l.usage
              .replace(/Tokens$/, "")
              .replace(/([A-Z])/g, " $1")
              .toLowerCase()}{" "}
            tokens
            {l.status === "missing" ? (
              <> — no price published</>
            ) : (
              <>
                {" "}
                × {l.label} {formatAmount(l.amount!, { denomination: l.denomination!, currency: l.currency! })}{" "}
                {l.displayUnit?.replace(/^[A-Z]{3} /, "")} ={" "}
                {money(l.cost!, { denomination: l.denomination!, currency: l.currency! })}{" "}
                <ConfidenceBadge level={l.confidence ?? undefined} /> <span class="muted">{l.sources.join(", ")}</span>
              </>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}
