import { z } from "zod";
import { CHANGE_KINDS, type ChangeRecord, MARKET_KINDS, type PublishedChange } from "../../domain/change.js";
import { CHANNELS, type Channel, isChannel } from "../../domain/channel.js";
import type { Confidence } from "../../domain/confidence.js";
import type { PublishedPrice } from "../../domain/dataset.js";
import { defineEndpoint, integerParam, splitList, textParam } from "../endpoint.js";
import { envelope } from "../envelope.js";
import { badRequest } from "../errors.js";
import { CHANGES_DAYS, CHANGES_LIMIT, parseKinds } from "../params.js";
import { atParam, publishedState, stateMeta } from "../point-in-time.js";
import { ChangesResponse } from "../response-schemas.js";
import type { ApiChange } from "../schemas.js";
import { matchesAll, parseTextQuery, type TextQuery } from "../text-match.js";
import { type CatalogueView, type ChangeEntry, compareNewestFirst, comparePublication } from "../view.js";

/** A dataset version as `meta.datasetVersion` gives it: ISO 8601 UTC, seconds, optional milliseconds. */
const VERSION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;

function isVersion(s: string): boolean {
  const t = Date.parse(s);
  return VERSION.test(s) && !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === s.slice(0, 10);
}

/** The query of GET /changes and /changes.xml (D11, D18, D19, T226): one schema for both. */
export const ChangesInput = z.object({
  days: integerParam(
    "days",
    CHANGES_DAYS.min,
    CHANGES_DAYS.max,
    `Look-back window in days from the dataset version, ${CHANGES_DAYS.min} to ${CHANGES_DAYS.max} (D18); ` +
      `default ${CHANGES_DAYS.default}, or the whole history (${CHANGES_DAYS.max}) with \`since\`.`,
  ).optional(),
  limit: integerParam(
    "limit",
    CHANGES_LIMIT.min,
    null,
    `Maximum rows, at least ${CHANGES_LIMIT.min}; above ${CHANGES_LIMIT.cap} it is capped to ${CHANGES_LIMIT.cap}.`,
  ).default(CHANGES_LIMIT.default),
  provider: textParam("Only this provider's changes (one provider slug).").optional(),
  model: textParam("Only this model's changes (its slug without the provider, e.g. `gpt-4o`).").optional(),
  q: textParam("Free text matched against slug and display name of the model and of its provider (D11).").optional(),
  kind: textParam(
    `Comma-separated change kinds from: ${CHANGE_KINDS.join(", ")}. Default: the market kinds ` +
      `${MARKET_KINDS.join(", ")}.`,
  ).optional(),
  since: z
    .string()
    .refine(isVersion, {
      error: "since must be a dataset version, an ISO 8601 UTC timestamp such as 2026-06-01T00:00:00.000Z",
    })
    .meta({
      description:
        "A dataset version (`meta.datasetVersion` of an earlier answer): only the changes published after it, " +
        "oldest first, in publication order; page on with `cursor` to catch up exactly (T226).",
      example: "2026-06-01T00:00:00.000Z",
    })
    .optional(),
  channel: textParam(
    `Only changes in these channels, comma-separated from: ${CHANNELS.join(", ")}; e.g. \`direct\` for the ` +
      "makers' own moves (T204).",
    "direct",
  ).optional(),
  cursor: textParam(
    "Opaque cursor from meta.nextCursor of the previous page; only valid with the same filters (T204, T226).",
  ).optional(),
  at: atParam,
});

/** Where a page ends: the last row's key in the order of its mode, and the filters (T226). */
interface CursorBody {
  /** `s`: publication order after `since`; `n`: newest first. */
  m: "s" | "n";
  /** Newest first: the last row's `occurredAt`. */
  o?: string;
  /** The last row's publishing version and its order in it. */
  v: string;
  q: number;
  /** Newest first: the dataset version the first page was served from (later publications are left out). */
  p?: string;
  /** Signature of the filters. */
  f: string;
}

interface ChangesFilter {
  readonly kinds: ReadonlySet<string>;
  readonly provider: string | undefined;
  readonly model: string | undefined;
  readonly text: TextQuery | null;
  readonly channels: ReadonlySet<Channel> | null;
  readonly since: string | null;
  readonly days: number | undefined;
  readonly at: string | null;
}

function signature(f: ChangesFilter): string {
  return JSON.stringify([
    [...f.kinds].sort(),
    f.provider ?? null,
    f.model ?? null,
    f.text?.tokens ?? [],
    f.channels ? [...f.channels].sort() : null,
    f.since,
    f.days ?? null,
    f.at,
  ]);
}

