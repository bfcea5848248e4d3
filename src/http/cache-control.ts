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
