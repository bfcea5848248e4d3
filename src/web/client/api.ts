import { useEffect, useState } from "preact/hooks";
import type { Envelope } from "./types.js";

/** Base path of API v1: the page calls nothing else (T120). */
export const API = "/api/v1";

/** A non-2xx answer of the API: its status and the problem's `detail` (api-v1.md Errors). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`${status}: ${detail}`);
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
 * @throws ApiError on a problem answer; a DOMException AbortError when `signal` aborts
 */
export async function getJson<T>(path: string, signal?: AbortSignal): Promise<Answer<T>> {
  const response = await fetch(`${API}${path}`, { signal, headers: { accept: "application/json" } });
  if (!response.ok) {
    const problem = (await response.json().catch(() => null)) as { detail?: string } | null;
    throw new ApiError(response.status, problem?.detail ?? response.statusText);
  }
  const body = (await response.json()) as T;
  let movedTo: string | null = null;
  if (response.redirected) {
    const url = new URL(response.url);
    movedTo = url.pathname.startsWith(API) ? url.pathname.slice(API.length) + url.search : null;
  }
  return { body, movedTo };
}

/** State of one request made by {@link useApi}. */
export type Loaded<T> =
  | { readonly state: "loading" }
  | { readonly state: "error"; readonly error: ApiError }
  | { readonly state: "ok"; readonly data: T; readonly movedTo: string | null };

/**
 * GETs an envelope at `path` (none while `path` is null) and re-requests when `path` changes; a
 * request overtaken by a newer one is aborted, so its answer never shows.
 */
export function useApi<D, M = Record<string, unknown>>(path: string | null): Loaded<Envelope<D, M>> {
  const [loaded, setLoaded] = useState<Loaded<Envelope<D, M>>>({ state: "loading" });
  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    setLoaded({ state: "loading" });
    getJson<Envelope<D, M>>(path, controller.signal).then(
      ({ body, movedTo }) => setLoaded({ state: "ok", data: body, movedTo }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setLoaded({ state: "error", error: error instanceof ApiError ? error : new ApiError(0, String(error)) });
      },
    );
    return () => controller.abort();
  }, [path]);
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

/** The API path of a model id `<provider>/<model>`, each part percent-encoded: `/models/p/m`. */
export function modelPath(id: string): string {
  return `/models/${id.split("/").map(encodeURIComponent).join("/")}`;
}