function encodeCursor(body: CursorBody): string {
  return Buffer.from(JSON.stringify(body), "utf8").toString("base64url");
}

/**
 * Decodes a `/changes` cursor and checks it was made by the same query.
 * @throws CatalogueError bad_request when it does not decode, or other filters made it (T226)
 */
function decodeCursor(cursor: string, filter: ChangesFilter): CursorBody {
  const invalid = () => badRequest("cursor is not valid: pass meta.nextCursor of a previous response unchanged");
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let body: Partial<CursorBody>;
  try {
    body = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as Partial<CursorBody>;
  } catch {
    throw invalid();
  }
  const newest = body?.m === "n";
  if (
    typeof body !== "object" ||
    body === null ||
    (body.m !== "s" && body.m !== "n") ||
    typeof body.v !== "string" ||
    !Number.isInteger(body.q) ||
    typeof body.f !== "string" ||
    (newest && (typeof body.o !== "string" || typeof body.p !== "string"))
  )
    throw invalid();
  if (body.f !== signature(filter) || newest !== (filter.since === null))
    throw badRequest(
      "cursor was made with other filters (since, days, provider, model, q, kind, channel, at); repeat them unchanged or drop the cursor",
    );
  return body as CursorBody;
}

function matches(entry: ChangeEntry, f: ChangesFilter): boolean {
  if (!f.kinds.has(entry.change.kind)) return false;
  if (!namedBy(entry, f) && !(entry.recorded && namedBy(entry.recorded, f))) return false;
  if (f.channels && !f.channels.has(entry.change.channel)) return false;
  return !f.text || matchesAll(f.text, entry.search);
}

/** Whether the `provider` and `model` filters name this provider and slug (either absent: any). */
function namedBy(names: { readonly provider: string; readonly slug: string }, f: ChangesFilter): boolean {
  return (
    (f.provider === undefined || names.provider === f.provider) && (f.model === undefined || names.slug === f.model)
  );
}

/** The first index of `rows` whose entry sorts after `key` under `compare` (rows sorted by it). */
function firstAfter(
  rows: readonly ChangeEntry[],
  key: PublishedChange,
  compare: (a: PublishedChange, b: PublishedChange) => number,
): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(rows[mid]!.change, key) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The comma-separated `channel` filter of /changes (T204).
 * @throws CatalogueError bad_request naming an unknown channel and the allowed ones
 */
function parseChannels(value: string | undefined): Set<Channel> | null {
  const list = splitList(value);
  if (list.length === 0) return null;
  for (const c of list)
    if (!isChannel(c)) throw badRequest(`channel ${JSON.stringify(c)} is not one of: ${CHANNELS.join(", ")}`);
  return new Set(list as Channel[]);
}

/** A sort key standing for a row: only the fields the orders read are set. */
function keyOf(occurredAt: string, publishedIn: string, seq: number): PublishedChange {
  return { occurredAt, publishedIn, seq } as PublishedChange;
}

/**
 * The confidence of a move (issue 38 §5, T343): the confidence of the price it moved to, as the
 * answered version publishes it — the price of the change's model, channel, seller and label that
 * still states the new amount. Null when no price states it any more (it moved again or was
 * removed) and for a removal. One rule for the API, MCP, feed and the web changes page.
 */
export function moveConfidence(c: ChangeRecord, prices: readonly PublishedPrice[]): Confidence | null {
  if (c.newAmount === null) return null;
  const now = prices.find(
    (p) => p.channel === c.channel && p.seller === c.seller && p.label === c.label && p.amount === c.newAmount,
  );
  return now?.confidence ?? null;
}

/** A stored change as `/changes` shows it (api-v1.md "Change"), with its move's {@link moveConfidence}. */
export function toApiChange(c: PublishedChange, confidence: Confidence | null): ApiChange {
  return {
    kind: c.kind,
    model: c.modelId,
    modelName: c.modelName,
    providerName: c.providerName,
    label: c.label,
    oldAmount: c.oldAmount,
    newAmount: c.newAmount,
    deltaPct: c.deltaPct,
    occurredAt: c.occurredAt,
    channel: c.channel,
    displayUnit: c.displayUnit,
    ...(c.effectiveFrom ? { effectiveFrom: c.effectiveFrom } : {}),
    confidence,
  };
}

/**
 * The changes of GET /changes. Without `since`: market moves newest first (by `occurredAt`, then
 * publication order); the look-back counts from the dataset version, not the wall clock (D18).
 * With `since`: every change published after that dataset version, oldest first in publication
 * order, the look-back the whole history unless `days` is given (T226). Either pages on with a
 * keyset cursor (`meta.nextCursor`, null on the last page): no row twice, none skipped. A
 * newest-first cursor keeps to the version its first page was served from, so publications
 * while a client pages back do not shift its pages (`since` catches up with them). Default
 * kinds are the four market kinds; catalogue additions only when asked for.
 * @throws CatalogueError bad_request for an unknown kind, a malformed `since` or a bad cursor
 */
