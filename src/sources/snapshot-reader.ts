import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { SourcePayload } from "./source.js";

/**
 * Folder names of snapshot runs: a date `YYYY-MM-DD` (stands for midnight UTC), or a live run's
 * full time `YYYY-MM-DDTHH-MM-SS.sssZ` (colons spelled `-`, T40), so several runs fit in a day.
 */
const RUN_DIR = /^\d{4}-\d{2}-\d{2}(T\d{2}-\d{2}-\d{2}\.\d{3}Z)?$/;

/** True when `name` is a snapshot run folder name (see {@link snapshotTime}). */
export function isSnapshotFolder(name: string): boolean {
  return RUN_DIR.test(name);
}

/** The ISO 8601 time a snapshot folder stands for (D9): `YYYY-MM-DD` → midnight UTC. */
export function snapshotTime(folder: string): string {
  if (folder.length === 10) return `${folder}T00:00:00.000Z`;
  return folder.replace(/T(\d{2})-(\d{2})-(\d{2})/, "T$1:$2:$3");
}

/** The folder name of a run time (inverse of {@link snapshotTime}); midnight gives a plain date. */
export function snapshotFolder(runTime: string): string {
  if (runTime.endsWith("T00:00:00.000Z")) return runTime.slice(0, 10);
  return runTime.replace(/T(\d{2}):(\d{2}):(\d{2})/, "T$1-$2-$3");
}

/**
 * Reads the files of `<root>/<source>/<date>/` as a {@link SourcePayload} (gzip undone, `.gz`
 * dropped from names). The payload stands for the folder's time, {@link snapshotTime} (D9).
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
  return { files, observedAt: snapshotTime(date) };
}

/**
 * Lists the snapshot layout under `root`: run folder → sources present in it, ascending (a date
 * sorts before the timestamped runs of that day).
 * A source missing from a date did not run that date.
 */
export function listSnapshots(root: string): Map<string, string[]> {
  const byDate = new Map<string, string[]>();
  for (const source of readdirSync(root).sort()) {
    const sourceDir = join(root, source);
    if (!statSync(sourceDir).isDirectory()) continue;
    for (const date of readdirSync(sourceDir)) {
      if (!RUN_DIR.test(date) || !statSync(join(sourceDir, date)).isDirectory()) continue;
      const list = byDate.get(date) ?? [];
      list.push(source);
      byDate.set(date, list);
    }
  }
  return new Map([...byDate.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
