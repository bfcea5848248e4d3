import { type EndpointServices, NO_SERVICES } from "../catalogue/call.js";
import { StoreUnavailableError } from "../catalogue/errors.js";
import { CachedResponse, EncodedBody } from "./cached-response.js";
import { etagVersion, weakEtag } from "./etag.js";
import { type ResponseShape, renderResponse } from "./render.js";
import { splitUrl } from "./request-url.js";
import type { ResponseTable } from "./response-table.js";
import type { RouteSpec } from "./routes.js";

/**
 * One past-day question handed to a {@link PastDayRenderer} (issue 47 §2, T470): the route (by its
 * path), the canonical URL and path parameters, the origin of links (D19), and the served view it
 * must be answered from (its version and build time, so the renderer's bodies equal this process's).
 */
export interface PastDayJob {
  readonly served: string;
  readonly generatedAt: string;
  readonly path: string;
  readonly url: string;
  readonly params: Readonly<Record<string, string>>;
  readonly baseUrl: string;
  /** Make the gzip and br forms too (compression is on, T51). */
  readonly compression: boolean;
}

/**
 * What a renderer answers: the response (its validators are the caller's: the ETag is made here),
 * with its coded forms when it made them; the store could not be read (a 503, T199); it declines
 * (it cannot answer from the same version: the caller renders in process); or a fault (a 500, D25).
 */
export type PastDayResult =
  | {
      readonly kind: "response";
      readonly status: number;
      readonly body: Uint8Array;
      readonly contentType: string;
      readonly cacheControl: string;
      readonly version: string;
      readonly location?: string;
      readonly headers?: Readonly<Record<string, string>>;
      readonly br?: Uint8Array;
      readonly gzip?: Uint8Array;
    }
  | { readonly kind: "unavailable"; readonly detail: string; readonly retryAfterSeconds: number }
  | { readonly kind: "declined" }
  | { readonly kind: "fault"; readonly message: string };

/** Renders past-day answers away from the event loop that serves requests (a worker thread, T470). */
export interface PastDayRenderer {
  render(job: PastDayJob): Promise<PastDayResult>;
  close(): Promise<void>;
}

