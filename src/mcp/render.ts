import type {
  ApiChange,
  ApiCostEstimate,
  ApiHistorySeries,
  ApiMeta,
  ApiModel,
  ApiPrice,
  ApiProvider,
  ApiRate,
  ApiSource,
  ApiSuggestion,
  Envelope,
} from "../catalogue/schemas.js";

/**
 * Short text renderings of tool results, for clients that show the model only text. The full
 * `{data, meta}` is always in `structuredContent`; lists are cut at {@link MAX_LINES} rows.
 */
export const MAX_LINES = 20;

const MAX_PRICES_PER_MODEL = 6;

/** `<n> <what> (dataset <version>)` header plus one line per item, cut with a "… more" line. */
function list<T>(header: string, items: readonly T[], line: (item: T) => string, max = MAX_LINES): string {
  const shown = items.slice(0, max).map((item) => `- ${line(item)}`);
  if (items.length > max) shown.push(`- … ${items.length - max} more in structuredContent.data`);
  return [header, ...shown].join("\n");
}

function dataset(meta: Envelope<unknown>["meta"]): string {
  return `dataset ${meta.datasetVersion}`;
}

/**
 * Why a price (or rate) its seller's own page states is not `verified` (T461), in one clause:
 * `not verified: official-openai last read 2026-03-01 (35 days at most)`; "" when it is not lapsed (T514).
 */
export function pageStaleClause(stale: ApiPrice["pageStale"]): string {
  if (!stale) return "";
  const read = stale.lastReadAt === null ? "never read" : `last read ${stale.lastReadAt.slice(0, 10)}`;
  return `not verified: ${stale.source} ${read} (${stale.maxAgeDays} days at most)`;
}

/**
 * `Input: 15 USD per 1M tokens [verified]`, with `(seller: x)` qualifiers already in the label (D27);
 * a price of an answer that mixes channels (T201) starts with its channel and seller; a price that
 * lost `verified` because its maker's page is stale says so (`pageStale`, T461, T514).
 */
export function priceLine(p: ApiPrice): string {
  const flags = [
    p.confidence,
    p.disputed ? "disputed" : "",
    p.staleSince ? `stale since ${p.staleSince}` : "",
    pageStaleClause(p.pageStale),
  ]
    .filter((s) => s.length > 0)
    .join(", ");
  const where = p.channel ? `${p.channel} (${p.seller}) ` : "";
  return `${where}${p.label}: ${p.amount} ${p.displayUnit} [${flags}]`;
}

function modelBlock(m: ApiModel, maxPrices = MAX_PRICES_PER_MODEL): string {
  const head = `${m.id} "${m.name}" (context ${m.contextWindow ?? "?"} tokens, ${m.lifecycle.state})`;
  if (m.prices.length === 0) return `${head}: no prices in this channel`;
  const prices = m.prices.slice(0, maxPrices).map(priceLine);
  if (m.prices.length > maxPrices) prices.push(`… ${m.prices.length - maxPrices} more prices`);
  return `${head}: ${prices.join("; ")}`;
}

export function renderMeta(body: Envelope<ApiMeta>): string {
  const d = body.data;
  return [
    `Tariff ${dataset(body.meta)} (last run ${d.lastRun.status}, finished ${d.lastRun.finishedAt}): ` +
      `${d.models} models, ${d.providers} providers, ${d.prices} prices.`,
    `Channels: ${d.channels.map((c) => `${c.id} = ${c.name}`).join("; ")}.`,
    `Rates contract v${d.rates.contractVersion}; official sources: ${d.rates.officialSources.join(", ") || "none"}.`,
  ].join("\n");
}

export function renderProviders(body: Envelope<ApiProvider[]>): string {
  // Every slug matters to a caller picking a provider filter, so all are listed, compactly.
  const entries = body.data.map((p) => `${p.slug} (${p.name}, ${p.models} models${p.official ? ", direct" : ""})`);
  return `${body.data.length} providers (${dataset(body.meta)}); "direct" = sells its own models:\n${entries.join("; ")}`;
}

export function renderModels(body: Envelope<ApiModel[]>): string {
  const next = typeof body.meta.nextCursor === "string" ? `next cursor: ${body.meta.nextCursor}` : "last page";
  return list(`${body.data.length} models, direct prices (${dataset(body.meta)}; ${next}):`, body.data, (m) =>
    modelBlock(m),
  );
}

export function renderSuggestions(body: Envelope<ApiSuggestion[]>): string {
  return list(`${body.data.length} matching models (${dataset(body.meta)}):`, body.data, (s) => `${s.id}: ${s.label}`);
}

