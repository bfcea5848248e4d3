import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { loadView } from "../src/catalogue/load-view.js";
import type { ApiChange } from "../src/catalogue/schemas.js";
import { CHANGE_KINDS, type PublishedChange } from "../src/domain/change.js";
import type { SourceId } from "../src/domain/observation.js";
import { loadRunContext, publishRun, type SourceOutcome } from "../src/ingest/run-pipeline.js";
import { SOURCES } from "../src/sources/registry.js";
import { IngestLockedError, IngestLockLostError } from "../src/store/catalogue-store.js";
import { openSqliteStore } from "../src/store/open-store.js";
import { servedFiles } from "./fake-upstream.js";
import { memoryServer } from "./harness.js";
import { cloneSeed, liveFileFixtures } from "./live-support.js";
import { type CursorPage, walkItems } from "./paging.js";

// Issue 33 §4 Must show, T260, T317: two ingesters on one SQLite folder (the README's cron `tariff
// ingest` beside a second one), one of them with a compute phase over 30 s: stalled by
// test/stall-hook.ts, preloaded with `node --import` into that ingester's own process (a test-only
// hook: nothing of it ships in src/). The stall blocks the child's thread as a synchronous compute
// phase does, no timer of it running; this file's worker only awaits the children, its event loop
// free. The ingest lock is an OS-level lock with no stale time: the former lock file was declared
// stale and taken over after 10 s, and the run computing 30 s lost it that way. 32 s is the
// one fixed wait of this file, and of the live suites. Each case spawns CLI processes against the
// fake upstream (the recorded June payloads over a store seeded with May).

const live = liveFileFixtures({ upstream: true });

/** The compute phase of case 1: over the 30 s (three times the old lock's 10 s stale time). */
const STALL_MS = 32_000;

interface Ingester {
  readonly stderr: () => string;
  waitForStderr(pattern: RegExp): Promise<void>;
  readonly done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  kill(signal: NodeJS.Signals): void;
}

/**
 * `tariff ingest` (live) on `dataDir`, with test/stall-hook.ts preloaded when `stall` is given;
 * `command` `serve` runs the API with its live schedule instead (first run at start, T220).
 */
