import { type EndpointServices, NO_SERVICES } from "../catalogue/call.js";
import type { CatalogueView } from "../catalogue/view.js";
import type { ViewHolder } from "../catalogue/view-holder.js";
import type { CachedResponse } from "./cached-response.js";
import { etagVersion, weakEtag } from "./etag.js";
import { atOfQuery, type PastDayRenderer, PastDays } from "./past-days.js";
import { type ResponseShape, renderResponse } from "./render.js";
import { splitUrl } from "./request-url.js";
import { canonicalQuery, precomputedRequests, type ResponseCacheBounds, ResponseTable } from "./response-table.js";
import type { RouteSpec } from "./routes.js";

/** The parameter names of each route's endpoint, for {@link canonicalQuery}. */
const KNOWN_PARAMS = new WeakMap<RouteSpec, ReadonlySet<string>>();

function knownParams(route: RouteSpec): ReadonlySet<string> {
  let known = KNOWN_PARAMS.get(route);
  if (!known) {
    known = new Set(Object.keys(route.endpoint.input.shape));
    KNOWN_PARAMS.set(route, known);
  }
  return known;
}

/** Precomputed responses are built in slices of this many ms, yielding to requests in between. */
const PRECOMPUTE_SLICE_MS = 5;

/** Settings of {@link VersionedResponses}. */
export interface VersionedResponsesOptions {
  readonly shape: ResponseShape;
  readonly bounds?: ResponseCacheBounds;
  /** Build the parameter-free responses when a version becomes current (T52; default true). */
  readonly precompute?: boolean;
  /** What the endpoints' parameters load through (the process's, built in `src/cli/`, T275); default none. */
  readonly services?: EndpointServices | undefined;
  /** Where past-day answers are rendered off the event loop (a worker thread, issue 47 §2, T470); default in process. */
  readonly pastDays?: PastDayRenderer | null | undefined;
}

/**
 * The response tables of the served versions (issue 6 §1, T52): the current view's and the one
 * before it (requests that took the old view before a swap finish on it, D21); a table is found
 * by the view's identity. When a view becomes current its parameter-free responses are built in
 * 5 ms slices between requests; a response not built yet is rendered on demand and remembered.
 */
export class VersionedResponses {
  readonly #shape: ResponseShape;
  readonly #bounds: ResponseCacheBounds;
  readonly #precompute: boolean;
  readonly #services: EndpointServices;
  /** Past-day answers: once per version and spans, off the event loop (T470). */
  readonly pastDays: PastDays;
  #tables: ResponseTable[] = [];
  #building: Promise<void> = Promise.resolve();
  #renders = 0;

