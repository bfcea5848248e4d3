import { statSync } from "node:fs";
import { listSnapshots } from "../sources/snapshot-reader.js";
import { listManifestFolders } from "./payload-archive.js";

/** The expected layout, for messages. */
export const SNAPSHOTS_LAYOUT = "<source>/<YYYY-MM-DD>/<files> (or a live-run archive)";

/** A snapshots folder that cannot be ingested: missing, not a folder, or holding no run folder. */
export class SnapshotsFolderError extends Error {}

/**
 * The run folders (`YYYY-MM-DD` or a live run's time) of a snapshots folder, ascending, as
 * `ingestSnapshots` reads them (issue 15: said before anything is opened or written).
 * @throws SnapshotsFolderError saying what is wrong: no such folder, not a folder, or no run in it
 */
export function snapshotRunFolders(root: string): string[] {
  let isFolder: boolean;
  try {
    isFolder = statSync(root).isDirectory();
  } catch {
    throw new SnapshotsFolderError(`no snapshots folder at ${root}`);
  }
  if (!isFolder) throw new SnapshotsFolderError(`${root} is not a folder of snapshots`);
  const folders = new Set([...listSnapshots(root).keys(), ...listManifestFolders(root)]);
  if (folders.size === 0)
    throw new SnapshotsFolderError(`no snapshots in ${root}: expected folders laid out as ${SNAPSHOTS_LAYOUT}`);
  return [...folders].sort();
}
