import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiChange, ApiMeta } from "../src/catalogue/schemas.js";
import { CHANGE_KINDS, MARKET_KINDS } from "../src/domain/change.js";
import { daysBetween } from "../src/domain/freshness.js";
import { SOURCES } from "../src/sources/registry.js";
import { baseUrlVariable } from "../src/sources/upstream.js";
import { openSqliteStore } from "../src/store/open-store.js";
import { type CliChild, freshEnv, runTariff, startTariff } from "./cli-support.js";
import { copyReplayStore, replayDbPath } from "./harness.js";
import { type ChangesPage, changesPages, storedChange, storedRows } from "./paging.js";
import { type RecordedUpstream, startRecordedUpstream, unreachableSources } from "./recorded-upstream.js";

/**
 * Issue 27 §5 "Must show", with real processes: `tariff serve` with no other flag (the store a copy
 * of the bundled replay, the upstreams a local server of the project's own recorded payloads or a
 * loopback port nothing answers, through `SOURCE_URL_<ID>` only) publishes a newer dataset version
 * and serves it with its changes reachable through `since`; with every source unreachable it keeps
 * serving, says why once, and publishes nothing. No test reaches beyond 127.0.0.1 (T228).
 */

const BUNDLED = "2026-06-01T00:00:00.000Z";
const ALL_KINDS = CHANGE_KINDS.join(",");

