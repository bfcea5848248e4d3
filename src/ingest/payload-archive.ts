import { createHash } from "node:crypto";
import {
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import type { Dataset } from "../domain/dataset.js";
import type { SourceId } from "../domain/observation.js";
import type { Validators } from "../sources/fetch-source.js";
import { snapshotFolder } from "../sources/snapshot-reader.js";

/**
 * The raw payload archive of live runs (issue 7 §2, T40). Under the archive folder:
 *
 * - `blobs/<aa>/<sha256>.gz`: every fetched payload file, content-addressed by the SHA-256 of its
 *   decoded bytes, gzipped (`gzip -9`, no name, as the bundled snapshots);
 * - `<source>/<run>/<file>.gz`: hard links to the blobs of each source that succeeded in a run, in
 *   the layout `tariff ingest --snapshots <archive>` replays (`<run>` = the run time, T40);
 * - `runs/<run>.json`: the run's manifest (every source's files, URLs, hashes, validators, and
 *   failures with their message and HTTP status), so a replay reproduces failed sources too;
 *   `runs/<run>.pending.json` while the run has not published yet;
 * - `http-cache.json`: ETag / Last-Modified and blob per URL, for conditional requests.
 *
 * Crash safety: blobs and the pending manifest are written before the publish; the layout, the
 * final manifest and the HTTP cache only after it. A pending manifest found later is finished when
 * its version was published and deleted when not ({@link recoverPending}). Every file is written to
 * a temporary name and renamed, so a reader never sees half a file.
 */

/** One file of a source's payload in a run. */
export interface ManifestFile {
  readonly name: string;
  readonly url: string;
  readonly sha256: string;
  readonly bytes: number;
  /** 200, or 304 when the upstream said Not Modified and the last archived blob was reused. */
  readonly httpStatus: 200 | 304;
}

/** What one source did in a run. */
export interface ManifestSource {
  /** `failed`: fetch, validation or a guard failed; its files (if any) are kept for audit only. */
  readonly status: "ok" | "unchanged" | "failed";
  readonly files: readonly ManifestFile[];
  readonly error: { readonly message: string; readonly httpStatus: number | null } | null;
}

/** The manifest of one live run. */
export interface RunManifest {
  readonly runTime: string;
  /** The published run's finish time; absent while pending. */
  readonly finishedAt?: string;
  readonly sources: Readonly<Partial<Record<SourceId, ManifestSource>>>;
}

/** Conditional-request state: per URL the validators and blob of its last 200. */
export interface HttpCache {
  readonly urls: Record<string, Validators & { readonly sha256: string }>;
  /** Per source: the combined hash of the payload its last good parse came from, and that run. */
  readonly sources: Partial<Record<SourceId, { readonly payloadHash: string; readonly observedAt: string }>>;
}

/** SHA-256 (hex) of bytes. */
export function sha256(bytes: Buffer | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The combined hash of a payload's files (names and blob hashes). */
export function payloadHash(files: readonly { name: string; sha256: string }[]): string {
  return sha256(
    [...files]
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((f) => `${f.name}\u0000${f.sha256}`)
      .join("\n"),
  );
}

/** Writes a file atomically (temporary name, then rename). */
function writeAtomic(path: string, data: Buffer | string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

function blobPath(archive: string, hash: string): string {
  return join(archive, "blobs", hash.slice(0, 2), `${hash}.gz`);
}

/** Stores decoded bytes as a blob (once per content); returns its hash. */
export function putBlob(archive: string, bytes: Buffer): string {
  const hash = sha256(bytes);
  const path = blobPath(archive, hash);
  if (!existsSync(path)) writeAtomic(path, gzipSync(bytes, { level: 9 }));
  return hash;
}

/** The decoded bytes of a blob. @throws Error when the blob is missing */
export function getBlob(archive: string, hash: string): Buffer {
  return gunzipSync(readFileSync(blobPath(archive, hash)));
}

function manifestPath(archive: string, runTime: string, pending: boolean): string {
  return join(archive, "runs", `${snapshotFolder(runTime)}${pending ? ".pending" : ""}.json`);
}

/** Writes the manifest of a run that has not published yet. */
export function writePending(archive: string, manifest: RunManifest): void {
  writeAtomic(manifestPath(archive, manifest.runTime, true), `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * Finishes a published run: links the blobs of its successful sources into the snapshot layout,
 * writes the final manifest with each source's outcome as the published dataset recorded it (its
 * health `lastError` of this run), and drops the pending manifest.
 * @returns the final manifest
 */
export function finishRun(archive: string, pending: RunManifest, dataset: Dataset): RunManifest {
  const folder = snapshotFolder(pending.runTime);
  const sources: Partial<Record<SourceId, ManifestSource>> = {};
  for (const [id, entry] of Object.entries(pending.sources) as [SourceId, ManifestSource][]) {
    const health = dataset.sources.find((s) => s.source === id);
    const error =
      health?.lastError && health.lastError.at === pending.runTime
        ? { message: health.lastError.message, httpStatus: health.lastError.httpStatus }
        : entry.error;
    const status = error ? "failed" : entry.status;
    sources[id] = { ...entry, status, error };
    if (status === "failed") continue;
    const dir = join(archive, id, folder);
    mkdirSync(dir, { recursive: true });
    for (const f of entry.files) {
      const target = join(dir, `${f.name}.gz`);
      if (!existsSync(target)) linkSync(blobPath(archive, f.sha256), target);
    }
  }
  const manifest: RunManifest = { runTime: pending.runTime, finishedAt: dataset.run.finishedAt, sources };
  writeAtomic(manifestPath(archive, pending.runTime, false), `${JSON.stringify(manifest, null, 2)}\n`);
  rmSync(manifestPath(archive, pending.runTime, true), { force: true });
  return manifest;
}

/** Pending manifests left by a run that was killed, oldest first. */
export function listPending(archive: string): RunManifest[] {
  const dir = join(archive, "runs");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith(".pending.json"))
    .sort()
    .map((n) => JSON.parse(readFileSync(join(dir, n), "utf8")) as RunManifest);
}

/**
 * Repairs the archive after a crash: a pending run whose version the store published is finished
 * (layout links, final manifest); one it did not publish is forgotten (its blobs stay, unused).
 */
export async function recoverPending(
  archive: string,
  loadPublished: (version: string) => Promise<Dataset | null>,
): Promise<{ finished: string[]; dropped: string[] }> {
  const finished: string[] = [];
  const dropped: string[] = [];
  for (const pending of listPending(archive)) {
    const dataset = await loadPublished(pending.runTime);
    if (dataset) {
      finishRun(archive, pending, dataset);
      finished.push(pending.runTime);
    } else {
      rmSync(manifestPath(archive, pending.runTime, true), { force: true });
      dropped.push(pending.runTime);
    }
  }
  return { finished, dropped };
}

/**
 * The manifest of a snapshot folder's run, or null when the folder is not a live run (the bundled
 * snapshots have none).
 */
export function readRunManifest(root: string, folder: string): RunManifest | null {
  const path = join(root, "runs", `${folder}.json`);
  if (!existsSync(path) || !statSync(path).isFile()) return null;
  return JSON.parse(readFileSync(path, "utf8")) as RunManifest;
}

/** Run folders that have a final manifest under `root/runs` (a run where every source failed has no layout folder). */
export function listManifestFolders(root: string): string[] {
  const dir = join(root, "runs");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith(".json") && !n.endsWith(".pending.json"))
    .map((n) => n.slice(0, -".json".length))
    .sort();
}

/** The HTTP cache, empty when missing or unreadable (it only saves work). */
export function readHttpCache(archive: string): HttpCache {
  try {
    return JSON.parse(readFileSync(join(archive, "http-cache.json"), "utf8")) as HttpCache;
  } catch {
    return { urls: {}, sources: {} };
  }
}

export function writeHttpCache(archive: string, cache: HttpCache): void {
  writeAtomic(join(archive, "http-cache.json"), `${JSON.stringify(cache, null, 2)}\n`);
}
