import { useEffect, useId, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { type Loaded, query, useApi } from "../api.js";
import { ConfidenceBadge, DisputedMark } from "../components/badges.js";
import { type Column, DataTable, numeric } from "../components/data-table.js";
import { MakerSelect } from "../components/maker-select.js";
import { ModelPicker } from "../components/model-picker.js";
import { Page } from "../components/page.js";
import { Status, WhenLoaded } from "../components/status.js";
import { useSettled } from "../debounce.js";
import { CONFIDENCE_LEVELS, formatAmount, formatCount, headline, weakest } from "../format.js";
import type { Envelope, Model } from "../types.js";

const PAGE_SIZE = 50;

const COLUMNS: readonly Column[] = [
  "Model",
  "Maker",
  numeric("Input / 1M tokens"),
  numeric("Output / 1M tokens"),
  "Confidence",
  numeric("Context"),
  "State",
];

/**
 * The catalogue (issue 18 §1): a search box suggesting models as you type (`/models/search`), the
 * model list of `/models` filtered by the same text, a maker and a confidence level, paged by its
 * keyset cursor; filters and cursor live in the URL, so a view is shareable.
 */
export function CataloguePage() {
  const { query: params, route } = useLocation();
  const provider = params.provider ?? "";
  const confidence = params.confidence ?? "";
  const cursor = params.cursor ?? "";
  const [text, setText] = useState(params.q ?? "");
  const q = useSettled(text, 200);
  // Cursors of the pages before this one (a keyset list pages forward only; T124).
  const [previous, setPrevious] = useState<string[]>([]);
  const confidenceId = useId();

  const go = (next: Record<string, string | null>, keepPages = false) => {
    if (!keepPages) setPrevious([]);
    route(`/${query({ q: q || null, provider: provider || null, confidence: confidence || null, ...next })}`, true);
  };
  useEffect(() => {
    if ((params.q ?? "") !== q) go({ q: q || null, cursor: null });
  }, [q]);

  const models = useApi<Model[], ModelsMeta>(
    `/models${query({ q: params.q, provider, confidence, cursor, limit: PAGE_SIZE })}`,
  );
  const page = previous.length + 1;
  const turn = (to: PageTurn, nextCursor: string | null) => {
    if (to === "first") go({ cursor: null });
    else if (to === "previous") {
      setPrevious(previous.slice(0, -1));
      go({ cursor: previous[previous.length - 1] || null }, true);
    } else {
      setPrevious([...previous, cursor]);
      go({ cursor: nextCursor }, true);
    }
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
            onPick={(s) => route(`/m/${s.id}`)}
          />
          <MakerSelect value={provider} onChange={(slug) => go({ provider: slug || null, cursor: null })} />
          <div class="field">
            <label for={confidenceId}>Confidence</label>
            <select
              id={confidenceId}
              value={confidence}
              onChange={(event) => go({ confidence: event.currentTarget.value || null, cursor: null })}
            >
              <option value="">Any confidence</option>
              {CONFIDENCE_LEVELS.map((level) => (
                <option key={level} value={level}>
                  {level}
                </option>
              ))}
            </select>
          </div>
        </form>
      </search>
      <ModelList models={models} page={page} onTurn={turn} />
    </Page>
  );
}

/** Where the keyset pager goes: back to the first page, back one page, or on to the next (T124). */
type PageTurn = "first" | "previous" | "next";

/** The `meta` fields of a `/models` answer (api-v1.md; the keyset cursor of T124). */
interface ModelsMeta {
  readonly count: number;
  readonly nextCursor: string | null;
}

/**
 * One page of `/models` as it loads: then a status line saying what it shows, the models' table
 * and the keyset pager (each turn carries the answer's `nextCursor`).
 */
function ModelList(props: {
  readonly models: Loaded<Envelope<Model[], ModelsMeta>>;
  /** 1 for the first page. */
  readonly page: number;
  readonly onTurn: (to: PageTurn, nextCursor: string | null) => void;
}) {
  const { page, onTurn } = props;
  return (
    <WhenLoaded what="models" loaded={props.models}>
      {({ data, meta }) => (
        <>
          <Status>
            Page {page}: {data.length} models
            {meta.nextCursor ? ", more on the next page" : ""}
          </Status>
          <DataTable
            label="Models"
            caption="Models with their maker's input and output price per 1M tokens"
            columns={COLUMNS}
            class="models"
          >
            {data.map((m) => (
              <ModelRow key={m.id} model={m} />
            ))}
          </DataTable>
          <nav class="pager" aria-label="Pages">
            <button type="button" disabled={page === 1} onClick={() => onTurn("first", meta.nextCursor)}>
              First page
            </button>
            <button type="button" disabled={page === 1} onClick={() => onTurn("previous", meta.nextCursor)}>
              Previous page
            </button>
            <button type="button" disabled={!meta.nextCursor} onClick={() => onTurn("next", meta.nextCursor)}>
              Next page
            </button>
          </nav>
        </>
      )}
    </WhenLoaded>
  );
}

function ModelRow(props: { readonly model: Model }) {
  const m = props.model;
  const input = headline(m.prices, "input");
  const output = headline(m.prices, "output");
  const shown = [input, output].filter((p) => p !== undefined);
  return (
    <tr>
      <th scope="row">
        <a href={`/m/${m.id}`}>{m.name}</a>
        <div class="muted">{m.id}</div>
      </th>
      <td>{m.provider}</td>
      <td class="num">{input ? formatAmount(input.amount, input) : "—"}</td>
      <td class="num">{output ? formatAmount(output.amount, output) : "—"}</td>
      <td>
        <ConfidenceBadge level={weakest(shown.map((p) => p.confidence))} />{" "}
        <DisputedMark disputed={shown.some((p) => p.disputed)} />
      </td>
      <td class="num">{formatCount(m.contextWindow)}</td>
      <td>{m.lifecycle.state}</td>
    </tr>
  );
}
