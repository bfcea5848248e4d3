import type { Insertable, Selectable } from "kysely";
import { z } from "zod";
import type { ChangeRecord, HistoryPoint, PublishedChange } from "../domain/change.js";
import type { PublishedModel, PublishedPrice, PublishedProvider, RunRecord, SourceHealth } from "../domain/dataset.js";
import { priceKey } from "../domain/dataset.js";
import { dimensionKey } from "../domain/dimension.js";
import { COLUMN, DIMENSION_COLUMN, decode, dimensionColumns, dimensionOf, encode, JSON_COLUMN } from "./columns.js";
import type {
  ChangeRecordTable,
  HistoryPointTable,
  ModelSpanTable,
  PriceSpanTable,
  ProviderTable,
  RunTable,
  SourceHealthTable,
} from "./schema.js";
import type { ModelSpanRow, PriceSpanRow } from "./spans.js";

/**
 * The published dataset as store rows and back (issue 5; codecs per column, T163): one mapping per
 * table, used by the publish and the reads of `kysely-store.ts` on both dialects, and by the
 * migration test that writes an older store's rows.
 */

/** A run record as its `run` row. */
export function runRow(r: RunRecord): Insertable<RunTable> {
  return {
    id: r.id,
    dataset_version: r.datasetVersion,
    status: r.status,
    started_at: r.startedAt,
    finished_at: r.finishedAt,
    summary: encode(JSON_COLUMN.runSummary, r.summary),
  };
}

/** A published provider as its row of version `v`. */
export function providerRow(v: string, p: PublishedProvider): Insertable<ProviderTable> {
  return {
    dataset_version: v,
    slug: p.slug,
    name: p.name,
    website: p.website,
    pricing_url: p.pricingUrl,
    official: p.official ? 1 : 0,
    models: p.models,
  };
}

/** A provider row as the published provider. */
export function toProvider(p: Selectable<ProviderTable>): PublishedProvider {
  return {
    slug: p.slug,
    name: p.name,
    website: p.website,
    pricingUrl: p.pricing_url,
    official: p.official === 1,
    models: Number(p.models),
  };
}

/** A source's health in version `v` as its row. */
export function sourceHealthRow(v: string, s: SourceHealth): Insertable<SourceHealthTable> {
  return {
    dataset_version: v,
    source: s.source,
    last_success_at: s.lastSuccessAt,
    last_error: s.lastError ? encode(JSON_COLUMN.lastError, s.lastError) : null,
    rows_last_run: s.rowsLastRun,
    unmatched_last_run: s.unmatchedLastRun,
    last_run_status: s.lastRunStatus,
    last_run_at: s.lastRunAt,
    rejected_last_run: s.rejectedLastRun,
    rejected_by_reason: encode(JSON_COLUMN.counts, s.rejectedByReason),
    unmapped_last_run: s.unmappedLastRun,
    unmapped_by_field: encode(JSON_COLUMN.counts, s.unmappedByField),
  };
}

/** A `source_health` row of version `v` as the source's health. */
export function toSourceHealth(s: Selectable<SourceHealthTable>, v: string): SourceHealth {
  return {
    source: decode(COLUMN.source, s.source, "source_health.source"),
    lastSuccessAt: s.last_success_at,
    lastError: s.last_error ? decode(JSON_COLUMN.lastError, s.last_error, "source_health.last_error") : null,
    rowsLastRun: Number(s.rows_last_run),
    unmatchedLastRun: Number(s.unmatched_last_run),
    ...runOf(s, v),
    rejectedLastRun: Number(s.rejected_last_run),
    rejectedByReason: decode(JSON_COLUMN.counts, s.rejected_by_reason, "source_health.rejected_by_reason"),
    unmappedLastRun: Number(s.unmapped_last_run),
    unmappedByField: decode(JSON_COLUMN.counts, s.unmapped_by_field, "source_health.unmapped_by_field"),
  };
}

