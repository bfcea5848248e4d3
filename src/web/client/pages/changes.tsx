import { useEffect, useId, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { CHANGE_KINDS, type ChangeKind, MARKET_KINDS } from "../../../domain/change.js";
import { CHANNELS } from "../../../domain/channel.js";
import { API, currentParams, modelPage, query, useApi } from "../api.js";
import { AtPicker, PastNotice, usePageAt } from "../components/at-picker.js";
import { ConfidenceBadge } from "../components/badges.js";
import { FilterPanel } from "../components/filter-panel.js";
import { MakerSelect } from "../components/maker-select.js";
import { Page } from "../components/page.js";
import { DimensionLabel } from "../components/price-cell.js";
import { Failed, Status, WhenLoaded } from "../components/status.js";
import { TableWrap } from "../components/table-wrap.js";
import { useSettled } from "../debounce.js";
import { CHANNEL_OPTIONS, channelName, formatAmount, formatCount, formatDate, formatPct } from "../format.js";
import type { Change } from "../types.js";

const DAY_CHOICES = [7, 30, 90, 365] as const;
const PAGE = 100;
/** The channels of resellers and plans: every channel but the maker's own (D2). */
const RESELLER_CHANNELS = CHANNELS.filter((c) => c !== "direct").join(",");

/** Each change kind's label; a kind left out is a compile error, not an empty label (issue 45 §4, T398). */
const KIND_NAMES: Readonly<Record<ChangeKind, string>> = {
  price_increase: "Price increase",
  price_decrease: "Price decrease",
  price_removed: "Price removed",
  unit_change: "Unit change",
  price_added: "Price added",
  coverage_added: "Coverage added",
  reference_changed: "Reference changed",
  price_announced: "Price announced",
  announcement_withdrawn: "Announcement withdrawn",
};

/** `meta` of a `/changes` answer with the T204 additions. */
interface ChangesMeta {
  readonly total: number;
  readonly nextCursor: string | null;
  readonly days: number;
}

/**
 * Changes (issue 18 §4, issue 28 §5): the makers' own moves first, the resellers' and plans'
 * folded below, each with its true count (`meta.total`) and pages by the `/changes` cursor (T204);
 * filters (look-back, kinds, maker, channel, text, `at`) in the URL; the RSS feed of the same
 * filters links each item to the model's page here (`link=web`, T205).
 */
export function ChangesPage() {
  const { query: params, route } = useLocation();
  const at = usePageAt();
  const days = Number(params.days ?? 30) || 30;
  const kinds = (params.kind ?? "").split(",").filter((k) => (CHANGE_KINDS as readonly string[]).includes(k));
  const chosenKinds = kinds.length > 0 ? kinds : [...MARKET_KINDS];
  const provider = params.provider ?? "";
  const channel = (CHANNELS as readonly string[]).includes(params.channel ?? "") ? params.channel! : "";
  const [text, setText] = useState(params.q ?? "");
  const q = useSettled(text.trim(), 250);
  const ids = { text: useId(), days: useId(), channel: useId() };

  const filters = {
    days: days === 30 ? null : days,
    kind: sameKinds(chosenKinds, MARKET_KINDS) ? null : chosenKinds.join(","),
    provider: provider || null,
    q: q || null,
  };
  // (from the address as it is now: a filter chosen while the search text settles is kept)
  const go = (next: Partial<Record<keyof typeof filters | "channel" | "at", string | number | null>>) => {
    const now = currentParams();
    route(
      `/changes${query({ days: now.days, kind: now.kind, provider: now.provider, q: q || null, channel: now.channel, at: now.at, ...next })}`,
      true,
    );
  };
  useEffect(() => {
    if ((params.q ?? "") !== q) go({ q: q || null });
  }, [q]);

  const rss = `${API}/changes.xml${query({ ...filters, channel: channel || null, link: "web" })}`;

  return (
    <Page
      id="changes"
      title="Changes"
      lead={
        <>
          Market moves between ingestion runs, newest first: the makers' own price moves first, resellers' and plans'
          below. Follow them in a feed reader: <a href={rss}>RSS feed</a> of these filters.
        </>
      }
    >
      <form class="filters" aria-label="Filter changes" onSubmit={(event) => event.preventDefault()}>
        <div class="field">
          <label for={ids.text}>Model or maker</label>
          <input id={ids.text} type="search" value={text} onInput={(event) => setText(event.currentTarget.value)} />
        </div>
        <FilterPanel
          active={[provider, channel, at, days !== 30, !sameKinds(chosenKinds, MARKET_KINDS)].filter(Boolean).length}
        >
          <MakerSelect value={provider} onChange={(slug) => go({ provider: slug || null })} />
          <div class="field">
            <label for={ids.channel}>Channel</label>
            <select id={ids.channel} value={channel} onChange={(e) => go({ channel: e.currentTarget.value || null })}>
              <option value="">Makers first, then resellers</option>
              {CHANNEL_OPTIONS.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.id === "direct" ? "Makers' own prices only" : `${c.name} only`}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for={ids.days}>Look back</label>
            <select
              id={ids.days}
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
          <AtPicker label="Changes up to" at={at} onChange={(day) => go({ at: day })} />
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
                    go({ kind: sameKinds(next, MARKET_KINDS) ? null : next.join(",") });
                  }}
                />
                {KIND_NAMES[kind]}
              </label>
            ))}
          </fieldset>
        </FilterPanel>
      </form>
      <PastNotice at={at} />
      {channel ? (
        <ChangeFeed
          id="channel-moves"
          title={channel === "direct" ? "The makers' own moves" : `Moves in ${channelName(channel)}`}
          apiQuery={{ ...filters, channel, at }}
          days={days}
        />
      ) : (
        <>
          <ChangeFeed
            id="maker-moves"
            title="The makers' own moves"
            apiQuery={{ ...filters, channel: "direct", at }}
            days={days}
          />
          <ChangeFeed
            id="reseller-moves"
            title="Resellers' and plans' moves"
            apiQuery={{ ...filters, channel: RESELLER_CHANNELS, at }}
            days={days}
            folded
          />
        </>
      )}
    </Page>
  );
}

