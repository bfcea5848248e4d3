import type { DatedPrice } from "../domain/dated-price.js";
import type { Listing, SourceId } from "../domain/observation.js";
import type { PageHealthSpec } from "./shared/page-health.js";
import type { LiveUpstream } from "./upstream.js";

/**
 * The port every upstream adapter implements (one folder per upstream under `src/sources/`, holding
 * its id, registry record, live upstream, field map and the fake upstream's payloads; issue 30 §3).
 *
 * `parse` is pure: it turns the files of one recorded or fetched payload into listings and throws
 * {@link SourcePayloadError} when the payload does not fit the upstream's schema. It never does I/O.
 */
export interface SourceAdapter {
  /** The source's id: the name of its folder under `src/sources/` (T235). */
  readonly id: SourceId;
  readonly info: SourceInfo;
  /** Where its live payload is fetched from (issue 7 §1, T235). */
  readonly upstream: LiveUpstream;
  /**
   * Parses one payload.
   * @param payload the files of `<source>/<date>/` (gzip already undone, keyed by name without `.gz`)
   * @throws SourcePayloadError when the payload does not validate
   */
  parse(payload: SourcePayload): Listing[];
  /**
   * {@link parse}, also reporting the price fields the adapter's field map does not know (T70).
   * Optional; the pipeline uses it when present (every bundled adapter has it).
   * @throws SourcePayloadError as `parse`
   */
  parseReport?(payload: SourcePayload): ParseReport;
  /**
   * Dated prices the upstream itself records (issue 3 §2), for history before our first run.
   * Optional: only upstreams that publish dated history implement it.
   * @throws SourcePayloadError when the history part of the payload does not validate
   */
  parseHistory?(payload: SourcePayload): readonly DatedPrice[];
  /**
   * A maker's own page: the health gate each payload file must pass before it is parsed (issue 35
   * §2, T291), by file name. The pipeline applies it to every payload, recorded or live.
   */
  readonly pageHealth?: Readonly<Record<string, PageHealthSpec>>;
}

/** A parse with its field-map report. */
export interface ParseReport {
  readonly listings: Listing[];
  /** Upstream price field → occurrences the field map does not know (never published). */
  readonly unmapped: Readonly<Record<string, number>>;
  /**
   * Records the adapter refused, per reason (issue 47 §1, T420: `invalid_date`, a dated entry whose
   * day is no real calendar day); counted with the boundary's rejections in `/sources`. Absent: none.
   */
  readonly rejected?: Readonly<Partial<Record<"invalid_date", number>>>;
}

/** Re-exported: the type lives in the domain vocabulary so the pure core can use it. */
export type { DatedPrice } from "../domain/dated-price.js";

/** The registry record of a source (`/sources`, api-v1.md "Source record"). */
export interface SourceInfo {
  readonly name: string;
  /** SPDX id, or null when the upstream declares none. */
  readonly license: string | null;
  readonly homepage: string;
  /** Reconciliation weight in (0, 1]; higher wins ties (D8). */
  readonly weight: number;
  /** Sellers whose own price list this source is (D8 `verified`); empty when none. */
  readonly authoritativeFor: readonly string[];
  /**
   * Capability: the upstream spells models as their makers' API ids and carries the makers' display
   * names and limits (models.dev). Identity prefers its spelling and metadata (T61, T160).
   */
  readonly makerSpellings?: boolean;
  /**
   * Price fields the field map knows and deliberately does not publish, field → reason (issue 37
   * §6, T306): shown in `/sources` as `skippedFields`, never counted as unmapped.
   */
  readonly skippedFields?: Readonly<Record<string, string>>;
}

/** Files of one payload and the time they stand for. */
export interface SourcePayload {
  /** File name (without `.gz`) → UTF-8 text. */
  readonly files: ReadonlyMap<string, string>;
  /** ISO 8601 time the payload stands for (the snapshot date for recorded payloads, D9). */
  readonly observedAt: string;
}

/** A payload that does not fit the upstream's schema: fails that source only, never the run. */
export class SourcePayloadError extends Error {
  override name = "SourcePayloadError";
}
