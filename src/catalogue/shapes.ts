import type { LifecycleState } from "../domain/dataset.js";

/**
 * Response shapes of API v1 (api-v1.md "Resources and their fields"), as plain types. These are
 * what HTTP serializes and MCP returns as structured content.
 */

export interface ApiPrice {
  label: string;
  direction: string;
  modality: string;
  tier: string;
  cache: string;
  contextMin: number;
  contextMax: number | null;
  qualifiers: Record<string, string>;
  /** Display units, e.g. USD per 1M tokens (D7). */
  amount: number;
  displayUnit: string;
  denomination: "currency" | "credit";
  currency: string;
  confidence: string;
  /** 0–1 (D8). */
  confidenceScore: number;
  sources: string[];
  dissenting: string[];
  disputed: boolean;
  fallbackAmount: number | null;
  effectiveFrom: string;
  staleSince: string | null;
}

export interface ApiModel {
  id: string;
  provider: string;
  slug: string;
  name: string;
  family: string | null;
  contextWindow: number | null;
  maxOutputTokens: number | null;
  openWeights: boolean;
  firstSeenAt: string;
  lifecycle: {
    state: LifecycleState;
    releasedOn: string | null;
    deprecatedOn: string | null;
    retiresOn: string | null;
  };
  prices: ApiPrice[];
}

export interface ApiProvider {
  slug: string;
  name: string;
  website: string | null;
  pricingUrl: string | null;
  official: boolean;
  models: number;
}

export interface ApiSuggestion {
  id: string;
  label: string;
}

export interface ApiSource {
  source: string;
  name: string;
  license: string | null;
  homepage: string;
  weight: number;
  authoritative: boolean;
  lastSuccessAt: string | null;
  lastError: { at: string; message: string; httpStatus: number | null } | null;
  rowsLastRun: number;
  /** Listings of the last run that matched no model (issue 12 §4, T65). */
  unmatchedLastRun: number;
  /** T75 additions: the last run's status and time, quarantined (T73/T74) and unmapped (T70) rows. */
  lastRunStatus: "succeeded" | "failed" | "not_run";
  lastRunAt: string | null;
  rejectedLastRun: number;
  rejectedByReason: Record<string, number>;
  unmappedLastRun: number;
  unmappedByField: Record<string, number>;
}

export interface ApiRate {
  id: string;
  provider: string;
  slug: string;
  currency: string;
  inputPerMTok: number;
  outputPerMTok: number;
  cachedInputPerMTok: number | null;
  confidence: string;
  /** 0–100 (D8). */
  confidenceScore: number;
  agreeingSources: string[];
  sourceCount: number;
  official: boolean;
  disputed: boolean;
  staleSince: string | null;
  aliases: string[];
}

export interface ApiChannel {
  id: string;
  name: string;
  sellers: string[];
}

export interface ApiMeta {
  datasetVersion: string;
  generatedAt: string;
  models: number;
  providers: number;
  prices: number;
  lastRun: { id: string; status: string; finishedAt: string };
  rates: { contractVersion: number; officialSources: string[] };
  channels: ApiChannel[];
}

/** The success envelope (api-v1.md "Response envelope"). */
export interface Envelope<T> {
  data: T;
  meta: { datasetVersion: string; generatedAt: string } & Record<string, unknown>;
}

/** One price dimension's history (api-v1.md "History series"): points `[YYYY-MM-DD, amount]`. */
export interface ApiHistorySeries {
  label: string;
  displayUnit: string;
  points: [string, number][];
}

/**
 * A change record (api-v1.md "Change record", D5, D6). `channel` and `displayUnit` are additions
 * (T17): a change in a reseller channel is told apart from the maker's own.
 */
export interface ApiChange {
  kind: string;
  model: string;
  modelName: string;
  providerName: string;
  label: string;
  oldAmount: number | null;
  newAmount: number | null;
  deltaPct: number | null;
  occurredAt: string;
  channel: string;
  displayUnit: string;
}