/**
 * One feed of changes: its true count, its rows and "Show more changes" continuing with the
 * cursor (T204); `folded` puts the rows in a closed disclosure whose summary says the count.
 */
function ChangeFeed(props: {
  readonly id: string;
  readonly title: string;
  readonly apiQuery: Readonly<Record<string, string | number | null>>;
  readonly days: number;
  readonly folded?: boolean;
}) {
  const base = query({ ...props.apiQuery, limit: PAGE });
  // A feed of one channel does not repeat it on every row.
  const oneChannel = typeof props.apiQuery.channel === "string" && !props.apiQuery.channel.includes(",");
  const [cursors, setCursors] = useState<string[]>([]);
  const [next, setNext] = useState<Record<string, string | null>>({});
  useEffect(() => {
    setCursors([]);
    setNext({});
  }, [base]);
  const first = useApi<Change[], ChangesMeta & { datasetVersion: string }>(`/changes${base}`);
  const headingId = `${props.id}-title`;
  const body = (
    <WhenLoaded what="the changes" loaded={first}>
      {({ data, meta }) => (
        <>
          <Status>
            {formatCount(meta.total)} {meta.total === 1 ? "change" : "changes"} in the {props.days} days before{" "}
            {formatDate(meta.datasetVersion)}
            {meta.total > data.length ? `; the newest ${formatCount(PAGE)} first` : ""}
          </Status>
          {data.length > 0 ? (
            <TableWrap label={props.title}>
              <table class="changes cards" data-testid={props.id}>
                <caption class="visually-hidden">{props.title}, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Date</th>
                    <th scope="col">Model</th>
                    {oneChannel ? null : <th scope="col">Channel</th>}
                    <th scope="col">Price</th>
                    <th scope="col" class="num">
                      Was
                    </th>
                    <th scope="col" class="num">
                      Now
                    </th>
                    <th scope="col" class="num">
                      Change
                    </th>
                    <th scope="col">Kind</th>
                    <th scope="col">Confidence</th>
                  </tr>
                </thead>
                <ChangeRows changes={data} oneChannel={oneChannel} />
                {cursors.map((cursor) => (
                  <MoreRows
                    key={cursor}
                    path={`/changes${base}&cursor=${encodeURIComponent(cursor)}`}
                    oneChannel={oneChannel}
                    onNext={(n) => setNext((known) => ({ ...known, [cursor]: n }))}
                  />
                ))}
              </table>
            </TableWrap>
          ) : null}
          {(() => {
            // The page after the last one shown: from the first answer, or from the last page's own.
            const last = cursors[cursors.length - 1];
            const after = last === undefined ? meta.nextCursor : next[last];
            return after ? (
              <button
                type="button"
                class="more"
                onClick={() => setCursors((list) => (list.includes(after) ? list : [...list, after]))}
              >
                Show more changes
              </button>
            ) : null;
          })()}
        </>
      )}
    </WhenLoaded>
  );
  const count = first.state === "ok" ? ` (${formatCount(first.data.meta.total)})` : "";
  return (
    <section aria-labelledby={headingId}>
      {props.folded ? (
        <details>
          <summary>
            <h2 id={headingId} class="in-summary">
              {props.title}
              {count}
            </h2>
          </summary>
          {body}
        </details>
      ) : (
        <>
          <h2 id={headingId}>
            {props.title}
            {count}
          </h2>
          {body}
        </>
      )}
    </section>
  );
}

