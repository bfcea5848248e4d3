import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deserialize, serialize } from "node:v8";
import { buildDatasetWithIdentity, type SourceInput } from "../src/core/build-dataset.js";
import type { SourceListings } from "../src/core/identity/resolve.js";
import type { PublishedModel } from "../src/domain/dataset.js";
import type { Listing } from "../src/domain/observation.js";
import { SOURCES } from "../src/sources/registry.js";
import { listSnapshots, readSnapshotPayload } from "../src/sources/snapshot-reader.js";
import { type ParseReport, type SourceAdapter, type SourcePayload, SourcePayloadError } from "../src/sources/source.js";
import { keyedCacheDir } from "./replay-key.js";

/**
 * The recorded upstream payloads (`data/upstream/<source>/<date>/`) as tests read them: one harness
 * for the adapter tests (T151) and every source's listings of one run for the identity tests. Nothing
 * here imports vitest, so a child process builds a whole recorded run from it (`test/recorded-build.ts`);
 * the adapter tests' assertions are in `test/recorded-payloads.ts`.
 */
const ROOT = "data/upstream";

/** The recorded payload of one source and date, as the ingester reads it. */
export function recordedPayload(source: string, date: string): SourcePayload {
  return readSnapshotPayload(ROOT, source, date);
}

const reports = new Map<string, ParseReport>();

/**
 * What a parse report depends on (T272): the payloads, the adapters and the vocabulary they import
 * (`test/replay-key.test.ts` checks the adapters' import closure), the lockfile and this file.
 */
export const PARSE_INPUTS = [
  "data/upstream",
  "src/domain",
  "src/sources",
  "package-lock.json",
  "test/recorded-runs.ts",
];

/** The folder of this code's and data's cached parse reports (`node_modules/.cache/tariff-test/parsed-<key>`). */
const parsedCacheDir = (): string => keyedCacheDir("parsed", PARSE_INPUTS);

/**
 * The adapter's parse report of its recorded payload of `date`, parsed once per checkout, code and
 * data (T272): kept v8-serialized in {@link parsedCacheDir} and read from there by later workers and
 * runs (about 7× faster than parsing), and held in memory by each test worker for the suites it runs
 * (`isolate: false`, T152; listings are read-only). Its `listings` are what `adapter.parse` returns
 * (every adapter's parse is its report's listings, T151).
 */
export function recordedReport(adapter: SourceAdapter, date: string): ParseReport {
  const key = `${adapter.id}/${date}`;
  let report = reports.get(key);
  if (!report) {
    const file = join(parsedCacheDir(), `${adapter.id}-${date}.v8`);
    if (existsSync(file)) report = deserialize(readFileSync(file)) as ParseReport;
    else {
      const payload = recordedPayload(adapter.id, date);
      report = adapter.parseReport ? adapter.parseReport(payload) : { listings: adapter.parse(payload), unmapped: {} };
      // Written under a name of its own, then renamed: a concurrent worker reads a whole file or none.
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, serialize(report));
      renameSync(tmp, file);
    }
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

/**
 * {@link recordedListings} as a build's input: each source fresh and run, with its registry weight
 * and authority, as a live run that fetched every recorded payload of `date` gives it.
 */
export function recordedSourceInputs(date: string): SourceInput[] {
  return recordedListings(date).map((s) => {
    const adapter = SOURCES.find((a) => a.id === s.source)!;
    return {
      source: s.source,
      weight: adapter.info.weight,
      makerSpellings: s.makerSpellings ?? false,
      authoritativeFor: adapter.info.authoritativeFor,
      listings: s.listings,
      fresh: true,
      error: null,
      ran: true,
    };
  });
}

/**
 * The recorded run of `date` built with identity over a previous version whose catalogue is
 * invented (only what real data lacks): one active, listed model per id of `previousIds`, first seen
 * `firstSeenAt`, no prices. Returns the built dataset and its renames (former id → id).
 */
export function recordedRunAfter(
  date: string,
  previousIds: readonly string[],
  firstSeenAt: string,
): ReturnType<typeof buildDatasetWithIdentity> {
  const runTime = `${date}T00:00:00.000Z`;
  return buildDatasetWithIdentity({
    runId: `run-after-${date}`,
    runTime,
    finishedAt: runTime,
    sources: recordedSourceInputs(date),
    prior: {
      prices: new Map(),
      models: new Map(),
      sources: new Map(),
      catalogue: previousIds.map((id) => previousModel(id, firstSeenAt)),
      published: [],
    },
  });
}

function previousModel(id: string, firstSeenAt: string): PublishedModel {
  const [provider, ...rest] = id.split("/");
  const slug = rest.join("/");
  return {
    id,
    provider: provider!,
    slug,
    name: slug,
    family: null,
    contextWindow: null,
    maxOutputTokens: null,
    openWeights: false,
    firstSeenAt,
    lifecycle: { state: "active", releasedOn: null, deprecatedOn: null, retiresOn: null },
    aliases: [],
    formerIds: [],
    listed: true,
  };
}
