import type { Channel } from "./channel.js";

/** Change kinds (api-v1.md GET /changes, D5, D6). */
export const CHANGE_KINDS = [
  "price_increase",
  "price_decrease",
  "price_removed",
  "unit_change",
  "price_added",
  "coverage_added",
  "reference_changed",
  // Issue 37 §4 (T337): announced ahead of time; shown only when asked for, as catalogue additions.
  "price_announced",
  "announcement_withdrawn",
  // Issue 52 §2 (T494): a seller's list in another currency converted at a new rate; shown only when asked for.
  "currency_change",
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** The four market kinds `/changes` shows by default. */
export const MARKET_KINDS: readonly ChangeKind[] = ["price_increase", "price_decrease", "price_removed", "unit_change"];

/**
 * One difference between two consecutive dataset versions, per model, channel, seller and
 * dimension. Amounts in display units; null per D5.
 */
export interface ChangeRecord {
  readonly kind: ChangeKind;
  readonly modelId: string;
  readonly modelName: string;
  readonly providerName: string;
  readonly channel: Channel;
  readonly seller: string;
  readonly label: string;
  readonly displayUnit: string;
  readonly oldAmount: number | null;
  readonly newAmount: number | null;
  /** (new − old) / old × 100, 2 decimals; null when not a price move or old is 0 (D5). */
  readonly deltaPct: number | null;
  /** The run time of the run that saw the change (D9). */
  readonly occurredAt: string;
  /**
   * `price_announced` and `announcement_withdrawn` only (T337): when the announced amount takes (or
   * was to take) effect, ISO 8601 timestamp. Absent on every other kind.
   */
  readonly effectiveFrom?: string;
}

/**
 * A change record as the store keeps it (issue 27 §3, T226): with the dataset version that
 * published it and its place in that version's records. `(publishedIn, seq)` is unique and only
 * grows, so it orders the whole feed by publication, whatever `occurredAt` says (a change may be
 * dated at an earlier run than the one that published it).
 */
export interface PublishedChange extends ChangeRecord {
  /** The dataset version whose run published it. */
  readonly publishedIn: string;
  /** Its order among that version's change records, from 0. */
  readonly seq: number;
}

/**
 * One point of a direct-channel price series (api-v1.md "History series", D17). `seriesKey`
 * identifies the dimension and unit across versions.
 */
export interface HistoryPoint {
  readonly modelId: string;
  readonly seriesKey: string;
  readonly label: string;
  readonly displayUnit: string;
  /** YYYY-MM-DD */
  readonly date: string;
  readonly amount: number;
  /**
   * Order of points of one series on one date (api-v1.md point rule 3): the recording run's
   * millisecond of the day, 0 for upstream-dated points.
   */
  readonly seq: number;
  /** The run that recorded it, or `upstream:<source>` for points from an upstream's own dated history. */
  readonly recordedBy: string;
}
