import { z } from "zod";
import { CHANGE_KINDS, MARKET_KINDS } from "../../domain/change.js";
import { defineEndpoint, integerParam, textParam } from "../endpoint.js";
import { envelope } from "../envelope.js";
import { CHANGES_DAYS, CHANGES_LIMIT, parseKinds } from "../params.js";
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
});

/**
 * The changes of GET /changes: market moves newest first. The look-back counts from the dataset
 * version, not the wall clock (D18). Default kinds are the four market kinds; catalogue additions
 * only when asked for.
 * @throws CatalogueError bad_request for an unknown kind
 */
export function listChanges(view: CatalogueView, input: z.output<typeof ChangesInput>) {
  const kinds = new Set(parseKinds(input.kind) ?? MARKET_KINDS);
  const limit = Math.min(input.limit, CHANGES_LIMIT.cap);
  const since = new Date(Date.parse(view.version) - input.days * 86_400_000).toISOString();
  const text = parseTextQuery(input.q);
  const data: ApiChange[] = [];
  for (const entry of view.changes) {
    const c = entry.change;
    if (c.occurredAt <= since) break; // newest first: the rest are older
    if (!kinds.has(c.kind)) continue;
    if (input.provider !== undefined && entry.provider !== input.provider) continue;
    if (input.model !== undefined && entry.slug !== input.model) continue;
    if (text && !matchesAll(text, entry.search)) continue;
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
    if (data.length >= limit) break;
  }
  return envelope(view, data, { count: data.length, days: input.days, limit });
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
      "for through `kind`. For one model's full history use get_model_history.",
  },
  run: (view, input) => listChanges(view, input),
});
