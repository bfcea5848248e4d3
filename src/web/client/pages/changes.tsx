import { useEffect, useId, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { CHANGE_KINDS, MARKET_KINDS } from "../../../domain/change.js";
import { API, query, useApi } from "../api.js";
import { type Column, DataTable, numeric } from "../components/data-table.js";
import { MakerSelect } from "../components/maker-select.js";
import { Page } from "../components/page.js";
import { DimensionLabel } from "../components/price-cell.js";
import { Status, WhenLoaded } from "../components/status.js";
import { useDataset } from "../dataset.js";
import { useSettled } from "../debounce.js";
import { formatAmount, formatDate, formatPct } from "../format.js";
import type { Change } from "../types.js";

const DAY_CHOICES = [7, 30, 90, 365] as const;
const PAGE = 100;
const MAX_LIMIT = 500;

const COLUMNS: readonly Column[] = [
  "Date",
  "Model",
  "Channel",
  "Price",
  numeric("Was"),
  numeric("Now"),
  numeric("Change"),
  "Kind",
];

const KIND_NAMES: Readonly<Record<string, string>> = {
  price_increase: "Price increase",
  price_decrease: "Price decrease",
  price_removed: "Price removed",
  unit_change: "Unit change",
  price_added: "Price added",
  coverage_added: "Coverage added",
  reference_changed: "Reference changed",
};

/**
 * Changes (issue 18 §4): the market-move feed of `/changes` with its filters (look-back, kinds,
 * maker, free text), kept in the URL, and the RSS feed of the same filters.
 */
export function ChangesPage() {
  const { query: params, route } = useLocation();
  const days = Number(params.days ?? 30) || 30;
  const kinds = (params.kind ?? "").split(",").filter((k) => (CHANGE_KINDS as readonly string[]).includes(k));
  const chosenKinds = kinds.length > 0 ? kinds : [...MARKET_KINDS];
  const provider = params.provider ?? "";
  const limit = Math.min(MAX_LIMIT, Number(params.limit ?? PAGE) || PAGE);
  const [text, setText] = useState(params.q ?? "");
  const q = useSettled(text.trim(), 250);
  const textId = useId();
  const daysId = useId();

  const filters = {
    days: days === 30 ? null : days,
    kind: sameKinds(chosenKinds, MARKET_KINDS) ? null : chosenKinds.join(","),
    provider: provider || null,
    q: q || null,
  };
  const go = (next: Partial<Record<keyof typeof filters | "limit", string | number | null>>) =>
    route(`/changes${query({ ...filters, limit: limit === PAGE ? null : limit, ...next })}`, true);
  useEffect(() => {
    if ((params.q ?? "") !== q) go({ q: q || null, limit: null });
  }, [q]);

  const apiQuery = query({ ...filters, limit });
  const changes = useApi<Change[]>(`/changes${apiQuery}`);
  const rss = `${API}/changes.xml${query(filters)}`;

  return (
    <Page
      id="changes"
      title="Changes"
      lead={
        <>
          Market moves between ingestion runs, newest first. Follow them in a feed reader: <a href={rss}>RSS feed</a> of
          these filters.
        </>
      }
    >
      <form class="filters" aria-label="Filter changes" onSubmit={(event) => event.preventDefault()}>
        <div class="field">
          <label for={textId}>Model or maker</label>
          <input id={textId} type="search" value={text} onInput={(event) => setText(event.currentTarget.value)} />
        </div>
        <MakerSelect value={provider} onChange={(slug) => go({ provider: slug || null, limit: null })} />
        <div class="field">
          <label for={daysId}>Look back</label>
          <select
            id={daysId}
            value={String(days)}
            onChange={(event) =>
              go({ days: Number(event.currentTarget.value) === 30 ? null : event.currentTarget.value })
            }
          >
            {DAY_CHOICES.map((d) => (
              <option key={d} value={String(d)}>
                {d} days
              </option>
            ))}
          </select>
        </div>
        <fieldset class="kinds">
          <legend>Kinds</legend>
          {CHANGE_KINDS.map((kind) => (
            <label key={kind} class="check">
              <input
                type="checkbox"
                checked={chosenKinds.includes(kind)}
                onChange={(event) => {
                  const next = event.currentTarget.checked
                    ? CHANGE_KINDS.filter((k) => k === kind || chosenKinds.includes(k))
                    : chosenKinds.filter((k) => k !== kind);
                  if (next.length === 0) return;
                  go({ kind: sameKinds(next, MARKET_KINDS) ? null : next.join(","), limit: null });
                }}
              />
              {KIND_NAMES[kind]}
            </label>
          ))}
        </fieldset>
      </form>
      <WhenLoaded what="changes" loaded={changes}>
        {({ data, meta }) => (
          <ChangeList
            changes={data}
            days={days}
            until={formatDate(meta.datasetVersion)}
            onMore={
              data.length >= limit && limit < MAX_LIMIT ? () => go({ limit: Math.min(MAX_LIMIT, limit + PAGE) }) : null
            }
          />
        )}
      </WhenLoaded>
    </Page>
  );
}

/**
 * The change records as a table after a status line saying what it shows, and "Show more changes"
 * when `onMore` is given (the feed may hold more than the limit asked for).
 */
function ChangeList(props: {
  readonly changes: readonly Change[];
  readonly days: number;
  /** The dataset version's day. */
  readonly until: string;
  readonly onMore: (() => void) | null;
}) {
  const { changes, onMore } = props;
  return (
    <>
      <Status>
        {changes.length} changes in the {props.days} days before {props.until}
      </Status>
      {changes.length > 0 ? (
        <DataTable label="Market moves" caption="Market moves, newest first" columns={COLUMNS} class="changes">
          {changes.map((c, i) => (
            <ChangeRow key={`${c.model}|${c.channel}|${c.label}|${c.occurredAt}|${i}`} change={c} />
          ))}
        </DataTable>
      ) : null}
      {onMore ? (
        <button type="button" onClick={onMore}>
          Show more changes
        </button>
      ) : null}
    </>
  );
}

/** A change record as a row; the channel by its name in `/meta` (D2). */
function ChangeRow(props: { readonly change: Change }) {
  const c = props.change;
  const dataset = useDataset();
  const channelName = dataset?.channels.find((ch) => ch.id === c.channel)?.name ?? c.channel;
  return (
    <tr>
      <td>
        <time dateTime={c.occurredAt}>{formatDate(c.occurredAt)}</time>
      </td>
      <td>
        <a href={`/m/${c.model}`}>{c.modelName}</a>
        <div class="muted">{c.providerName}</div>
      </td>
      <td>{channelName}</td>
      <td>
        <DimensionLabel label={c.label} displayUnit={c.displayUnit} />
      </td>
      <td class="num">{c.oldAmount === null ? "—" : formatUnitAmount(c.oldAmount, c.displayUnit)}</td>
      <td class="num">{c.newAmount === null ? "—" : formatUnitAmount(c.newAmount, c.displayUnit)}</td>
      <td class={`num ${delta(c.deltaPct)}`}>{formatPct(c.deltaPct)}</td>
      <td>{KIND_NAMES[c.kind] ?? c.kind}</td>
    </tr>
  );
}

function sameKinds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((k) => b.includes(k));
}

function delta(pct: number | null): string {
  if (pct === null || pct === 0) return "";
  return pct > 0 ? "up" : "down";
}

/** An amount of a change record: its display unit names the currency ("USD per 1M tokens"). */
function formatUnitAmount(amount: number, displayUnit: string): string {
  const currency = displayUnit.split(" ")[0] ?? "";
  const isCurrency = /^[A-Z]{3}$/.test(currency);
  return formatAmount(amount, {
    denomination: isCurrency ? "currency" : "credit",
    currency: isCurrency ? currency : "",
  });
}