/** A change record of version `v` as its row, `seq`-th of the version. */
export function changeRow(v: string, seq: number, c: ChangeRecord): Insertable<ChangeRecordTable> {
  return {
    dataset_version: v,
    seq,
    kind: c.kind,
    model_id: c.modelId,
    model_name: c.modelName,
    provider_name: c.providerName,
    channel: c.channel,
    seller: c.seller,
    label: c.label,
    display_unit: c.displayUnit,
    old_amount: c.oldAmount,
    new_amount: c.newAmount,
    delta_pct: c.deltaPct,
    occurred_at: c.occurredAt,
    ...(c.effectiveFrom ? { effective_from: c.effectiveFrom } : {}),
  };
}

/** A `change_record` row as the change record. */
export function toChange(r: Selectable<ChangeRecordTable>): PublishedChange {
  return {
    kind: decode(COLUMN.changeKind, r.kind, "change_record.kind"),
    modelId: r.model_id,
    modelName: r.model_name,
    providerName: r.provider_name,
    channel: decode(COLUMN.channel, r.channel, "change_record.channel"),
    seller: r.seller,
    label: r.label,
    displayUnit: r.display_unit,
    oldAmount: nullableNumber(r.old_amount),
    newAmount: nullableNumber(r.new_amount),
    deltaPct: nullableNumber(r.delta_pct),
    occurredAt: r.occurred_at,
    ...(r.effective_from ? { effectiveFrom: r.effective_from } : {}),
    // T226: the version that published it and its order there, the keys of `/changes?since`.
    publishedIn: r.dataset_version,
    seq: r.seq,
  };
}

/** A history point as its row. */
export function historyRow(point: HistoryPoint): Insertable<HistoryPointTable> {
  return {
    model_id: point.modelId,
    series_key: point.seriesKey,
    date: point.date,
    seq: point.seq,
    label: point.label,
    display_unit: point.displayUnit,
    amount: point.amount,
    recorded_by: point.recordedBy,
  };
}

/** A `history_point` row as the history point. */
export function toHistoryPoint(r: Selectable<HistoryPointTable>): HistoryPoint {
  return {
    modelId: r.model_id,
    seriesKey: r.series_key,
    label: r.label,
    displayUnit: r.display_unit,
    date: r.date,
    amount: Number(r.amount),
    seq: Number(r.seq),
    recordedBy: r.recorded_by,
  };
}

/** A nullable numeric column (PostgreSQL returns bigint and double as strings). */
export function nullableNumber(v: number | string | bigint | null): number | null {
  return v === null ? null : Number(v);
}

/** A `run` row as the run record. */
export function toRun(row: Selectable<RunTable>): RunRecord {
  return {
    id: row.id,
    datasetVersion: row.dataset_version,
    status: decode(COLUMN.runStatus, row.status, "run.status"),
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    summary: decode(JSON_COLUMN.runSummary, row.summary, "run.summary"),
  };
}

/** A published price as its span row (its identity, `priceKey`, included). */
export function fromPrice(p: PublishedPrice): PriceSpanRow {
  return {
    price_key: priceKey(p, dimensionKey(p)),
    model_id: p.modelId,
    channel: p.channel,
    seller: p.seller,
    label: p.label,
    ...dimensionColumns(p),
    amount: p.amount,
    unit: p.unit,
    display_unit: p.displayUnit,
    denomination: p.denomination,
    currency: p.currency,
    confidence: p.confidence,
    confidence_score: p.confidenceScore,
    sources: encode(JSON_COLUMN.sources, p.sources),
    dissenting: encode(JSON_COLUMN.sources, p.dissenting),
    disputed: p.disputed ? 1 : 0,
    fallback_amount: p.fallbackAmount,
    effective_from: p.effectiveFrom,
    stale_since: p.staleSince,
    observations: encode(JSON_COLUMN.evidence, p.observations),
    validity: p.effectiveUntil
      ? encode(JSON_COLUMN.validity, { effectiveUntil: p.effectiveUntil, announced: p.announced ?? null })
      : null,
  };
}

/** A price row, its enum and JSON columns decoded in one pass (T163). */
const PriceRow = z.object({
  channel: COLUMN.channel,
  ...DIMENSION_COLUMN,
  unit: COLUMN.unit,
  denomination: COLUMN.denomination,
  confidence: COLUMN.confidence,
  sources: JSON_COLUMN.sources,
  dissenting: JSON_COLUMN.sources,
  observations: JSON_COLUMN.evidence,
});

