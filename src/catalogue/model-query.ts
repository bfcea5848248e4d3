import { type Confidence, confidenceRank } from "../domain/confidence.js";
import { badRequest } from "./errors.js";
import { matchesAll, matchRank, parseTextQuery, type TextQuery } from "./text-match.js";
import type { CatalogueView, ModelEntry } from "./view.js";

/**
 * The shared filter and order of GET /models and GET /models/search (D10, D11, D16) and keyset
 * cursors (D12). Pure over a view.
 */
export interface ModelFilter {
  readonly q: TextQuery | null;
  readonly providers: readonly string[];
  readonly confidence: Confidence | null;
}

/** A matching model with its D10 sort key. */
export interface RankedModel {
  readonly entry: ModelEntry;
  /** D10 rank with `q`; 0 without. */
  readonly rank: number;
}

export function modelFilter(
  q: string | undefined,
  providers: readonly string[],
  confidence: Confidence | undefined,
): ModelFilter {
  return { q: parseTextQuery(q), providers: [...new Set(providers)].sort(), confidence: confidence ?? null };
}

/** Every matching model in D10 order: by id without `q`; by rank then id with it. */
export function matchModels(view: CatalogueView, filter: ModelFilter): RankedModel[] {
  const providers = filter.providers.length > 0 ? new Set(filter.providers) : null;
  const minRank = filter.confidence ? confidenceRank(filter.confidence) : null;
  const out: RankedModel[] = [];
  for (const entry of view.models) {
    if (providers && !providers.has(entry.model.provider)) continue;
    if (minRank !== null && entry.weakestDirectRank < minRank) continue;
    if (filter.q) {
      if (!matchesAll(filter.q, entry.search)) continue;
      out.push({ entry, rank: matchRank(filter.q, entry.search) });
    } else out.push({ entry, rank: 0 });
  }
  if (filter.q) out.sort((a, b) => a.rank - b.rank || (a.entry.model.id < b.entry.model.id ? -1 : 1));
  return out;
}

interface CursorBody {
  /** dataset version the cursor was made in */
  v: string;
  /** sort key of the last row: rank and id */
  r: number;
  i: string;
  /** signature of the filters it was made with */
  f: string;
}

function signature(filter: ModelFilter): string {
  return JSON.stringify([filter.q?.tokens ?? [], filter.providers, filter.confidence]);
}

/** D12: opaque base64url text of the last row's sort key and the filters. */
export function encodeCursor(version: string, last: RankedModel, filter: ModelFilter): string {
  const body: CursorBody = { v: version, r: last.rank, i: last.entry.model.id, f: signature(filter) };
  return Buffer.from(JSON.stringify(body), "utf8").toString("base64url");
}

/**
 * Decodes a cursor and checks it was made with the same filters.
 * @throws CatalogueError bad_request when it does not decode or the filters differ (D12)
 */
export function decodeCursor(cursor: string, filter: ModelFilter): { rank: number; id: string } {
  const invalid = () => badRequest("cursor is not valid: pass meta.nextCursor of a previous response unchanged");
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  if (
    typeof body !== "object" ||
    body === null ||
    typeof (body as CursorBody).r !== "number" ||
    typeof (body as CursorBody).i !== "string" ||
    typeof (body as CursorBody).f !== "string"
  )
    throw invalid();
  const b = body as CursorBody;
  if (b.f !== signature(filter))
    throw badRequest(
      "cursor was made with other filters (q, provider, confidence); repeat them unchanged or drop the cursor",
    );
  return { rank: b.r, id: b.i };
}

/** The rows after a cursor's sort key, at most `limit`, and the next cursor (null when none remain). */
export function page(
  view: CatalogueView,
  rows: readonly RankedModel[],
  filter: ModelFilter,
  limit: number,
  after: { rank: number; id: string } | null,
): { rows: RankedModel[]; nextCursor: string | null } {
  let start = 0;
  if (after) {
    start = rows.findIndex((r) => r.rank > after.rank || (r.rank === after.rank && r.entry.model.id > after.id));
    if (start < 0) start = rows.length;
  }
  const slice = rows.slice(start, start + limit);
  const more = start + limit < rows.length;
  const last = slice[slice.length - 1];
  return { rows: slice, nextCursor: more && last ? encodeCursor(view.version, last, filter) : null };
}