export function listChanges(view: CatalogueView, input: z.output<typeof ChangesInput>) {
  const filter: ChangesFilter = {
    kinds: new Set(parseKinds(input.kind) ?? MARKET_KINDS),
    provider: input.provider,
    model: input.model,
    text: parseTextQuery(input.q),
    channels: parseChannels(input.channel),
    since: input.since === undefined ? null : new Date(input.since).toISOString(),
    days: input.days,
    at: input.at ?? null,
  };
  const limit = Math.min(input.limit, CHANGES_LIMIT.cap);
  const after = input.cursor === undefined ? null : decodeCursor(input.cursor, filter);
  const days = input.days ?? (filter.since === null ? CHANGES_DAYS.default : CHANGES_DAYS.max);
  // With `at`, the version in force that day; before the first run nothing had changed yet (T204).
  const state = publishedState(view, input.at);
  const top = state.version ?? "";
  // Newest first keeps to the version the first page came from (D18 counts back from it).
  const pin = after?.p ?? top;
  const windowStart = new Date(Date.parse(pin || view.version) - days * 86_400_000).toISOString();
  const inWindow = (entry: ChangeEntry) =>
    entry.change.occurredAt > windowStart && entry.change.publishedIn <= pin && matches(entry, filter);
  const rows: PublishedChange[] = [];
  let more = false;
  let total = 0;
  if (filter.since !== null) {
    const from = firstAfter(view.published, keyOf("", filter.since, Number.POSITIVE_INFINITY), comparePublication);
    const start = after ? firstAfter(view.published, keyOf("", after.v, after.q), comparePublication) : from;
    for (let i = from; i < view.published.length; i++) {
      const entry = view.published[i]!;
      if (!inWindow(entry)) continue;
      total++;
      if (i < start) continue;
      if (rows.length === limit) more = true;
      else rows.push(entry.change);
    }
  } else {
    const start = after ? firstAfter(view.changes, keyOf(after.o!, after.v, after.q), compareNewestFirst) : 0;
    for (let i = 0; i < view.changes.length; i++) {
      const entry = view.changes[i]!;
      if (entry.change.occurredAt <= windowStart) break; // newest first: the rest are older
      if (!inWindow(entry)) continue;
      total++;
      if (i < start) continue;
      if (rows.length === limit) more = true;
      else rows.push(entry.change);
    }
  }
  const last = rows.at(-1);
  const nextCursor =
    more && last
      ? encodeCursor({
          m: filter.since === null ? "n" : "s",
          ...(filter.since === null ? { o: last.occurredAt, p: pin } : {}),
          v: last.publishedIn,
          q: last.seq,
          f: signature(filter),
        })
      : null;
  return envelope(
    view,
    rows.map((c) => toApiChange(c, moveConfidence(c, state.prices(c.modelId)))),
    {
      ...stateMeta(view, state),
      count: rows.length,
      days,
      limit,
      total,
      nextCursor,
    },
  );
}

/** GET /changes (issue 3, D5, D6, D11, D18; `since` and `cursor`, T226). */
export const changesEndpoint = defineEndpoint({
  name: "list_changes",
  summary: "Recent market moves",
  description:
    `Changes newest first; the look-back counts from the dataset version (D18). Default kinds: ${MARKET_KINDS.join(", ")}. ` +
    "With `since` (a dataset version), every change published after it, oldest first; pages continue with " +
    "`cursor` = `meta.nextCursor` (T226).",
  path: "/changes",
  maxAge: 300,
  input: ChangesInput,
  output: ChangesResponse,
  tool: {
    description:
      "Recent market moves across the catalogue, newest first: price increases and decreases, removed prices " +
      "and unit changes, each with model, provider, price label, old and new amount (display units, e.g. USD " +
      "per 1M tokens), percentage change, channel and time. The look-back window counts back from the dataset " +
      "version. Catalogue additions (price_added, coverage_added, reference_changed) and announcements " +
      "(price_announced, announcement_withdrawn: an end a source states ahead of time, with `effectiveFrom`) appear only when asked " +
      "for through `kind`. `channel=direct` keeps the makers' own moves; `meta.total` counts every match in the " +
      "window. To catch up since a dataset version you saw before, pass it as `since` (oldest " +
      "first); continue with `cursor` = meta.nextCursor until it is null. For one model's full history use " +
      "get_model_history.",
  },
  run: (view, input) => listChanges(view, input),
});