/** A calendar day, YYYY-MM-DD (an impossible one, 2027-02-30, is the endpoint's 400 and shares nothing, T420). */
function isCalendarDay(at: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(at)) return false;
  const time = Date.parse(`${at}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === at;
}

/** The `at` of a canonical query when its route takes one and it is given once; else undefined. */
export function atOfQuery(route: RouteSpec, query: string): string | undefined {
  if (!("at" in route.endpoint.input.shape) || query === "") return undefined;
  const all = new URLSearchParams(query).getAll("at");
  return all.length === 1 ? all[0] : undefined;
}

/**
 * Whether a route's past-day answers go to the renderer: every route that takes `at` but `/cost`,
 * whose answers are cheap (one model) and whose semantics are another issue's.
 */
function offloaded(route: RouteSpec): boolean {
  return route.path !== "/cost";
}

/**
 * The key every day of one version answers one body under (T470), or undefined when the day's
 * answer is its own: a price-file export (`readsUpstream`) of a day up to today is a function of the
 * served view, the origin and the version in force that day alone — its spans are those that
 * version published (exports apply no announcement), and its body names no day. The other `at`
 * answers echo the day (`meta.at`, the cursor), so each day is its own answer.
 * @throws StoreUnavailableError while the list of versions cannot be read (T199)
 */
async function sharedKeyOf(
  route: RouteSpec,
  table: ResponseTable,
  at: string,
  baseUrl: string,
): Promise<string | undefined> {
  if (!route.endpoint.readsUpstream || !isCalendarDay(at)) return undefined;
  if (at > new Date().toISOString().slice(0, 10)) return undefined; // a 400 (the exports refuse a future day)
  const version = await table.view.versionOn(at);
  return version === null ? undefined : `${route.path} ${baseUrl} ${version}`;
}

/**
 * Past-day answers (issue 47 §2, T470): computed once per version and spans in effect, and by a
 * {@link PastDayRenderer} (a worker thread) when the process has one, so a cold day never holds the
 * event loop. Without one (tests, `tariff mcp`) they are rendered in process as before.
 */
export class PastDays {
  readonly #renderer: PastDayRenderer | null;
  readonly #shape: ResponseShape;
  readonly #services: EndpointServices;
  readonly #pending = new WeakMap<ResponseTable, Map<string, Promise<CachedResponse>>>();
  #computations = 0;

  constructor(shape: ResponseShape, services: EndpointServices = NO_SERVICES, renderer: PastDayRenderer | null = null) {
    this.#shape = shape;
    this.#services = services;
    this.#renderer = renderer;
  }

  /** How many past-day answers were computed (rendered here or by the renderer): the tests' count. */
  get computations(): number {
    return this.#computations;
  }

  /**
   * The response of a canonical URL when it asks a past day (`at`), else null (the caller renders).
   * A day whose version's body is known (another day of it was asked) is derived from it, with its
   * own ETag (D21); days asked at once share one computation.
   * @throws StoreUnavailableError when the store cannot be read (a 503, T199); an Error on a renderer's fault (D25)
   */
  async answer(
    table: ResponseTable,
    route: RouteSpec,
    url: string,
    params: Readonly<Record<string, string>>,
    baseUrl: string,
  ): Promise<CachedResponse | null> {
    const [path, query] = splitUrl(url);
    const at = atOfQuery(route, query);
    if (at === undefined) return null;
    const key = await sharedKeyOf(route, table, at, baseUrl);
    if (key === undefined) return this.#compute(table, route, url, params, baseUrl);
    const etag = weakEtag(etagVersion(table.view, route.endpoint), path, query);
    const known = table.shared(key) ?? (await this.#pendingOf(table).get(key));
    if (known) return known.etag === etag ? known : known.derive(etag, known.location);
    const pending = this.#pendingOf(table);
    const computing = this.#compute(table, route, url, params, baseUrl).then((made) => {
      if (made.status === 200) table.rememberShared(key, made);
      return made;
    });
    pending.set(key, computing);
    try {
      return await computing;
    } finally {
      pending.delete(key);
    }
  }

  #pendingOf(table: ResponseTable): Map<string, Promise<CachedResponse>> {
    let pending = this.#pending.get(table);
    if (!pending) {
      pending = new Map();
      this.#pending.set(table, pending);
    }
    return pending;
  }

  async #compute(
    table: ResponseTable,
    route: RouteSpec,
    url: string,
    params: Readonly<Record<string, string>>,
    baseUrl: string,
  ): Promise<CachedResponse> {
    this.#computations++;
    const view = table.view;
    if (this.#renderer && offloaded(route)) {
      const job = { served: view.version, generatedAt: view.generatedAt, path: route.path, url, params, baseUrl };
      const result = await this.#renderer.render({ ...job, compression: this.#shape.compression });
      if (result.kind !== "declined") return this.#responseOf(table, route, url, result);
    }
    return renderResponse(route, view, url, params, { baseUrl }, this.#shape, this.#services);
  }

  #responseOf(
    table: ResponseTable,
    route: RouteSpec,
    url: string,
    result: Exclude<PastDayResult, { kind: "declined" }>,
  ): CachedResponse {
    if (result.kind === "unavailable") throw new StoreUnavailableError(result.detail, result.retryAfterSeconds);
    if (result.kind === "fault") throw new Error(`past-day renderer: ${result.message}`);
    const [path, query] = splitUrl(url);
    const body = Buffer.from(result.body.buffer, result.body.byteOffset, result.body.byteLength);
    const coded = {
      ...(result.br ? { br: Buffer.from(result.br.buffer, result.br.byteOffset, result.br.byteLength) } : {}),
      ...(result.gzip ? { gzip: Buffer.from(result.gzip.buffer, result.gzip.byteOffset, result.gzip.byteLength) } : {}),
    };
    const fields = {
      status: result.status,
      body,
      contentType: result.contentType,
      cacheControl: result.cacheControl,
      etag: weakEtag(etagVersion(table.view, route.endpoint), path, query),
      version: result.version,
      ...(result.location === undefined ? {} : { location: result.location }),
      ...(result.headers === undefined ? {} : { headers: result.headers }),
    };
    return new CachedResponse(fields, this.#shape.compression, this.#shape.counted, new EncodedBody(body, coded));
  }
}