function ingest(
  dataDir: string,
  stall: Record<string, string> | null,
  env: Record<string, string> = {},
  command: "ingest" | "serve" = "ingest",
): Ingester {
  const hook = stall ? ["--import", "tsx", "--import", "./test/stall-hook.ts"] : [];
  const child = spawn(process.execPath, [...hook, "bin/tariff.js", command], {
    env: {
      ...process.env,
      ...live.upstream.env(),
      DATA_DIR: dataDir,
      LOG_LEVEL: "silent",
      INGEST_TIMEOUT_MS: "30000",
      INGEST_RETRIES: "1",
      INGEST_RETRY_MIN_MS: "10",
      ...stall,
      ...env,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  child.stderr.on("data", (d) => {
    stderr += String(d);
    for (const w of [...waiters])
      if (w.pattern.test(stderr)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on("close", (code, signal) => {
      for (const w of waiters) w.resolve();
      resolve({ code, signal, stderr });
    }),
  );
  return {
    stderr: () => stderr,
    waitForStderr: (pattern) =>
      pattern.test(stderr) ? Promise.resolve() : new Promise((resolve) => waiters.push({ pattern, resolve })),
    done,
    kill: (signal) => child.kill(signal),
  };
}

/** A change as a reader tells two apart: what moved where, from and to what (not when). */
function changeKey(c: PublishedChange): string {
  return [c.kind, c.modelId, c.channel, c.seller, c.label, c.displayUnit, c.oldAmount, c.newAmount].join("|");
}

describe("the SQLite ingest lock (issue 33 §4, T260)", () => {
  it("two ingesters, one computing 32 s: one publish, /changes counts the run's own changes once", async () => {
    const { dir, cleanup } = cloneSeed(live.seed);
    const store = await openSqliteStore(join(dir, "tariff.db"));
    try {
      const first = ingest(dir, { STALL_AT: "publishing", STALL_MS: String(STALL_MS) });
      await first.waitForStderr(/stall-hook: stalling/);
      // The stalled run holds the lock: its thread runs no timer, and it needs none.
      await expect(store.withIngestLock(async () => {}, { wait: false })).rejects.toBeInstanceOf(IngestLockedError);
      // The second ingester waits for the lock through the whole stall, then finds that the first
      // run already archived what the upstreams serve: no new evidence, nothing to publish (T221).
      const second = ingest(dir, null);
      const [a, b] = await Promise.all([first.done, second.done]);
      expect({ code: a.code, resumed: /stall-hook: resumed/.test(a.stderr) }).toEqual({ code: 0, resumed: true });
      const published = /live run (\S+) \w+: \d+ models, \d+ prices, (\d+) changes/.exec(a.stderr);
      expect(published, a.stderr).not.toBeNull();
      const [, version, changes] = published!;
      expect(b.code, b.stderr).toBe(0);
      expect(b.stderr).toMatch(/nothing published/);

      const runs = (await store.listRuns()).map((r) => r.datasetVersion);
      expect(runs).toEqual([live.seed.dataset.run.datasetVersion, version]);
      const after = (await store.loadChanges()).filter((c) => c.publishedIn !== live.seed.dataset.run.datasetVersion);
      expect(Number(changes)).toBeGreaterThan(0); // May → June moved prices
      expect(after.length).toBe(Number(changes));
      expect(new Set(after.map(changeKey)).size).toBe(after.length);
      // What a client reads: /changes since the seed (every kind) counts exactly the run's changes.
      const server = await memoryServer((await loadView(store, SOURCES))!);
      try {
        const path = `/api/v1/changes?since=${live.seed.dataset.run.datasetVersion}&kind=${CHANGE_KINDS.join(",")}&limit=500`;
        const read = async (p: string) => {
          const res = await server.get(p);
          expect(res.status, p).toBe(200);
          return (await res.json()) as CursorPage<ApiChange> & { meta: { total: number } };
        };
        expect((await read(path)).meta.total).toBe(Number(changes));
        const listed = await walkItems(path, read);
        expect(listed.length).toBe(Number(changes));
        // The Must-show's figures, for the record.
        process.stdout.write(
          `live-lock figures: ${JSON.stringify({ stallMs: STALL_MS, runs: runs.length, runChanges: Number(changes), changesTotal: listed.length })}\n`,
        );
      } finally {
        await server.close();
      }
    } finally {
      await store.close();
      cleanup();
    }
  }, 240_000);

  it("a run that lost its lock (another ingester published meanwhile) never publishes", async () => {
    const { dir, cleanup } = cloneSeed(live.seed);
    const release = join(dir, "resume");
    const store = await openSqliteStore(join(dir, "tariff.db"));
    try {
      const stalled = ingest(dir, { STALL_AT: "publishing", STALL_UNTIL: release });
      await stalled.waitForStderr(/stall-hook: stalling/);
      // Stands in for an ingester that took the lock anyway (an older Tariff's stale-lock takeover,
      // a lock file deleted by hand): it publishes the same June payloads, with no lock at all.
      // One millisecond after the seed: older than the stalled run's own version, so only the
      // ownership check can stop the stalled run (not the "versions only grow" one).
      const runTime = new Date(Date.parse(live.seed.dataset.run.datasetVersion) + 1).toISOString();
      const ctx = await loadRunContext(store);
      const outcomes = new Map<SourceId, SourceOutcome>(
        SOURCES.map((a) => {
          const files = new Map(
            servedFiles(a.id).map((f) => [f.name, live.upstream.payload(a.id, f.name).toString("utf8")]),
          );
          return [a.id, { kind: "payload", payload: { files, observedAt: runTime } }];
        }),
      );
      const other = await publishRun(store, ctx, SOURCES, { runTime, outcomes, guards: null });
      writeFileSync(release, "");

      const exit = await stalled.done;
      expect(exit.code).toBe(1);
      expect(exit.stderr).toMatch(
        /is not published: another ingester published \S+ while this run built on \S+ \(the run lost its ingest lock\)/,
      );
      const runs = (await store.listRuns()).map((r) => r.datasetVersion);
      expect(runs).toEqual([live.seed.dataset.run.datasetVersion, runTime]);
      const after = (await store.loadChanges()).filter((c) => c.publishedIn !== live.seed.dataset.run.datasetVersion);
      expect(after.length).toBe(other.changes);
      expect(new Set(after.map(changeKey)).size).toBe(after.length);
      // The same check in process: a context loaded before the other publish is refused.
      const stale = { ...ctx, latestVersion: live.seed.dataset.run.datasetVersion };
      const later = new Date(Date.parse(runTime) + 1).toISOString();
      await expect(
        publishRun(store, stale, SOURCES, { runTime: later, outcomes, guards: null }),
      ).rejects.toBeInstanceOf(IngestLockLostError);
      expect(await store.listRuns()).toHaveLength(2);
    } finally {
      await store.close();
      cleanup();
    }
  });

  // One source never answers, so the run (for `serve`, its first live run, in its ingestion thread)
  // holds the lock, waiting on the network, with its event loop free to handle the signal.
  const SIGTERM_CASES = [
    {
      name: "SIGTERM during a run leaves no lock behind: the next ingester takes it at once",
      command: "ingest",
      env: {},
      started: null,
      code: 143,
      said: /SIGTERM: ingestion stopped; the run in progress is not published/,
    },
    {
      name: "SIGTERM to tariff serve during its live run: the lock is released, the run not published (T319)",
      command: "serve",
      env: { PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "warn" },
      started: /live ingestion: first run now/,
      code: 0,
      said: /SIGTERM: stopping: .*ending the live ingester \(a run in progress is not published\)/,
    },
  ] as const;

  it.each(SIGTERM_CASES.map((c) => [c.name, c] as const))(
    "%s",
    async (_name, { command, env, started, code, said }) => {
      const { dir, cleanup } = cloneSeed(live.seed);
      const store = await openSqliteStore(join(dir, "tariff.db"));
      const hanging = SOURCES[0]!.id;
      live.upstream.fault(hanging, "hang");
      try {
        const seen = live.upstream.requests.length;
        const child = ingest(dir, null, env, command);
        if (started) await child.waitForStderr(started);
        await vi.waitFor(
          () => expect(live.upstream.requests.slice(seen).some((r) => r.source === hanging)).toBe(true),
          {
            timeout: 30_000,
            interval: 50,
          },
        );
        await expect(store.withIngestLock(async () => {}, { wait: false })).rejects.toBeInstanceOf(IngestLockedError);
        child.kill("SIGTERM");
        const exit = await child.done;
        expect(exit.stderr).toMatch(said);
        expect(exit.code, exit.stderr).toBe(code);
        await store.withIngestLock(async () => {}, { wait: false });
        expect(await store.listRuns()).toHaveLength(1);
      } finally {
        live.upstream.fault(hanging, null);
        await store.close();
        cleanup();
      }
    },
  );
});