export function renderModel(body: Envelope<ApiModel>): string {
  const m = body.data;
  const lines = [
    `${m.id} "${m.name}", channel ${String(body.meta.channel)} (${dataset(body.meta)}); context ${m.contextWindow ?? "?"} tokens, ` +
      `max output ${m.maxOutputTokens ?? "?"}, lifecycle ${m.lifecycle.state}.`,
  ];
  if (m.prices.length === 0) lines.push("This channel does not sell the model (no prices).");
  return list(lines.join("\n"), m.prices, priceLine, 40);
}

export function renderHistory(body: Envelope<ApiHistorySeries[]>): string {
  return list(
    `Price history of ${String(body.meta.model)}, direct channel, one point per change (${dataset(body.meta)}):`,
    body.data,
    (s) => `${s.label} [${s.displayUnit}]: ${s.points.map(([date, amount]) => `${date} ${amount}`).join(" → ")}`,
  );
}

export function renderCompare(body: Envelope<ApiModel[]>): string {
  return list(
    `Found ${String(body.meta.found)} of ${String(body.meta.requested)} requested models, direct prices (${dataset(body.meta)}):`,
    body.data,
    (m) => modelBlock(m, 12),
  );
}

export function renderChanges(body: Envelope<ApiChange[]>): string {
  return list(`${body.data.length} changes, newest first (${dataset(body.meta)}):`, body.data, (c) => {
    const delta = c.deltaPct === null ? "" : ` (${c.deltaPct > 0 ? "+" : ""}${c.deltaPct}%)`;
    return (
      `${c.occurredAt.slice(0, 10)} ${c.kind}: ${c.modelName} (${c.providerName}) ${c.label} ` +
      `${c.oldAmount ?? "—"} → ${c.newAmount ?? "—"} ${c.displayUnit}${delta}, channel ${c.channel}`
    );
  });
}

export function renderSources(body: Envelope<ApiSource[]>): string {
  return list(
    `${body.data.length} data sources (${dataset(body.meta)}):`,
    body.data,
    (s) =>
      `${s.source} (${s.name}): weight ${s.weight}${s.authoritative ? ", authoritative" : ""}, ` +
      `last success ${s.lastSuccessAt ?? "never"}, last run ${s.lastRunStatus === "not_run" ? `not now (last ${s.lastRunAt ?? "never"})` : s.lastRunStatus}, ` +
      `${s.rowsLastRun} rows last run, ${s.rejectedLastRun} rejected, ${s.unmappedLastRun} unmapped` +
      `${s.lastError ? `, last error: ${s.lastError.message}` : ""}`,
  );
}

export function renderRates(body: Envelope<ApiRate[]>): string {
  return list(
    `${body.data.length} billable models, cost per 1M text tokens (${dataset(body.meta)}; contract v${String(body.meta.contractVersion)}):`,
    body.data,
    (r) =>
      `${r.id}: input ${r.inputPerMTok}, output ${r.outputPerMTok}` +
      `${r.cachedInputPerMTok === null ? "" : `, cached input ${r.cachedInputPerMTok}`} ${r.currency} [${r.confidence} ${r.confidenceScore}/100` +
      `${r.pageStale ? `, ${pageStaleClause(r.pageStale)}` : ""}]`,
  );
}

/** `openai/gpt-4o direct (openai): 1.23 USD [high]` then one line per usage line (issue 17). */
export function renderCost(body: Envelope<ApiCostEstimate[]>): string {
  const at = typeof body.meta.at === "string" ? `, prices of ${body.meta.at}` : "";
  const header =
    `${body.data.length} estimates, the offers a buyer can trust first, each group cheapest first (${dataset(body.meta)}${at}; ` +
    `${String(body.meta.found)} of ${String(body.meta.requested)} models found):`;
  const lines = [header];
  const shown = body.data.slice(0, 5);
  for (const e of shown) {
    const total = e.totals
      ? e.totals.map((t) => `${t.amount} ${t.denomination === "credit" ? "credits" : t.currency}`).join(" + ")
      : `no total: no price for ${e.missing.join(", ")}`;
    // T340: an offer that may not lead says why (unconfirmed far below the maker, a suspected currency slip, weak confidence).
    const caution = e.trust.flags.length > 0 ? ` (not trusted: ${e.trust.flags.join(", ")})` : "";
    lines.push(`- ${e.model} ${e.channel} (${e.seller}): ${total} [${e.confidence ?? "unpriced"}]${caution}`);
    for (const l of e.lines)
      lines.push(
        l.status === "missing"
          ? `  - ${l.usage} ${l.tokens}: missing`
          : `  - ${l.usage} ${l.tokens} × ${l.label} ${l.amount} ${l.displayUnit} = ${l.cost}`,
      );
  }
  if (body.data.length > shown.length)
    lines.push(`- … ${body.data.length - shown.length} more in structuredContent.data`);
  return lines.join("\n");
}