/** A later page of a feed: its rows as another body of the same table; it reports its next cursor. */
function MoreRows(props: {
  readonly path: string;
  readonly oneChannel: boolean;
  readonly onNext: (next: string | null) => void;
}) {
  const page = useApi<Change[], ChangesMeta>(props.path);
  const next = page.state === "ok" ? page.data.meta.nextCursor : undefined;
  useEffect(() => {
    if (next !== undefined) props.onNext(next);
  }, [next]);
  if (page.state === "error")
    return (
      <tbody>
        <tr>
          <td colSpan={props.oneChannel ? 7 : 8}>
            <Failed what="more changes" error={page.error} retry={page.retry} />
          </td>
        </tr>
      </tbody>
    );
  if (page.state !== "ok") return null;
  return <ChangeRows changes={page.data.data} oneChannel={props.oneChannel} />;
}

function ChangeRows(props: { readonly changes: readonly Change[]; readonly oneChannel: boolean }) {
  return (
    <tbody>
      {props.changes.map((c, i) => (
        <ChangeRow
          key={`${c.model}|${c.channel}|${c.label}|${c.occurredAt}|${i}`}
          change={c}
          oneChannel={props.oneChannel}
        />
      ))}
    </tbody>
  );
}

/** A change record as a row; the channel by its name in `/meta` (D2). */
function ChangeRow(props: { readonly change: Change; readonly oneChannel: boolean }) {
  const c = props.change;
  return (
    <tr>
      <td data-label="Date">
        <time dateTime={c.occurredAt}>{formatDate(c.occurredAt)}</time>
      </td>
      <td data-label="Model">
        <a href={modelPage(c.model)}>{c.modelName}</a>
        <div class="muted">{c.providerName}</div>
      </td>
      {props.oneChannel ? null : <td data-label="Channel">{channelName(c.channel)}</td>}
      <td data-label="Price">
        <DimensionLabel label={c.label} displayUnit={c.displayUnit} />
      </td>
      <td class="num" data-label="Was">
        {c.oldAmount === null ? "—" : formatUnitAmount(c.oldAmount, c.displayUnit)}
      </td>
      <td class="num" data-label="Now">
        {c.newAmount === null ? "—" : formatUnitAmount(c.newAmount, c.displayUnit)}
      </td>
      <td class={`num ${delta(c.deltaPct)}`} data-label="Change">
        {formatPct(c.deltaPct)}
      </td>
      <td data-label="Kind">{KIND_NAMES[c.kind] ?? c.kind}</td>
      <td data-label="Confidence" data-testid="change-confidence">
        {/* T343: the move is as sure as the price it landed on; a move no price states any more says so. */}
        {c.confidence ? <ConfidenceBadge level={c.confidence} /> : <span class="muted">superseded</span>}
      </td>
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
  const isCurrency = /^[A-Z]{3}$/.test(currency) && currency !== "XXX";
  return formatAmount(amount, {
    denomination: isCurrency ? "currency" : "credit",
    currency: isCurrency ? currency : "",
  });
}