  /** Follows `views`: the current view's table is made now and at every swap. */
  constructor(views: ViewHolder, options: VersionedResponsesOptions) {
    this.#shape = options.shape;
    this.#bounds = options.bounds ?? {};
    this.#precompute = options.precompute ?? true;
    this.#services = options.services ?? NO_SERVICES;
    this.pastDays = new PastDays(this.#shape, this.#services, options.pastDays ?? null);
    const initial = views.current();
    if (initial) this.tableFor(initial);
    views.onSwap((view) => {
      if (view) this.tableFor(view);
    });
  }

  /** The table of a view, made (and its precompute started) when the view is new. */
  tableFor(view: CatalogueView): ResponseTable {
    for (const table of this.#tables) if (table.view === view) return table;
    const table = new ResponseTable(view, this.#bounds);
    this.#tables = [table, ...this.#tables].slice(0, 2);
    if (this.#precompute) this.#build(table);
    return table;
  }

  /**
   * The response under `key` in the view's table. On a miss the response of the URL's canonical
   * query ({@link canonicalQuery}) is found or rendered ({@link renderResponse}) and remembered;
   * when the URL as sent differs from it, the answer is derived from it (its own ETag over the
   * exact query, D21; the body and its coded forms shared) and remembered under `key` too, so no
   * ignored parameter makes the server render or compress one answer twice (issue 26 §5, T198).
   * @param key {@link responseKey} of `url`
   * @throws StoreUnavailableError when an `at` answer's point-in-time index cannot be read (T199)
   * @throws an unexpected fault of the route (answered 500 by the Fastify path, D25)
   */
  async responseFor(
    view: CatalogueView,
    key: string,
    route: RouteSpec,
    url: string,
    params: Readonly<Record<string, string>>,
    baseUrl: string,
  ): Promise<CachedResponse> {
    const table = this.tableFor(view);
    const known = table.get(key);
    if (known) return known;
    const [path, query] = splitUrl(url);
    const canonical = canonicalQuery(knownParams(route), query);
    if (canonical === query) return this.#render(table, key, route, url, params, baseUrl);
    const canonicalUrl = canonical === "" ? path : `${path}?${canonical}`;
    // The key ends with the URL; what precedes it (the origin, D19) is the same for both.
    const canonicalKey = `${key.slice(0, key.length - url.length)}${canonicalUrl}`;
    const base =
      table.get(canonicalKey) ?? (await this.#render(table, canonicalKey, route, canonicalUrl, params, baseUrl));
    const location =
      base.location === undefined ? undefined : `${splitUrl(base.location)[0]}${query ? `?${query}` : ""}`;
    const made = base.derive(weakEtag(etagVersion(view, route.endpoint), path, query), location);
    table.rememberDerived(key, made);
    return made;
  }

  /** How many responses were rendered on demand (not precomputed) so far: the bench's and tests' count (T198). */
  get renders(): number {
    return this.#renders;
  }

  async #render(
    table: ResponseTable,
    key: string,
    route: RouteSpec,
    url: string,
    params: Readonly<Record<string, string>>,
    baseUrl: string,
  ): Promise<CachedResponse> {
    this.#renders++;
    const made =
      (await this.pastDays.answer(table, route, url, params, baseUrl)) ??
      (await renderResponse(route, table.view, url, params, { baseUrl }, this.#shape, this.#services));
    table.remember(key, made);
    return made;
  }

  /**
   * Whether answering `url` computes a past day (T472): it asks one (`at`) and neither it nor its
   * canonical query has an answer in the view's table yet. The D24 limit charges such a request
   * more than one answered from memory.
   * @param key {@link responseKey} of `url`
   */
  coldPastDay(view: CatalogueView, key: string, route: RouteSpec, url: string): boolean {
    const table = this.tableFor(view);
    if (table.get(key)) return false;
    const [path, query] = splitUrl(url);
    const canonical = canonicalQuery(knownParams(route), query);
    if (atOfQuery(route, canonical) === undefined) return false;
    const canonicalUrl = canonical === "" ? path : `${path}?${canonical}`;
    return table.get(`${key.slice(0, key.length - url.length)}${canonicalUrl}`) === undefined;
  }

  /** Resolves when the latest version's precomputed responses are built (for tests and the bench). */
  built(): Promise<void> {
    return this.#building;
  }

  /** Builds the parameter-free responses of a table in slices, so requests are served in between. */
  #build(table: ResponseTable): void {
    const requests = precomputedRequests(table.view);
    let next = 0;
    let done = () => {};
    this.#building = new Promise((resolve) => {
      done = resolve;
    });
    const slice = async () => {
      if (!this.#tables.includes(table)) return done(); // a newer version took over
      const until = performance.now() + PRECOMPUTE_SLICE_MS;
      for (; next < requests.length && performance.now() < until; next++) {
        const r = requests[next];
        if (!r) continue;
        try {
          const { route, url, params } = r;
          table.fix(
            url,
            await renderResponse(route, table.view, url, params, { baseUrl: "" }, this.#shape, this.#services),
          );
        } catch {
          // An unexpected fault is left to the request, which logs it and answers 500 (D25).
        }
      }
      if (next < requests.length) setImmediate(() => void slice());
      else done();
    };
    void slice();
  }
}
