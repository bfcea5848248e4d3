/**
 * The path form of `at` (issue 38 §6, T314): `/api/v1/at/<YYYY-MM-DD>/<rest>` is
 * `/api/v1/<rest>?at=<YYYY-MM-DD>` (the request's own query kept after it), for clients that append
 * a file name to a base URL and so cannot put a query string at the end: OpenCode reads
 * `${OPENCODE_MODELS_URL}/api.json`, so `OPENCODE_MODELS_URL=<origin>/api/v1/at/2026-03-01/exports/models-dev`
 * gives the models.dev export as of 2026-03-01. Only the date's shape is checked here; the endpoint
 * validates it like any `at` (D13: a 400 naming it), and an `at` given in both forms is given twice (a 400).
 */
const AT_PATH = /^\/api\/v1\/at\/(\d{4}-\d{2}-\d{2})(\/[^?]*)(?:\?(.*))?$/s;

/** `url` with its path form of `at` made a query parameter; any other URL unchanged (the same string). */
export function atPathToQuery(url: string): string {
  if (!url.startsWith("/api/v1/at/")) return url;
  const m = AT_PATH.exec(url);
  if (!m) return url;
  const [, date, rest, query] = m;
  return `/api/v1${rest}?at=${date}${query ? `&${query}` : ""}`;
}
