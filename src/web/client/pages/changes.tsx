import type { ComponentChildren } from "preact";
import { useEffect, useId, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { CHANGE_KINDS, type ChangeKind, MARKET_KINDS } from "../../../domain/change.js";
import { CHANNELS } from "../../../domain/channel.js";
import { API, currentParams, modelPage, query, useApi } from "../api.js";
import { AtPicker, PastNotice, usePageAt } from "../components/at-picker.js";
import { ConfidenceBadge } from "../components/badges.js";
import { ColumnHeads, numeric } from "../components/data-table.js";
import { FilterPanel } from "../components/filter-panel.js";
import { MakerSelect } from "../components/maker-select.js";
import { Page } from "../components/page.js";
import { DimensionLabel } from "../components/price-cell.js";
import { SelectField, type SelectOption } from "../components/select-field.js";
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
  currency_change: "Currency change",
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

  const filters = {
    days: days === 30 ? null : days,
    kind: sameKinds(chosenKinds, MARKET_KINDS) ? null : chosenKinds.join(","),
    provider: provider || null,
    q: q || null,
  };
  // (from the address as it is now: a filter chosen while the search text settles is kept)
  const go = (next: ChangesLinkChange) => {
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
      <ChangesForm
        text={text}
        onText={setText}
        chosen={{ days, kinds: chosenKinds, provider, channel }}
        at={at}
        go={go}
      />
      <PastNotice at={at} />
      <ChangeFeeds filters={filters} at={at} channel={channel} days={days} />
    </Page>
  );
}

/** A change of the page's address: a parameter to set, or null to drop it. */
type ChangesLinkChange = Partial<Record<"days" | "kind" | "provider" | "q" | "channel" | "at", string | number | null>>;

/** The filters chosen in the URL: look-back days, change kinds, maker and channel ("" for any). */
interface ChosenFilters {
  readonly days: number;
  readonly kinds: readonly string[];
  readonly provider: string;
  readonly channel: string;
}

/**
 * The changes' filter form (issue 28 §5): the text as typed, and behind the panel the maker,
 * channel, look-back, day and kinds, each a link of the page (`go`).
 */
function ChangesForm(props: {
  readonly text: string;
  readonly onText: (text: string) => void;
  readonly chosen: ChosenFilters;
  readonly at: string | null;
  readonly go: (next: ChangesLinkChange) => void;
}) {
  const { chosen, at, go } = props;
  const ids = { text: useId(), days: useId(), channel: useId() };
  const active = [
    chosen.provider,
    chosen.channel,
    at,
    chosen.days !== 30,
    !sameKinds(chosen.kinds, MARKET_KINDS),
  ].filter(Boolean).length;
  return (
    <form class="filters" aria-label="Filter changes" onSubmit={(event) => event.preventDefault()}>
      <div class="field">
        <label for={ids.text}>Model or maker</label>
        <input
          id={ids.text}
          type="search"
          value={props.text}
          onInput={(event) => props.onText(event.currentTarget.value)}
        />
      </div>
      <FilterPanel active={active}>
        <MakerSelect value={chosen.provider} onChange={(slug) => go({ provider: slug || null })} />
        <SelectField
          id={ids.channel}
          label="Channel"
          value={chosen.channel}
          options={[
            ["", "Makers first, then resellers"],
            ...CHANNEL_OPTIONS.map(
              (c): SelectOption => [c.id, c.id === "direct" ? "Makers' own prices only" : `${c.name} only`],
            ),
          ]}
          onChange={(v) => go({ channel: v || null })}
        />
        <SelectField
          id={ids.days}
          label="Look back"
          value={String(chosen.days)}
          options={DAY_CHOICES.map((d): SelectOption => [String(d), `${d} days`])}
          onChange={(v) => go({ days: Number(v) === 30 ? null : v })}
        />
        <AtPicker label="Changes up to" at={at} onChange={(day) => go({ at: day })} />
        <KindChecks chosen={chosen.kinds} go={go} />
      </FilterPanel>
    </form>
  );
}

/** The change kinds as check boxes; at least one stays checked, and the market's kinds are the default (T204). */
function KindChecks(props: { readonly chosen: readonly string[]; readonly go: (next: ChangesLinkChange) => void }) {
  const { chosen } = props;
  return (
    <fieldset class="kinds">
      <legend>Kinds</legend>
      {CHANGE_KINDS.map((kind) => (
        <label key={kind} class="check">
          <input
            type="checkbox"
            checked={chosen.includes(kind)}
            onChange={(event) => {
              const next = event.currentTarget.checked
                ? CHANGE_KINDS.filter((k) => k === kind || chosen.includes(k))
                : chosen.filter((k) => k !== kind);
              if (next.length === 0) return;
              props.go({ kind: sameKinds(next, MARKET_KINDS) ? null : next.join(",") });
            }}
          />
          {KIND_NAMES[kind]}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * The feeds of the page: one channel's moves when a channel is chosen; else the makers' own moves
 * and, folded below, the resellers' and plans' (D2).
 */
function ChangeFeeds(props: {
  readonly filters: Readonly<Record<string, string | number | null>>;
  readonly at: string | null;
  readonly channel: string;
  readonly days: number;
}) {
  const { filters, at, channel, days } = props;
  return channel ? (
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
                <ChangesHead oneChannel={oneChannel} />
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
          <ShowMore
            // The page after the last one shown: from the first answer, or from the last page's own.
            after={cursors.length === 0 ? meta.nextCursor : next[cursors[cursors.length - 1]!]}
            onMore={(after) => setCursors((list) => (list.includes(after) ? list : [...list, after]))}
          />
        </>
      )}
    </WhenLoaded>
  );
  const count = first.state === "ok" ? ` (${formatCount(first.data.meta.total)})` : "";
  return (
    <FeedSection headingId={headingId} heading={`${props.title}${count}`} folded={props.folded}>
      {body}
    </FeedSection>
  );
}

/** A feed's section under its heading; `folded` puts it in a closed disclosure whose summary is the heading. */
function FeedSection(props: {
  readonly headingId: string;
  readonly heading: string;
  readonly folded?: boolean;
  readonly children: ComponentChildren;
}) {
  const { headingId, heading } = props;
  return (
    <section aria-labelledby={headingId}>
      {props.folded ? (
        <details>
          <summary>
            <h2 id={headingId} class="in-summary">
              {heading}
            </h2>
          </summary>
          {props.children}
        </details>
      ) : (
        <>
          <h2 id={headingId}>{heading}</h2>
          {props.children}
        </>
      )}
    </section>
  );
}

/** The head of a feed's table; a feed of one channel has no channel column. */
function ChangesHead(props: { readonly oneChannel: boolean }) {
  return (
    <ColumnHeads
      columns={[
        "Date",
        "Model",
        ...(props.oneChannel ? [] : ["Channel"]),
        "Price",
        numeric("Was"),
        numeric("Now"),
        numeric("Change"),
        "Kind",
        "Confidence",
      ]}
    />
  );
}

/** "Show more changes" while a page follows the last one shown (`after`, its cursor; none: nothing). */
function ShowMore(props: { readonly after: string | null | undefined; readonly onMore: (after: string) => void }) {
  const { after } = props;
  return after ? (
    <button type="button" class="more" onClick={() => props.onMore(after)}>
      Show more changes
    </button>
  ) : null;
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
