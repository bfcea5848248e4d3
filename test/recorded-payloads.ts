import type { SourceListings } from "../src/core/identity/resolve.js";
import { SOURCES } from "../src/sources/registry.js";
import { listSnapshots, readSnapshotPayload } from "../src/sources/snapshot-reader.js";

const ROOT = "data/upstream";

/**
 * Every source's listings of one recorded run (`data/upstream/<source>/<date>/`), parsed by the real
 * adapters: the input identity sees in that run. Sources without a payload that date are absent.
 */
export function recordedListings(date: string): SourceListings[] {
  const present = listSnapshots(ROOT).get(date) ?? [];
  return SOURCES.filter((a) => present.includes(a.id)).map((a) => ({
    source: a.id,
    makerSpellings: a.info.makerSpellings ?? false,
    listings: a.parse(readSnapshotPayload(ROOT, a.id, date)),
  }));
}