/** A model's fields that its row spells alike. */
type ModelNames = Pick<PublishedModel, "id" | "provider" | "slug" | "name" | "family">;
const modelNames = (m: ModelNames): ModelNames => ({
  id: m.id,
  provider: m.provider,
  slug: m.slug,
  name: m.name,
  family: m.family,
});

/** A published model as its span row. */
export function fromModel(m: PublishedModel): ModelSpanRow {
  return {
    ...modelNames(m),
    context_window: m.contextWindow,
    max_output_tokens: m.maxOutputTokens,
    open_weights: m.openWeights ? 1 : 0,
    first_seen_at: m.firstSeenAt,
    lifecycle_state: m.lifecycle.state,
    released_on: m.lifecycle.releasedOn,
    deprecated_on: m.lifecycle.deprecatedOn,
    retires_on: m.lifecycle.retiresOn,
    aliases: encode(JSON_COLUMN.strings, m.aliases),
    former_ids: encode(JSON_COLUMN.strings, m.formerIds),
    listed: m.listed ? 1 : 0,
  };
}

/** A model span row as the published model. */
export function toModel(m: Selectable<ModelSpanTable>): PublishedModel {
  return {
    ...modelNames(m),
    contextWindow: nullableNumber(m.context_window),
    maxOutputTokens: nullableNumber(m.max_output_tokens),
    openWeights: Number(m.open_weights) === 1,
    firstSeenAt: m.first_seen_at,
    lifecycle: {
      state: decode(COLUMN.lifecycleState, m.lifecycle_state, "model_span.lifecycle_state"),
      releasedOn: m.released_on,
      deprecatedOn: m.deprecated_on,
      retiresOn: m.retires_on,
    },
    aliases: decode(JSON_COLUMN.strings, m.aliases, "model_span.aliases"),
    formerIds: decode(JSON_COLUMN.strings, m.former_ids, "model_span.former_ids"),
    listed: Number(m.listed) === 1,
  };
}

/** A price span row as the published price. */
export function toPrice(r: Selectable<PriceSpanTable>): PublishedPrice {
  const c = decode(PriceRow, r, "price_span");
  return {
    modelId: r.model_id,
    channel: c.channel,
    seller: r.seller,
    label: r.label,
    ...dimensionOf(c, r),
    amount: Number(r.amount),
    unit: c.unit,
    displayUnit: r.display_unit,
    denomination: c.denomination,
    currency: r.currency,
    confidence: c.confidence,
    confidenceScore: Number(r.confidence_score),
    sources: c.sources,
    dissenting: c.dissenting,
    disputed: Number(r.disputed) === 1,
    fallbackAmount: nullableNumber(r.fallback_amount),
    effectiveFrom: r.effective_from,
    staleSince: r.stale_since,
    observations: c.observations,
    ...(r.validity ? decode(JSON_COLUMN.validity, r.validity, "price_span.validity") : {}),
  };
}

/**
 * Last-run status and time of a health row; rows published before migration 0004 have neither
 * and get them from what they do say (a success or an error at the row's own version, else absent).
 */
function runOf(
  s: {
    last_run_status: string | null;
    last_run_at: string | null;
    last_success_at: string | null;
    last_error: string | null;
  },
  version: string,
): Pick<SourceHealth, "lastRunStatus" | "lastRunAt"> {
  if (s.last_run_status !== null)
    return {
      lastRunStatus: decode(COLUMN.sourceRunStatus, s.last_run_status, "source_health.last_run_status"),
      lastRunAt: s.last_run_at,
    };
  const errorAt = s.last_error ? decode(JSON_COLUMN.lastError, s.last_error, "source_health.last_error").at : null;
  if (s.last_success_at === version) return { lastRunStatus: "succeeded", lastRunAt: version };
  if (errorAt === version) return { lastRunStatus: "failed", lastRunAt: version };
  const times = [s.last_success_at, errorAt].filter((t): t is string => t !== null).sort();
  return { lastRunStatus: "not_run", lastRunAt: times[times.length - 1] ?? null };
}
