import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { SourcePayload } from "./source.js";

/** Folder names of snapshot dates: `YYYY-MM-DD`. */
const DATE_DIR = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Reads the files of `<root>/<source>/<date>/` as a {@link SourcePayload} (gzip undone, `.gz`
 * dropped from names). The payload stands for `<date>T00:00:00.000Z` (D9).
 * @throws Error when the folder does not exist
 */
export function readSnapshotPayload(root: string, source: string, date: string): SourcePayload {
  const dir = join(root, source, date);
  const files = new Map<string, string>();
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (!statSync(path).isFile()) continue;
    const bytes = readFileSync(path);
    const text = name.endsWith(".gz") ? gunzipSync(bytes).toString("utf8") : bytes.toString("utf8");
    files.set(name.replace(/\.gz$/, ""), text);
  }
  return { files, observedAt: `${date}T00:00:00.000Z` };
}

/**
 * Lists the snapshot layout under `root`: date → sources present that date, dates ascending.
 * A source missing from a date did not run that date.
 */
export function listSnapshots(root: string): Map<string, string[]> {
  const byDate = new Map<string, string[]>();
  for (const source of readdirSync(root).sort()) {
    const sourceDir = join(root, source);
    if (!statSync(sourceDir).isDirectory()) continue;
    for (const date of readdirSync(sourceDir)) {
      if (!DATE_DIR.test(date) || !statSync(join(sourceDir, date)).isDirectory()) continue;
      const list = byDate.get(date) ?? [];
      list.push(source);
      byDate.set(date, list);
    }
  }
  return new Map([...byDate.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