let root: string;
let home: string;
let cwd: string;
const running: CliChild[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "tariff-fresh-"));
  home = join(root, "home");
  cwd = join(root, "elsewhere");
  mkdirSync(home);
  mkdirSync(cwd);
  await replayDbPath(); // the replay is built before the first case's clock starts
});
afterAll(async () => {
  for (const run of running) if (run.child.exitCode === null) run.child.kill("SIGKILL");
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Starts `tariff serve` with `env` only (besides DATA_DIR and a free port) and waits for its start log. */
async function serve(dataDir: string, env: Record<string, string>, args: string[] = []) {
  const run = startTariff(["serve", ...args], cwd, freshEnv(home, { DATA_DIR: dataDir, PORT: "0", ...env }));
  running.push(run);
  const started = await run.waitForStderr(/stops (the server|them)\n/);
  const base = /at (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(started)?.[1];
  expect(base, started).toBeDefined();
  return { run, base: base!, get: async <T>(path: string) => (await (await fetch(`${base}${path}`)).json()) as T };
}

async function stop(run: CliChild): Promise<string> {
  run.child.kill("SIGINT");
  const end = await run.done;
  expect(end.code).toBe(0);
  return end.stderr;
}

/** Every page of a `/changes` query, following `meta.nextCursor`. */
function allPages(get: <T>(path: string) => Promise<T>, query: string) {
  return changesPages((path) => get<ChangesPage>(path), query);
}

/** A row without its `confidence` (T343: read from the prices of the version answered, checked in test/change-confidence.test.ts). */
describe("npm start keeps the catalogue current (issue 27 §1, §5; T220–T222)", () => {
  let upstream: RecordedUpstream;
  beforeAll(async () => {
    upstream = await startRecordedUpstream();
  });
  afterAll(async () => upstream?.close());

  it("with SOURCE_URL_<ID> at newer payloads and no other flag, it publishes a new version and serves it; since pages through exactly its changes", async () => {
    const dataDir = await copyReplayStore(join(root, "live"));
    const { run, get } = await serve(dataDir, upstream.env());
    // Serving at once, from the bundled replay, while the first live run goes on in the background.
    expect((await get<{ data: ApiMeta }>("/api/v1/meta")).data.datasetVersion).toBe(BUNDLED);

    const log = await run.waitForStderr(/tariff: live run published dataset \S+ \(\d+ changes\)/);
    const [, version, changes] = /tariff: live run published dataset (\S+) \((\d+) changes\); next run at (\S+)\n/.exec(
      log,
    )!;
    expect(version! > BUNDLED).toBe(true);
    const meta = await get<{ data: ApiMeta }>("/api/v1/meta");
    expect(meta.data.datasetVersion).toBe(version);
    // Every source succeeded in the run, so each one's newest evidence is the run's (T223).
    expect(meta.data.freshness.newestEvidenceAt).toBe(version);
    expect(meta.data.freshness.sources).toEqual(Object.fromEntries(SOURCES.map((s) => [s.id, version])));
    const sources = await get<{ data: { source: string; health: string }[] }>("/api/v1/sources");
    expect(sources.data.map((s) => s.health)).toEqual(SOURCES.map(() => "fresh"));
    // It asked the local server for every file of the default configuration, once.
    expect(new Set(upstream.requests).size).toBe(upstream.requests.length);
    expect(upstream.requests).toContain("models-dev/api.json");
    expect(upstream.requests).toContain("portkey/openai.json");
    await stop(run);

    // The run's own change records, from the store it published them to, in publication order.
    const store = await openSqliteStore(join(dataDir, "tariff.db"));
    const published = (await store.loadChanges()).filter((c) => c.publishedIn === version);
    expect((await store.listRuns()).length).toBe(13);
    await store.close();
    expect(published.length).toBe(Number(changes));
    expect(published.length).toBeGreaterThan(200); // enough for many pages of 97

    // Started again on the same payloads, its first run brings no new evidence: nothing is
    // published (T221), and the line says how old the data served is.
    const again = await serve(dataDir, upstream.env());
    try {
      const said = await again.run.waitForStderr(/tariff: live sources brought nothing new/);
      expect(said).toMatch(
        /tariff: live sources brought nothing new: serving data as of \d{4}-\d{2}-\d{2}, less than a day old; next run at \S+Z\n/,
      );
      expect((await again.get<{ data: ApiMeta }>("/api/v1/meta")).data.datasetVersion).toBe(version);
      // A reader who saw the bundled version catches up: every change of the newer run, oldest
      // first, page after page, none twice, none missing (T226).
      const all = await allPages(again.get, `since=${BUNDLED}&kind=${ALL_KINDS}&limit=97`);
      expect(all.pages).toBe(Math.ceil(published.length / 97));
      expect(storedRows(all.rows)).toEqual(published.map(storedChange));
      // The default kinds are the market kinds, as without `since`.
      const market = await allPages(again.get, `since=${BUNDLED}&limit=500`);
      expect(storedRows(market.rows)).toEqual(published.filter((c) => MARKET_KINDS.includes(c.kind)).map(storedChange));
      // Nothing was published after the newest version.
      const none = await again.get<{ data: ApiChange[]; meta: { nextCursor: string | null } }>(
        `/api/v1/changes?since=${version}&kind=${ALL_KINDS}`,
      );
      expect(none).toMatchObject({ data: [], meta: { nextCursor: null } });
    } finally {
      await stop(again.run);
    }
    const reopened = await openSqliteStore(join(dataDir, "tariff.db"));
    expect((await reopened.listRuns()).length).toBe(13);
    await reopened.close();
  }, 300_000);

  it("with --workers 2, one process ingests and both serve what it published", async () => {
    const dataDir = await copyReplayStore(join(root, "workers"));
    const seen = upstream.requests.length;
    const { run, get } = await serve(dataDir, upstream.env(), ["--workers", "2"]);
    const log = await run.waitForStderr(/tariff: live run published dataset \S+/);
    const version = /published dataset (\S+)/.exec(log)![1]!;
    // Each file was fetched once: one ingester for the host.
    const requests = upstream.requests.slice(seen);
    expect(requests.filter((r) => r === "models-dev/api.json")).toHaveLength(1);
    expect(new Set(requests).size).toBe(requests.length);
    // The workers follow the store (SQLite: polled every 2 s); the port is shared, so ask often.
    for (let i = 0; i < 600; i++) {
      const versions = new Set(
        await Promise.all(
          Array.from({ length: 8 }, () => get<{ data: ApiMeta }>("/api/v1/meta").then((m) => m.data.datasetVersion)),
        ),
      );
      if (versions.size === 1 && versions.has(version)) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const after = await Promise.all(
      Array.from({ length: 8 }, () => get<{ data: ApiMeta }>("/api/v1/meta").then((m) => m.data.datasetVersion)),
    );
    expect(new Set(after)).toEqual(new Set([version]));
    const end = await stop(run);
    expect(end.match(/live run published dataset/g)).toHaveLength(1);
  }, 300_000);
});

describe("without the network it serves the bundled data and says how old it is (issue 27 §1, §5)", () => {
  it("every source unreachable: it keeps serving, says why once, publishes nothing; /meta reports the age", async () => {
    const dataDir = await copyReplayStore(join(root, "offline"));
    const { run, get } = await serve(dataDir, await unreachableSources());
    const log = await run.waitForStderr(/tariff: live sources unreachable/);
    const line =
      /tariff: live sources unreachable \((.+)\): serving data as of (\S+), (\d+) days old; next attempt at (\S+)\n/.exec(
        log,
      );
    expect(line, log).not.toBeNull();
    const [, why, asOf, days, next] = line!;
    expect(why).toMatch(/^models-dev: api\.json: network error \(ECONNREFUSED/);
    expect(why).toContain(`and ${SOURCES.length - 1} more`);
    expect(asOf).toBe("2026-06-01");
    expect(Number(days)).toBe(daysBetween(BUNDLED, Date.now()));
    expect(Date.parse(next!) - Date.now()).toBeGreaterThan(50 * 60_000); // the next attempt in about an hour

    const meta = await get<{ data: ApiMeta }>("/api/v1/meta");
    expect(meta.data.datasetVersion).toBe(BUNDLED);
    expect(meta.data.freshness.newestEvidenceAt).toBe(BUNDLED);
    // Anthropic's page was last recorded 2026-05-01 (the recorder lost it in May; T290).
    expect(meta.data.freshness.sources["official-anthropic"]).toBe("2026-05-01T00:00:00.000Z");
    expect(meta.data.freshness.sources["official-openai"]).toBe(BUNDLED);
    // Issue 50 §4, T450: the run that published nothing is the last run, and it failed; so did every
    // source's (the README's promise), though the version's run and its records are unchanged.
    await expect
      .poll(async () => (await get<{ data: ApiMeta }>("/api/v1/meta")).data.lastRun, { timeout: 20_000 })
      .toMatchObject({ status: "failed" });
    const lastRun = (await get<{ data: ApiMeta }>("/api/v1/meta")).data.lastRun;
    expect(Date.parse(lastRun.finishedAt)).toBeGreaterThan(Date.parse(BUNDLED));
    expect(lastRun.id).toBe(`run-${lastRun.finishedAt}`);
    const records = await get<{ data: { source: string; lastRunStatus: string; lastRunAt: string }[] }>(
      "/api/v1/sources",
    );
    expect(records.data.map((s) => s.source)).toEqual(SOURCES.map((s) => s.id));
    for (const s of records.data)
      expect({ source: s.source, status: s.lastRunStatus, at: s.lastRunAt }).toEqual({
        source: s.source,
        status: "failed",
        at: lastRun.finishedAt,
      });
    const stderr = await stop(run);
    expect(stderr.match(/live sources unreachable/g)).toHaveLength(1);
    const store = await openSqliteStore(join(dataDir, "tariff.db"));
    expect((await store.listRuns()).map((r) => r.datasetVersion).at(-1)).toBe(BUNDLED);
    expect(await store.listRuns()).toHaveLength(12);
    await store.close();
  }, 300_000);

  it("INGEST_EVERY=off: no live run; the start log says so with the data's age", async () => {
    const dataDir = await copyReplayStore(join(root, "off"));
    const upstream = await startRecordedUpstream();
    try {
      const { run } = await serve(dataDir, { ...upstream.env(), INGEST_EVERY: "off" });
      const log = await stop(run);
      expect(log).toContain(
        `tariff: live ingestion off (INGEST_EVERY=off): serving data as of 2026-06-01, ${daysBetween(BUNDLED, Date.now())} days old\n`,
      );
      expect(upstream.requests).toEqual([]);
    } finally {
      await upstream.close();
    }
  }, 120_000);

  it("no process a suite starts can reach the internet: every SOURCE_URL_<ID> is on loopback (T228)", () => {
    const env = freshEnv(home);
    for (const a of SOURCES) {
      expect(process.env[baseUrlVariable(a.id)], a.id).toBe("http://127.0.0.1:9/");
      expect(env[baseUrlVariable(a.id)], a.id).toBe("http://127.0.0.1:9/");
    }
  });

  it("the help documents INGEST_EVERY and --ingest-every from the schema", async () => {
    const help = await runTariff(["--help"], cwd, freshEnv(home));
    expect(help.stdout).toMatch(
      /^ {2}INGEST_EVERY +how often `tariff serve` runs live ingestion \(30m, 6h…\); off turns it off \[1h\]$/m,
    );
    const serveHelp = await runTariff(["serve", "--help"], cwd, freshEnv(home));
    expect(serveHelp.stdout.replace(/\s+/g, " ")).toContain(
      "--ingest-every <duration> run live ingestion in the background every <duration> (e.g. 15m, 6h), or off; default INGEST_EVERY (1h)",
    );
  });

  it("a bad INGEST_EVERY or --ingest-every is refused with what is expected", async () => {
    const dataDir = await copyReplayStore(join(root, "bad"));
    const env = freshEnv(home, { DATA_DIR: dataDir, PORT: "0", INGEST_EVERY: "hourly" });
    const bad = startTariff(["serve"], cwd, env);
    const end = await bad.done;
    expect(end.code).toBe(1);
    expect(end.stderr).toContain("INGEST_EVERY: expected a duration such as 30m, 1h or 6h (at least 1s), or off");
    const flag = startTariff(["serve", "--ingest-every", "5ms"], cwd, freshEnv(home, { DATA_DIR: dataDir }));
    const flagEnd = await flag.done;
    expect(flagEnd.code).toBe(1);
    expect(flagEnd.stderr).toContain('duration "5ms" is under one second, or off');
  }, 120_000);
});
