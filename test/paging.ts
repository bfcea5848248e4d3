import { expect } from "vitest";
import { toApiChange } from "../src/catalogue/endpoints/changes.js";
import type { ApiChange } from "../src/catalogue/schemas.js";
import type { PublishedChange } from "../src/domain/change.js";
/** One page of a paged answer (D12): its items and the cursor of the next page, null on the last. */
export interface CursorPage<T = unknown> {
  readonly data: readonly T[];
  readonly meta: { readonly nextCursor?: string | null };
}

/**
 * Follows `meta.nextCursor` from `path` to the last page (D12, issue 34 §5): the one walker of the
 * suites that page `/models`, `/changes` and their MCP and store mirrors. `read` fetches one page
 * (and asserts what each page must hold); the cursor is appended as `&cursor=` (`?cursor=` when
 * `path` has no query), URL-encoded. `between(n)` runs before the `n`th page after the first.
 * @returns every page, in order (their items: `pages.flatMap((p) => p.data)`)
 * @throws Error after `maxPages` pages (a cursor that never ends)
 */
export async function walkPages<P extends CursorPage>(
  path: string,
  read: (path: string) => Promise<P>,
  options: { between?: (n: number) => void | Promise<void>; maxPages?: number } = {},
): Promise<P[]> {
  const pages: P[] = [];
  const join = path.includes("?") ? "&" : "?";
  let cursor: string | null | undefined = null;
  do {
    if (pages.length >= (options.maxPages ?? 1000)) throw new Error(`${path}: more than ${pages.length} pages`);
    if (pages.length > 0) await options.between?.(pages.length);
    const page: P = await read(cursor ? `${path}${join}cursor=${encodeURIComponent(cursor)}` : path);
    pages.push(page);
    cursor = page.meta.nextCursor;
  } while (cursor);
  return pages;
}

/** The items of every page of {@link walkPages}, in order. */
export async function walkItems<T>(path: string, read: (path: string) => Promise<CursorPage<T>>): Promise<T[]> {
  return (await walkPages(path, read)).flatMap((p) => [...p.data]);
}

/** One page of `/changes` (D12). */
export interface ChangesPage {
  readonly data: ApiChange[];
  readonly meta: { readonly nextCursor: string | null; readonly count: number };
}

/**
 * Every page of the `/changes` query `query` (without `?`), following `meta.nextCursor`; each page's
 * `meta.count` must be its number of rows. `read` fetches one path; `between` as in {@link walkPages}.
 * @returns the rows of all pages in order, and the number of pages
 */
export async function changesPages(
  read: (path: string) => Promise<ChangesPage>,
  query: string,
  between?: (n: number) => void,
): Promise<{ rows: ApiChange[]; pages: number }> {
  const pages = await walkPages(`/api/v1/changes?${query}`, read, { between });
  for (const page of pages) expect(page.meta.count).toBe(page.data.length);
  return { rows: pages.flatMap((p) => p.data), pages: pages.length };
}

/** `/changes` rows without `confidence` (T343: the answering version computes it), as the store holds them. */
export function storedRows(rows: readonly ApiChange[]): Omit<ApiChange, "confidence">[] {
  return rows.map(({ confidence: _, ...row }) => row);
}

/** A stored change as `/changes` shows it, but for `confidence` (see {@link storedRows}). */
export function storedChange(c: PublishedChange): Omit<ApiChange, "confidence"> {
  const { confidence: _, ...row } = toApiChange(c, null);
  return row;
}
