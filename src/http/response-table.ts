import { LRUCache } from "lru-cache";
import type { CatalogueView } from "../catalogue/view.js";
import { CHANNELS } from "../domain/channel.js";
import type { CachedResponse } from "./cached-response.js";
import { API_PREFIX, ROUTES, type RouteSpec } from "./routes.js";

/** Bounds of the cache of responses to free query input, per dataset version. */
export interface ResponseCacheBounds {
  /** Entries (default 5 000). */
  readonly entries?: number;
  /**
   * Bytes (default 64 MiB): an entry weighs its identity body × 1.25 plus 512, the allowance for
   * the gzip and brotli variants it may gain later (JSON compresses to well under 25 %).
   */
  readonly bytes?: number;
}

/** How long a cached error answer is reused (D22's `max-age=60` of 400, 404 and 405). */
const ERROR_TTL_MS = 60_000;

/**
 * Responses kept under an exact query that differs from its canonical one (issue 26 §5, T198):
 * each shares the body of its canonical response, in an LRU of its own, so a client sending random
 * ignored parameters never evicts a rendered body. Bounded in entries and in bytes (issue 47 §2,
 * T471): an entry weighs the body it shares, which it keeps alive after the canonical response is
 * evicted, so 3,000 `/models?limit=500&at=…` in a non-canonical order no longer hold 3,000 bodies.
 */
const DERIVED_ENTRIES = 2000;
/** Bytes the derived entries may keep alive (T471). */
const DERIVED_BYTES = 32 * 1024 * 1024;

/**
 * Past-day answers computed once per version (issue 47 §2, T470): a price-file export of every day
 * of one version is the same body, kept here under the version and the spans in effect; each
 * day's response is derived from it. Bounded in bytes.
 */
const SHARED_BYTES = 32 * 1024 * 1024;

/** What a response may keep alive, in bytes: its identity body × 1.25 (its gzip and br forms) plus 512. */
export function responseWeight(r: CachedResponse): number {
  return Math.ceil(r.body.length * 1.25) + 512;
}

/** A request the table answers before any client asks: a route, its parameters and the URL as sent. */
export interface PrecomputedRequest {
  readonly url: string;
  readonly route: RouteSpec;
  readonly params: Readonly<Record<string, string>>;
}

/**
 * The key a response is kept under in its version's table, the same on both paths: the URL as
 * sent, path and raw query (D21 makes every body a function of version, path and raw query). A
 * body that embeds the origin the request came in on (D19 links without PUBLIC_BASE_URL) is kept
 * per origin: `origin` is that origin, else null. The fast path looks up `req.url` as is, which
 * is this key for every response it can answer. A response is rendered once per canonical query
 * ({@link canonicalQuery}) and shared by the exact queries that reduce to it (issue 26 §5, T198).
 */
export function responseKey(url: string, origin: string | null): string {
  return origin === null ? url : `${origin} ${url}`;
}

/**
 * The canonical form of a raw query for an endpoint (issue 26 §5, T198): only the parameters the
 * endpoint knows (D13: the others are ignored, so they cannot change the body), sorted by name
 * (stable: a parameter given twice keeps its values' order, and stays a 400), re-serialized with
 * the WHATWG rules the route parses with. Two queries with the same canonical form get the same
 * body, status, Cache-Control and `x-dataset-version`; only the ETag (D21: the query as sent) and
 * a 308's `Location` differ. Defaults are not filled in (`limit=50` and no `limit` stay two forms).
 * @param known the endpoint's parameter names
 * @param query the raw query, without `?`
 */
export function canonicalQuery(known: ReadonlySet<string>, query: string): string {
  if (query === "") return "";
  const kept: [string, string][] = [];
  for (const [name, value] of new URLSearchParams(query)) if (known.has(name)) kept.push([name, value]);
  kept.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return new URLSearchParams(kept).toString();
}

/**
 * The responses of one dataset version (issue 6 §1), keyed by {@link responseKey}: the
 * parameter-free responses built when the version becomes current, and a bounded LRU of the
 * responses to free input (T52).
 */
