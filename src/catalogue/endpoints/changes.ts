import { z } from "zod";
import { CHANGE_KINDS, MARKET_KINDS } from "../../domain/change.js";
import { CHANNELS, type Channel, isChannel } from "../../domain/channel.js";
import { defineEndpoint, integerParam, splitList, textParam } from "../endpoint.js";
import { envelope } from "../envelope.js";
import { badRequest } from "../errors.js";
import { CHANGES_DAYS, CHANGES_LIMIT, parseKinds } from "../params.js";
import { atParam, publishedState, stateMeta } from "../point-in-time.js";
import { type ApiChange, ChangesResponse } from "../schemas.js";
import { matchesAll, parseTextQuery } from "../text-match.js";
import type { CatalogueView } from "../view.js";

/** The query of GET /changes and /changes.xml (D11, D18, D19): one schema for both. */
export const ChangesInput = z.object({
  days: integerParam(
    "days",
    CHANGES_DAYS.min,
    CHANGES_DAYS.max,
    `Look-back window in days from the dataset version, ${CHANGES_DAYS.min} to ${CHANGES_DAYS.max} (D18).`,
  ).default(CHANGES_DAYS.default),
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
  channel: textParam(
    `Only changes in these channels, comma-separated from: ${CHANNELS.join(", ")}; e.g. \`direct\` for the ` +
      "makers' own moves (T204).",
    "direct",
  ).optional(),
  cursor: textParam(
    "Opaque cursor from meta.nextCursor of the previous page: the changes after its last row, with the same " +
      "filters (T204).",
  ).optional(),
  at: atParam,
});

/** Where a page of changes continues: after the row of run `t` at position `n` within that run (T204). */
interface ChangeCursor {
  /** occurredAt of the last row */
  t: string;
  /** its position among its run's changes (filters aside): stable, a run's changes never change */
  n: number;
  /** the filters' signature */
  f: string;
}

/**
 * Decodes a `/changes` cursor made with the same filters (T204).
 * @throws CatalogueError bad_request when it does not decode or was made with other filters
 */
function decodeChangeCursor(cursor: string, signature: string): { t: string; n: number } {
  const invalid = () => badRequest("cursor is not valid: pass meta.nextCursor of a previous response unchanged");
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  const b = body as Partial<ChangeCursor> | null;
  if (
    typeof b !== "object" ||
    b === null ||
    typeof b.t !== "string" ||
    typeof b.n !== "number" ||
    typeof b.f !== "string"
  )
    throw invalid();
  if (b.f !== signature)
    throw badRequest(
      "cursor was made with other filters (days, provider, model, q, kind, channel, at); repeat them unchanged or drop the cursor",
    );
  return { t: b.t, n: b.n };
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

/**
 * The changes of GET /changes: market moves newest first. The look-back counts from the dataset
 * version, not the wall clock (D18); with `at`, from the version in force on that day (T204).
 * Default kinds are the four market kinds; catalogue additions only when asked for. `meta.total`
 * counts every change the filters match in the window, `meta.nextCursor` continues after the last
 * row (null on the last page) (T204).
 * @throws CatalogueError bad_request for an unknown kind or channel, or a bad cursor
 */
export function listChanges(view: CatalogueView, input: z.output<typeof ChangesInput>) {
  const kinds = new Set(parseKinds(input.kind) ?? MARKET_KINDS);
  const channels = parseChannels(input.channel);
  const limit = Math.min(input.limit, CHANGES_LIMIT.cap);
  const state = publishedState(view, input.at);
  // Before the first run (an `at` that early) nothing had changed yet.
  const until = state.version ?? "";
  const since = new Date(Date.parse(until || view.version) - input.days * 86_400_000).toISOString();
  const text = parseTextQuery(input.q);
  const signature = JSON.stringify([
    input.days,
    input.provider ?? null,
    input.model ?? null,
    text?.tokens ?? [],
    [...kinds].sort(),
    channels ? [...channels].sort() : null,
    input.at ?? null,
  ]);
  const after = input.cursor !== undefined ? decodeChangeCursor(input.cursor, signature) : null;
  const data: ApiChange[] = [];
  let total = 0;
  let last: { t: string; n: number } | null = null;
  let more = false;
  let run = "";
  let n = -1;
  for (const entry of view.changes) {
    const c = entry.change;
    if (c.occurredAt !== run) {
      run = c.occurredAt;
      n = -1;
    }
    n++;
    if (c.occurredAt > until) continue; // after the version asked for with `at`
    if (c.occurredAt <= since) break; // newest first: the rest are older
    if (!kinds.has(c.kind)) continue;
    if (channels && !channels.has(c.channel)) continue;
    if (input.provider !== undefined && entry.provider !== input.provider) continue;
    if (input.model !== undefined && entry.slug !== input.model) continue;
    if (text && !matchesAll(text, entry.search)) continue;
    total++;
    if (after && (c.occurredAt > after.t || (c.occurredAt === after.t && n <= after.n))) continue;
    if (data.length >= limit) {
      more = true;
      continue;
    }
    last = { t: c.occurredAt, n };
    data.push({
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
    });
  }
  const nextCursor =
    more && last
      ? Buffer.from(JSON.stringify({ ...last, f: signature } satisfies ChangeCursor), "utf8").toString("base64url")
      : null;
  return envelope(view, data, {
    ...stateMeta(view, state),
    count: data.length,
    days: input.days,
    limit,
    total,
    nextCursor,
  });
}

/** GET /changes (issue 3, D5, D6, D11, D18). */
export const changesEndpoint = defineEndpoint({
  name: "list_changes",
  summary: "Recent market moves",
  description: `Changes newest first; the look-back counts from the dataset version (D18). Default kinds: ${MARKET_KINDS.join(", ")}.`,
  path: "/changes",
  maxAge: 300,
  input: ChangesInput,
  output: ChangesResponse,
  tool: {
    description:
      "Recent market moves across the catalogue, newest first: price increases and decreases, removed prices " +
      "and unit changes, each with model, provider, price label, old and new amount (display units, e.g. USD " +
      "per 1M tokens), percentage change, channel and time. The look-back window counts back from the dataset " +
      "version. Catalogue additions (price_added, coverage_added, reference_changed) appear only when asked " +
      "for through `kind`. `channel=direct` keeps the makers' own moves; `meta.total` counts every match in the " +
      "window, `cursor` = meta.nextCursor continues. For one model's full history use get_model_history.",
  },
  run: (view, input) => listChanges(view, input),
});
