/**
 * Cache-Control values (api-v1.md Limits, D22): `public, max-age=<n>, s-maxage=3600,
 * stale-while-revalidate=86400` on success; errors per D22.
 */
export function successCacheControl(maxAge: number): string {
  return `public, max-age=${maxAge}, s-maxage=3600, stale-while-revalidate=86400`;
}

/** D22: 400, 404 and 405 are cacheable for a minute; 429 and 5xx never. */
export function errorCacheControl(status: number): string {
  return status === 400 || status === 404 || status === 405 ? "public, max-age=60" : "no-store";
}

/** D22 max-age per endpoint, in seconds. */
export const MAX_AGE = {
  meta: 60,
  providers: 900,
  models: 300,
  search: 300,
  model: 3600,
  history: 3600,
  compare: 300,
  changes: 300,
  sources: 900,
  rates: 3600,
  openapi: 3600,
} as const;
