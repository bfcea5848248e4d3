import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { deserialize, serialize } from "node:v8";
import { buildDatasetWithIdentity } from "../src/core/build-dataset.js";
import { PARSE_INPUTS, recordedRunAfter, recordedSourceInputs } from "./recorded-runs.js";
import { keyedCacheDir, processRunning } from "./replay-key.js";

/**
 * A whole recorded run built with identity, for the data suites that read one (issue 34 §2, T377):
 * built in a child process and cached on disk, so the test worker that asks for it keeps its event
 * loop free while it waits. A build takes 15–20 s of CPU, which held the worker that collected its
 * file for that long (the red runs blamed on it were tinypool's idle-worker removal, T379).
 */

/** Which run, over which previous catalogue (`null`: the first run, no prior version). */
export interface RecordedBuildSpec {
  readonly date: string;
  /** The invented previous catalogue of `recordedRunAfter`, or null for a build with no prior. */
  readonly previous: { readonly ids: readonly string[]; readonly firstSeenAt: string } | null;
}

/** The built run: `buildDatasetWithIdentity`'s result (the dataset and its renames, former id → id). */
export type RecordedBuild = ReturnType<typeof buildDatasetWithIdentity>;

/**
 * What a recorded build reads: the parse reports' inputs, the pure core that builds, this file
 * (`test/replay-key.test.ts` checks that its import closure stays inside them).
 */
export const BUILD_INPUTS = [...PARSE_INPUTS, "src/core", "test/recorded-build.ts", "test/replay-key.ts"] as const;

/** The folder of this code's and data's cached builds (`node_modules/.cache/tariff-test/built-<key>`). */
const buildsCacheDir = (): string => keyedCacheDir("built", BUILD_INPUTS);

const fileOf = (spec: RecordedBuildSpec): string =>
  join(buildsCacheDir(), `${createHash("sha256").update(JSON.stringify(spec)).digest("hex").slice(0, 16)}.v8`);

/** Builds `spec` in this process and writes it to its cache file (written under a name of its own, then renamed). */
function buildInProcess(spec: RecordedBuildSpec): void {
  const built = spec.previous
    ? recordedRunAfter(spec.date, spec.previous.ids, spec.previous.firstSeenAt)
    : buildDatasetWithIdentity({
        runId: `run-${spec.date}`,
        runTime: `${spec.date}T00:00:00.000Z`,
        finishedAt: `${spec.date}T00:00:00.000Z`,
        sources: recordedSourceInputs(spec.date),
        prior: null,
      });
  const file = fileOf(spec);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, serialize(built));
  renameSync(tmp, file);
}

const pending = new Map<string, Promise<RecordedBuild>>();

/**
 * The recorded run of `spec`, from the cache, or built by a child process
 * (`node --import tsx test/recorded-build.ts '<spec>'`) while this one waits. One build per spec
 * (T382): the worker that starts it holds `<file>.lock` (its pid) until the child ends; another
 * worker asking meanwhile waits for the file, and builds it itself if the holder is gone without it.
 * @throws Error with the child's exit code when it fails (its stderr is the run's)
 */
export function recordedBuild(spec: RecordedBuildSpec): Promise<RecordedBuild> {
  const file = fileOf(spec);
  let built = pending.get(file);
  if (!built) {
    built = (async () => {
      while (!existsSync(file)) {
        if (takeLock(`${file}.lock`)) await buildInChild(spec, file);
        else await new Promise((r) => setTimeout(r, 200));
      }
      return deserialize(await readFile(file)) as RecordedBuild;
    })();
    pending.set(file, built);
  }
  return built;
}

/** Builds `spec` into `file` in a child process, under the lock this process took; the lock is left when it ends. */
async function buildInChild(spec: RecordedBuildSpec, file: string): Promise<void> {
  try {
    const child = spawn(process.execPath, ["--import", "tsx", "test/recorded-build.ts", JSON.stringify(spec)], {
      stdio: ["ignore", "inherit", "inherit"],
    });
    const code = await new Promise<number | null>((done, fail) => {
      child.once("error", fail);
      child.once("exit", done);
    });
    if (code !== 0 || !existsSync(file)) throw new Error(`the recorded build of ${spec.date} failed (exit ${code})`);
  } finally {
    rmSync(`${file}.lock`, { force: true });
  }
}

/**
 * Takes the lock file `path` for this process: created with this pid, or taken over when the pid
 * in it is no longer running (a run stopped half-way).
 * @returns false while another live process holds it
 */
function takeLock(path: string): boolean {
  try {
    writeFileSync(path, String(process.pid), { flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  let holder: number;
  try {
    holder = Number(readFileSync(path, "utf8"));
  } catch (error) {
    // Left by its holder in between: the caller looks for the build again before it asks.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
  if (Number.isInteger(holder) && holder > 0 && processRunning(holder)) return false;
  writeFileSync(path, String(process.pid));
  return true;
}

// `node --import tsx test/recorded-build.ts '<spec as JSON>'`: the build {@link recordedBuild} starts.
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  buildInProcess(JSON.parse(process.argv[2]!) as RecordedBuildSpec);
}
