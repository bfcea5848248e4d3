import { beforeAll, expect } from "vitest";
import type { PublishedPrice } from "../src/domain/dataset.js";
import { type Dimension, dimension, dimensionKey } from "../src/domain/dimension.js";
import type { Listing } from "../src/domain/observation.js";
import type { Unit } from "../src/domain/unit.js";
import type { SourceAdapter, SourcePayload } from "../src/sources/source.js";
import { type RecordedBuild, type RecordedBuildSpec, recordedBuild } from "./recorded-build.js";
import { recordedReport } from "./recorded-runs.js";

export {
  PARSE_INPUTS,
  recordedListings,
  recordedPayload,
  recordedReport,
  recordedSourceInputs,
} from "./recorded-runs.js";

/**
 * The recorded run of `spec` for the suites of one file (issue 34 §2, T377): its fields are filled by
 * a `beforeAll` that awaits the cached build, built in a child process, so collecting the file and
 * waiting for the build keep the worker's event loop free. Read them inside tests and hooks only.
 */
export function useRecordedBuild(spec: RecordedBuildSpec): RecordedBuild {
  const handle = {} as RecordedBuild;
  beforeAll(async () => {
    Object.assign(handle, await recordedBuild(spec));
  });
  return handle;
}

/**
 * The direct price of `model` in one base text dimension (standard tier, no context bracket, no
 * qualifiers), or undefined: the price the identity suites read off a built run.
 */
export function baseDirectPrice(
  prices: readonly PublishedPrice[],
  model: string,
  direction: string,
  cache = "none",
): PublishedPrice | undefined {
  return prices.find(
    (p) =>
      p.modelId === model &&
      p.channel === "direct" &&
      p.direction === direction &&
      p.cache === cache &&
      p.modality === "text" &&
      p.tier === "standard" &&
      p.contextMin === 0 &&
      Object.keys(p.qualifiers).length === 0,
  );
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
