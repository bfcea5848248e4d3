import { useEffect, useState } from "preact/hooks";
import type { Envelope } from "./types.js";

/** Base path of API v1: the page calls nothing else (T120). */
export const API = "/api/v1";

/**
 * A failed API call: a problem answer (its status and `detail`, api-v1.md Errors) or, with status
 * 0, no answer at all (network failure). `retryAfter` is the 429's `Retry-After` in seconds.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly retryAfter: number | null = null,
  ) {
    super(`${status}: ${detail}`);
  }

  /**
   * True when the failure says nothing about the data, only that the answer did not come (T208):
   * rate limited (429), no connection (0), the server loading or failing (5xx). The page then offers
   * to try again and states nothing about the catalogue.
   */
  get transient(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

/** One API answer and, when the API redirected (an alias, T67), the canonical path it named. */
export interface Answer<T> {
  readonly body: T;
  /** The path under {@link API} the API redirected to, e.g. `/models/anthropic/claude-opus-4-0`. */
  readonly movedTo: string | null;
}

/**
 * GETs `path` under {@link API} (redirects followed, the browser's HTTP cache honoured).
 * @throws ApiError on a problem answer or a network failure (status 0); a DOMException AbortError when `signal` aborts
 */
export async function getJson<T>(path: string, signal?: AbortSignal): Promise<Answer<T>> {
  let response: Response;
  try {
    response = await fetch(`${API}${path}`, { signal, headers: { accept: "application/json" } });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, "the server could not be reached");
  }
  if (!response.ok) {
    const problem = (await response.json().catch(() => null)) as { detail?: string } | null;
    const after = Number(response.headers.get("retry-after"));
    throw new ApiError(
      response.status,
      problem?.detail ?? response.statusText,
      Number.isFinite(after) && after > 0 ? Math.ceil(after) : null,
    );
  }
  const body = (await response.json()) as T;
  let movedTo: string | null = null;
  if (response.redirected) {
    const url = new URL(response.url);
    movedTo = url.pathname.startsWith(API) ? url.pathname.slice(API.length) + url.search : null;
  }
  return { body, movedTo };
}

/** State of one request made by {@link useApi}; `retry` asks again (after a failure). */
export type Loaded<T> =
  | { readonly state: "loading" }
  | { readonly state: "error"; readonly error: ApiError; readonly retry: () => void }
  | { readonly state: "ok"; readonly data: T; readonly movedTo: string | null };

/**
 * GETs an envelope at `path` (none while `path` is null) and re-requests when `path` changes or
 * `retry` is called; a request overtaken by a newer one is aborted, so its answer never shows.
 */
export function useApi<D, M = Record<string, unknown>>(path: string | null): Loaded<Envelope<D, M>> {
  return useGet<Envelope<D, M>>(path);
}

/** {@link useApi} for any JSON body. */
export function useGet<T>(path: string | null): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    setLoaded({ state: "loading" });
    getJson<T>(path, controller.signal).then(
      ({ body, movedTo }) => setLoaded({ state: "ok", data: body, movedTo }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setLoaded({
          state: "error",
          error: error instanceof ApiError ? error : new ApiError(0, String(error)),
          retry: () => setAttempt((n) => n + 1),
        });
      },
    );
    return () => controller.abort();
  }, [path, attempt]);
  return loaded;
}

/** Builds a query string from the set values (`?a=1&b=2`, or "" when none is set). */
export function query(params: Readonly<Record<string, string | number | null | undefined>>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== null && value !== undefined && value !== "") search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
}

/**
 * The page's query parameters as the address bar has them now (not as a render saw them): what a
 * link or a debounced effect builds on, so an effect of an older render that runs after another
 * change of the address keeps that change.
 */
export function currentParams(): Readonly<Record<string, string>> {
  return Object.fromEntries(new URLSearchParams(window.location.search));
}

/** The API path of a model id `<provider>/<model>`, each part percent-encoded: `/models/p/m`. */
export function modelPath(id: string): string {
  return `/models/${id.split("/").map(encodeURIComponent).join("/")}`;
}

/** The web page of a model, carrying the page's point in time (T208): `/m/p/m?at=…`. */
export function modelPage(id: string, at?: string | null): string {
  return `/m/${id}${query({ at })}`;
}

/**
 * The model ids of a page's `models` parameter (compare, the calculator; T208): comma-separated
 * `<provider>/<model>` ids, each once, in the order given; anything else is dropped.
 */
export function modelIdsParam(models: string | undefined): string[] {
  return [...new Set((models ?? "").split(",").filter((id) => /^[^/]+\/[^/]+$/.test(id)))];
}
