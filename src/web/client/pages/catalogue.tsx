import { useEffect, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { currentParams, modelPage, query, useApi } from "../api.js";
import { PastNotice, usePageAt } from "../components/at-picker.js";
import { LevelsLink } from "../components/badges.js";
import { Page } from "../components/page.js";
import { useSettled } from "../debounce.js";
import type { Model } from "../types.js";
import { type CatalogueLinkChange, FILTER_KEYS, type Filters, type Sort } from "./catalogue/filters.js";
import { FiltersForm } from "./catalogue/filters-form.js";
import { ModelList, type ModelsMeta } from "./catalogue/model-list.js";

const PAGE_SIZE = 50;

/**
 * The catalogue (issue 18 §1, issue 28 §4): search as you type, filters by maker, channel,
 * modality, open weights, context window and confidence, a choice of order, and keyset pages both
 * ways. Every row shows a price when any channel sells the model (the listed price, T202), marked
 * with its channel when it is not the maker's own; its badge is the one confidence the filter uses.
 *
 * The page reads the URL and asks `/models`; the form is `catalogue/filters-form.tsx`, the answer
 * `catalogue/model-list.tsx` (issue 45 §5).
 */
export function CataloguePage() {
  const { query: params, route } = useLocation();
  const at = usePageAt();
  const filters = Object.fromEntries(FILTER_KEYS.map((k) => [k, params[k] ?? ""])) as unknown as Filters;
  const cursor = params.cursor ?? "";
  const page = Math.max(1, Number(params.page) || 1);
  const [text, setText] = useState(filters.q);
  const q = useSettled(text, 200);

  const go = (next: CatalogueLinkChange) => {
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
  const models = useApi<Model[], ModelsMeta>(`/models${query(modelsQuery(filters, sort, cursor, at))}`);
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
      <FiltersForm
        filters={filters}
        sort={sort}
        text={text}
        onText={setText}
        at={at}
        go={go}
        onPick={(id) => route(modelPage(id, at))}
      />
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

/** The `/models` parameters of a page of the catalogue: its filters, order, cursor and day, at listed prices. */
function modelsQuery(filters: Filters, sort: Sort, cursor: string, at: string | null) {
  return {
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
  };
}
