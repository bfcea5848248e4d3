import { MARKET_KINDS } from "../domain/change.js";
import { envelope } from "./envelope.js";
import { CHANGES_DAYS, CHANGES_LIMIT, ChangesQuery, parseKinds, type RawQuery, validateQuery } from "./params.js";
import type { ApiChange, Envelope } from "./shapes.js";
import { matchesAll, parseTextQuery } from "./text-match.js";
import type { CatalogueView } from "./view.js";

/**
 * GET /changes (issue 3, D5, D6, D11, D18): market moves newest first. The look-back counts from
 * the dataset version, not the wall clock (D18). Default kinds are the four market kinds; catalogue
 * additions only when asked for.
 * @throws CatalogueError bad_request for bad days, limit or kind
 */
export function listChanges(view: CatalogueView, raw: RawQuery): Envelope<ApiChange[]> {
  const query = validateQuery(ChangesQuery, raw);
  const kinds = new Set(parseKinds(query.kind) ?? MARKET_KINDS);
  const days = query.days ?? CHANGES_DAYS.default;
  const limit = query.limit ?? CHANGES_LIMIT.default;
  const since = new Date(Date.parse(view.version) - days * 86_400_000).toISOString();
  const text = parseTextQuery(query.q);
  const data: ApiChange[] = [];
  for (const entry of view.changes) {
    const c = entry.change;
    if (c.occurredAt <= since) break; // newest first: the rest are older
    if (!kinds.has(c.kind)) continue;
    if (query.provider !== undefined && entry.provider !== query.provider) continue;
    if (query.model !== undefined && entry.slug !== query.model) continue;
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
  return envelope(view, data, { count: data.length, days, limit });
}