export class ResponseTable {
  readonly view: CatalogueView;
  readonly #fixed = new Map<string, CachedResponse>();
  readonly #free: LRUCache<string, CachedResponse>;
  readonly #derived = new LRUCache<string, CachedResponse>({
    max: DERIVED_ENTRIES,
    maxSize: DERIVED_BYTES,
    sizeCalculation: responseWeight,
    perf: { now: () => Date.now() },
  });
  readonly #shared = new LRUCache<string, CachedResponse>({ maxSize: SHARED_BYTES, sizeCalculation: responseWeight });

  constructor(view: CatalogueView, bounds: ResponseCacheBounds = {}) {
    this.view = view;
    this.#free = new LRUCache<string, CachedResponse>({
      max: bounds.entries ?? 5000,
      maxSize: bounds.bytes ?? 64 * 1024 * 1024,
      sizeCalculation: responseWeight,
      // Error entries expire on the wall clock, the clock a dated 400 depends on (T147).
      perf: { now: () => Date.now() },
    });
  }

  get(key: string): CachedResponse | undefined {
    return this.#fixed.get(key) ?? this.#free.get(key) ?? this.#derived.get(key);
  }

  /**
   * Keeps a response derived from a canonical one ({@link CachedResponse.derive}) under its exact
   * key, in the bounded LRU of derived entries (T198); an error as long as {@link remember} keeps it.
   */
  rememberDerived(key: string, response: CachedResponse): void {
    if (response.status >= 400) this.#derived.set(key, response, { ttl: ERROR_TTL_MS });
    else this.#derived.set(key, response);
  }

  /**
   * Keeps a response to free input (evicted by the bounds). An error is kept only as long as a
   * client may cache it (D22: 60 s): a 400 can depend on the clock (`at` after today, T147).
   */
  remember(key: string, response: CachedResponse): void {
    if (response.status >= 400) this.#free.set(key, response, { ttl: ERROR_TTL_MS });
    else this.#free.set(key, response);
  }

  /** The past-day answer computed for a version and its spans in effect ({@link rememberShared}, T470). */
  shared(key: string): CachedResponse | undefined {
    return this.#shared.get(key);
  }

  /** Keeps a past-day answer (a 200) that every day of one version with the same spans answers (T470). */
  rememberShared(key: string, response: CachedResponse): void {
    this.#shared.set(key, response);
  }

  /** Keeps a precomputed response for the life of the version. */
  fix(key: string, response: CachedResponse): void {
    this.#fixed.set(key, response);
  }

  /** Counts and bytes held, for the bench and the docs (derived entries share their canonical bytes). */
  stats(): {
    fixed: number;
    fixedBytes: number;
    free: number;
    freeBytes: number;
    derived: number;
    derivedWeight: number;
    shared: number;
  } {
    let fixedBytes = 0;
    for (const r of this.#fixed.values()) fixedBytes += r.bytes;
    let freeBytes = 0;
    for (const r of this.#free.values()) freeBytes += r.bytes;
    return {
      fixed: this.#fixed.size,
      fixedBytes,
      free: this.#free.size,
      freeBytes,
      derived: this.#derived.size,
      derivedWeight: this.#derived.calculatedSize,
      shared: this.#shared.size,
    };
  }
}

/** A path segment the router takes literally (no percent-decoding, no dot segment). */
const LITERAL_SEGMENT = /^(?!\.{1,2}$)[A-Za-z0-9._~-]+$/;

/**
 * The parameter-free requests of a view (issue 6 §1): `/meta`, `/providers`, `/sources`, `/rates`,
 * `/models` and `/changes` without a query, and per model its record (no query, and
 * `?channel=<c>` for every channel that sells it and `direct`) and its history. Models whose
 * provider or slug would need percent-encoding are left to the lazy path.
 */
export function precomputedRequests(view: CatalogueView): PrecomputedRequest[] {
  const byPath = new Map(ROUTES.map((r) => [r.path, r]));
  const route = (path: string): RouteSpec => {
    const found = byPath.get(path);
    if (!found) throw new Error(`no route ${path}`);
    return found;
  };
  const out: PrecomputedRequest[] = [];
  for (const path of ["/meta", "/providers", "/sources", "/rates", "/models", "/changes"])
    out.push({ url: `${API_PREFIX}${path}`, route: route(path), params: {} });
  const model = route("/models/:provider/:model");
  const history = route("/models/:provider/:model/history");
  for (const entry of view.models) {
    const { provider, slug } = entry.model;
    if (!LITERAL_SEGMENT.test(provider) || !LITERAL_SEGMENT.test(slug)) continue;
    const params = { provider, model: slug };
    const base = `${API_PREFIX}/models/${provider}/${slug}`;
    out.push({ url: base, route: model, params });
    for (const channel of CHANNELS)
      if (channel === "direct" || entry.prices.has(channel))
        out.push({ url: `${base}?channel=${channel}`, route: model, params });
    out.push({ url: `${base}/history`, route: history, params });
  }
  return out;
}
