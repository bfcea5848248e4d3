import type { Dimension } from "./dimension.js";
import type { Denomination, Unit } from "./unit.js";

/** A price an upstream dates itself: in force from `fromDate` (inclusive) to `toDate` (exclusive). */
export interface DatedPrice {
  readonly seller: string;
  /** Model id as the source spells it. */
  readonly model: string;
  readonly dimension: Dimension;
  /** Display units. */
  readonly amount: number;
  readonly unit: Unit;
  readonly currency: string;
  readonly denomination: Denomination;
  /** YYYY-MM-DD, or null when the upstream does not say since when. */
  readonly fromDate: string | null;
  readonly toDate: string | null;
}
