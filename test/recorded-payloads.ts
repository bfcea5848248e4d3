import { expect } from "vitest";
import type { SourceListings } from "../src/core/identity/resolve.js";
import { type Dimension, dimension, dimensionKey } from "../src/domain/dimension.js";
import type { Listing } from "../src/domain/observation.js";
import type { Unit } from "../src/domain/unit.js";
import { SOURCES } from "../src/sources/registry.js";
import { listSnapshots, readSnapshotPayload } from "../src/sources/snapshot-reader.js";
import { type ParseReport, type SourceAdapter, type SourcePayload, SourcePayloadError } from "../src/sources/source.js";

/**
 * The recorded upstream payloads (`data/upstream/<source>/<date>/`) as tests read them: one harness
 * for the adapter tests (T151) and every source's listings of one run for the identity tests.
 */
const ROOT = "data/upstream";

/** The recorded payload of one source and date, as the ingester reads it. */
export function recordedPayload(source: string, date: string): SourcePayload {
  return readSnapshotPayload(ROOT, source, date);
}

const reports = new Map<string, ParseReport>();

/**
 * The adapter's parse report of its recorded payload of `date`, parsed once per test worker and
 * shared by the suites it runs (`isolate: false`, T152; listings are read-only). Its `listings`
 * are what `adapter.parse` returns (every adapter's parse is its report's listings, T151).
 */
export function recordedReport(adapter: SourceAdapter, date: string): ParseReport {
  const key = `${adapter.id}/${date}`;
  let report = reports.get(key);
  if (!report) {
    const payload = recordedPayload(adapter.id, date);
    report = adapter.parseReport ? adapter.parseReport(payload) : { listings: adapter.parse(payload), unmapped: {} };
    reports.set(key, report);
  }
  return report;
}

/**
 * Every source's listings of one recorded run, parsed by the real adapters: the input identity
 * sees in that run. Sources without a payload that date are absent, and so are recorded copies
 * that are failed pages (OpenAI's 2026-03-01, empty panes: the run fails that source, T290).
 */
export function recordedListings(date: string): SourceListings[] {
  const present = listSnapshots(ROOT).get(date) ?? [];
  return SOURCES.filter((a) => present.includes(a.id)).flatMap((a) => {
    let listings: readonly Listing[];
    try {
      listings = recordedReport(a, date).listings;
    } catch (err) {
      if (err instanceof SourcePayloadError) return [];
      throw err;
    }
    return [{ source: a.id, makerSpellings: a.info.makerSpellings ?? false, listings }];
  });
}

/** One adapter over its recorded payloads: what each adapter test starts from. */
export interface RecordedAdapter {
  /** The listings the adapter parses from its payload of `date` (parsed once per date). */
  listings(date: string): readonly Listing[];
  /** The one listing of `seller` / `model` on `date`; the test fails when there is not exactly one. */
  listing(date: string, seller: string, model: string): Listing;
  /** `[amount, unit]` of that listing's price in one dimension, or undefined when it has none. */
  price(
    date: string,
    seller: string,
    model: string,
    direction: Dimension["direction"],
    partial?: Partial<Omit<Dimension, "direction">>,
  ): [number, string] | undefined;
}

/** The harness of one adapter over `data/upstream/<adapter.id>/`. */
export function recordedAdapter(adapter: SourceAdapter): RecordedAdapter {
  const listings = (date: string): readonly Listing[] => recordedReport(adapter, date).listings;
  const listing = (date: string, seller: string, model: string) => onlyListing(listings(date), seller, model, date);
  return {
    listings,
    listing,
    price: (date, seller, model, direction, partial = {}) => priceIn(listing(date, seller, model), direction, partial),
  };
}

/** The one listing of `seller` / `model` among `listings`; the test fails when there is not exactly one. */
export function onlyListing(listings: readonly Listing[], seller: string, model: string, where = ""): Listing {
  const found = listings.filter((l) => l.seller === seller && l.model === model);
  expect(found, `${where} ${seller} / ${model}`.trim()).toHaveLength(1);
  return found[0]!;
}

/** `[amount, unit]` of a listing's price in one dimension, or undefined when it has none. */
export function priceIn(
  listing: Listing,
  direction: Dimension["direction"],
  partial: Partial<Omit<Dimension, "direction">> = {},
): [number, string] | undefined {
  const key = dimensionKey(dimension(direction, partial));
  const p = listing.prices.find((x) => dimensionKey(x.dimension) === key);
  return p ? [p.amount, p.unit] : undefined;
}

/**
 * The amount of a listing's one price in dimension `d` (asserting there is at most one, in USD and
 * `unit`), or undefined when there is none.
 */
export function amountIn(listing: Listing, d: Dimension, unit: Unit = "mtok"): number | undefined {
  const matches = listing.prices.filter((p) => dimensionKey(p.dimension) === dimensionKey(d));
  expect(matches.length).toBeLessThanOrEqual(1);
  const off = matches.filter((p) => p.unit !== unit || p.denomination !== "currency" || p.currency !== "USD");
  expect(off, `${listing.model}: not USD per ${unit}`).toEqual([]);
  return matches[0]?.amount;
}

/** A payload of the given files: invented input, for what the recorded payloads lack (malformed files). */
export function payloadOf(files: Record<string, string>, observedAt = "2026-06-01T00:00:00.000Z"): SourcePayload {
  return { files: new Map(Object.entries(files)), observedAt };
}

/** The URLs a live run fetches for `adapter` by default: its public base URL and files (issue 7 §1, T235). */
export function liveUrls(adapter: SourceAdapter): string[] {
  const { baseUrl, setting, files } = adapter.upstream;
  return files(setting?.defaults ?? []).map((f) => new URL(f.path, baseUrl).toString());
}
