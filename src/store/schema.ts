import type { Generated } from "kysely";

/**
 * Table shapes for Kysely (both dialects). JSON columns are text; booleans are integers 0/1 so the
 * same rows work on SQLite and PostgreSQL.
 */
export interface StoreSchema {
  run: RunTable;
  provider: ProviderTable;
  model_span: ModelSpanTable;
  price_span: PriceSpanTable;
  source_health: SourceHealthTable;
  source_state: SourceStateTable;
  source_attempt: SourceAttemptTable;
  change_record: ChangeRecordTable;
  history_point: HistoryPointTable;
}

export interface ChangeRecordTable {
  dataset_version: string;
  seq: number;
  kind: string;
  model_id: string;
  model_name: string;
  provider_name: string;
  channel: string;
  seller: string;
  label: string;
  display_unit: string;
  old_amount: number | null;
  new_amount: number | null;
  delta_pct: number | null;
  occurred_at: string;
  /** Migration 0008 (T337): the day an announced change takes effect; null on other records. */
  effective_from?: string | null;
}

export interface HistoryPointTable {
  model_id: string;
  series_key: string;
  date: string;
  /** order of points of one series on one date (api-v1.md point rule 3) */
  seq: number;
  label: string;
  display_unit: string;
  amount: number;
  recorded_by: string;
}

export interface RunTable {
  id: string;
  dataset_version: string;
  status: string;
  started_at: string;
  finished_at: string;
  summary: string;
  /** 1 while the version's rows are kept, 0 once pruned (issue 5 §6). */
  retained: Generated<number>;
}

export interface ProviderTable {
  dataset_version: string;
  slug: string;
  name: string;
  website: string | null;
  pricing_url: string | null;
  official: number;
  models: number;
}

export interface ModelTable {
  dataset_version: string;
  id: string;
  provider: string;
  slug: string;
  name: string;
  family: string | null;
  context_window: number | null;
  max_output_tokens: number | null;
  open_weights: number;
  first_seen_at: string;
  lifecycle_state: string;
  released_on: string | null;
  deprecated_on: string | null;
  retires_on: string | null;
  aliases: string;
  /** JSON array of earlier ids (issue 12 T66). */
  former_ids: Generated<string>;
  /** 1 listed, 0 tombstone (T66). */
  listed: Generated<number>;
}

export interface PriceTable {
  dataset_version: string;
  ord: number;
  model_id: string;
  channel: string;
  seller: string;
  label: string;
  direction: string;
  modality: string;
  tier: string;
  cache: string;
  context_min: number;
  context_max: number | null;
  qualifiers: string;
  amount: number;
  unit: string;
  display_unit: string;
  denomination: string;
  currency: string;
  confidence: string;
  confidence_score: number;
  sources: string;
  dissenting: string;
  disputed: number;
  fallback_amount: number | null;
  effective_from: string;
  stale_since: string | null;
  observations: string;
}

export interface SourceHealthTable {
  dataset_version: string;
  source: string;
  last_success_at: string | null;
  last_error: string | null;
  rows_last_run: number;
  unmatched_last_run: Generated<number>;
  /** Migration 0004 (issue 13, T75); null in versions published before it. */
  last_run_status: string | null;
  last_run_at: string | null;
  rejected_last_run: number;
  /** JSON object reason → rows. */
  rejected_by_reason: string;
  unmapped_last_run: number;
  /** JSON object field → occurrences. */
  unmapped_by_field: string;
}

/** Each source's last live attempt (migration 0007, issue 38 §1, T310); one row per source, replaced by each run. */
export interface SourceAttemptTable {
  source: string;
  at: string;
  status: string;
  error_message: string | null;
  http_status: number | null;
}

export interface SourceStateTable {
  source: string;
  observed_at: string;
  listings: string;
}

/**
 * A price as published by a run of versions (migration 0006, issue 17, T146): the row holds from
 * `valid_from` (the first dataset version that published it exactly so) until `valid_to` (the
 * first version that did not; null while it is still published). A version's prices are the spans
 * open at it, so an unchanged price costs nothing per run.
 */
export interface PriceSpanTable extends Omit<PriceTable, "dataset_version" | "ord"> {
  /** Identity of the price across versions: model, channel, seller, dimension, unit (`priceKey`). */
  price_key: string;
  valid_from: string;
  valid_to: string | null;
  /**
   * Migration 0008 (issue 37 §4, T335): JSON `{effectiveUntil, announced}` of a price with a stated
   * end, null otherwise (and in spans written before it).
   */
  validity?: string | null;
}

/** A model's published record as a validity interval, like {@link PriceSpanTable}. */
export interface ModelSpanTable extends Omit<ModelTable, "dataset_version" | "former_ids" | "listed"> {
  former_ids: string;
  listed: number;
  valid_from: string;
  valid_to: string | null;
}
