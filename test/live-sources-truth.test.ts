import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject } from "vitest";
import { loadView } from "../src/catalogue/load-view.js";
import type { ApiSource } from "../src/catalogue/schemas.js";
import { runLiveIngest } from "../src/ingest/live-run.js";
import { SOURCES } from "../src/sources/registry.js";
import { baseUrlVariable } from "../src/sources/upstream.js";
import { openSqliteStore } from "../src/store/open-store.js";
import { type CliChild, freshEnv, startTariff } from "./cli-support.js";
import { SEED_DATES, startFakeUpstream } from "./fake-upstream.js";
import { copyReplayStore, replayDbPath, startServer } from "./harness.js";
import { testConfig } from "./live-support.js";
import { browserTest as it } from "./web-browser.js";

/**
 * Issue 38 §1 "Must show" (T310): `/sources` and the web sources page say the truth about now.
 * With no network (every source at `http://127.0.0.1:9/`), a real `tariff serve` on a copy of the
 * bundled replay publishes nothing (T240), yet `/sources` shows every source failing, with the
 * reason and the last attempt, and so does the web page built from the store it wrote. With the
 * local fake upstream (the project's recorded payloads) every source is fresh, on both. Nothing
 * reaches beyond 127.0.0.1.
 */

const NO_NETWORK = Object.fromEntries(SOURCES.map((s) => [baseUrlVariable(s.id), "http://127.0.0.1:9/"]));

let root: string;
const running: CliChild[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "tariff-sources-truth-"));
  await replayDbPath();
});
afterAll(async () => {
  for (const run of running) if (run.child.exitCode === null) run.child.kill("SIGKILL");
  if (root) rmSync(root, { recursive: true, force: true });
});

/**
 * The e2e setup's web build, or, when it is gone (the build cache is shared by checkouts, and a run
 * of another version of the code replaces it), this file's own build of the web catalogue.
 */
let ownBuild: Promise<string> | undefined;
async function webRoot(): Promise<string> {
  const shared = inject("webRoot");
  if (existsSync(join(shared, "index.html"))) return shared;
  ownBuild ??= (async () => {
    const dir = join(root, "web");
    const { build } = await import("vite");
    const { webBuildConfig } = await import("../src/web/build-config.js");
    await build(webBuildConfig(dir));
    return dir;
  })();
  return ownBuild;
}

/** The web sources page's rows: source id, badge, last attempt, last error, as shown. */
async function shownRows(page: Page): Promise<string[][]> {
  const rows = page.locator("tbody tr");
  await rows.first().waitFor();
  return rows.evaluateAll((trs) =>
    trs.map((tr) => [
      tr.querySelector("th .muted")?.textContent?.split(" ")[0] ?? "",
      tr.querySelector(".badge")?.textContent ?? "",
      tr.children[2]?.textContent ?? "",
      tr.children[4]?.textContent ?? "",
    ]),
  );
}

/** `/sources` and the web sources page of the view loaded from the store in `dir`, as a fresh server serves them. */
async function servedFrom(browser: Browser, dir: string): Promise<{ sources: ApiSource[]; shown: string[][] }> {
  const store = await openSqliteStore(join(dir, "tariff.db"));
  try {
    const view = (await loadView(store, SOURCES))!;
    const server = await startServer(view, { web: { root: await webRoot() } });
    try {
      const res = await server.get("/api/v1/sources");
      expect(res.status).toBe(200);
      const sources = ((await res.json()) as { data: ApiSource[] }).data;
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      try {
        const page = await context.newPage();
        await page.goto(`${server.base}/sources`);
        return { sources, shown: await shownRows(page) };
      } finally {
        await context.close();
      }
    } finally {
      await server.close();
    }
  } finally {
    await store.close();
  }
}

// The two runs are independent (own folders, own servers): concurrent, the spawned server's offline
// run and the in-process live run overlap (T378).
describe.concurrent("/sources says the truth about now (issue 38 §1, T310)", () => {
  it("no network: `tariff serve` publishes nothing, and /sources and the web page show every source failing, with why and when", {
    timeout: 300_000,
  }, async ({ browser }) => {
    const dataDir = await copyReplayStore(join(root, "offline"));
    const home = join(root, "home");
    mkdirSync(home, { recursive: true });
    const started = new Date().toISOString();
    const run = startTariff(["serve"], root, freshEnv(home, { DATA_DIR: dataDir, PORT: "0", ...NO_NETWORK }));
    running.push(run);
    const log = await run.waitForStderr(/tariff: live sources unreachable/);
    const base = /at (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(log)?.[1];
    expect(base, log).toBeDefined();
    // The line is said after the process re-read the attempts (serve.ts): no waiting needed.
    const res = await fetch(`${base}/api/v1/sources`);
    const body = (await res.json()) as { data: ApiSource[]; meta: { datasetVersion: string } };
    expect(body.meta.datasetVersion).toBe("2026-06-01T00:00:00.000Z"); // nothing published (T240)
    expect(body.data.map((s) => s.source)).toEqual(SOURCES.map((s) => s.id));
    for (const s of body.data) {
      expect(s.health, s.source).toBe("failing");
      expect(s.lastAttempt?.status, s.source).toBe("failed");
      expect(s.lastAttempt!.at >= started, s.source).toBe(true);
      expect(s.lastAttempt!.error?.message, s.source).toMatch(new RegExp(`^${s.source}: \\S`));
      // The contract's lastError is the source's last error: this attempt's (T310).
      expect(s.lastError).toEqual({ at: s.lastAttempt!.at, ...s.lastAttempt!.error });
      // The last run is this one, though it published nothing (T450, amending T310's "the version's run").
      expect({ status: s.lastRunStatus, at: s.lastRunAt }, s.source).toEqual({
        status: "failed",
        at: s.lastAttempt!.at,
      });
    }
    // The answer changed while the version did not: its ETag is not the one of the version alone (T310).
    expect(res.headers.get("etag")).not.toBeNull();
    run.child.kill("SIGINT");
    expect((await run.done).code).toBe(0);

    // A server started on the store that run left says the same, on the web page too.
    const { sources, shown } = await servedFrom(browser, dataDir);
    expect(sources.map((s) => [s.source, s.health, s.lastAttempt?.at])).toEqual(
      body.data.map((s) => [s.source, "failing", s.lastAttempt?.at]),
    );
    expect(shown).toEqual(
      sources.map((s) => [
        s.source,
        "failing",
        `${s.lastAttempt!.at.slice(0, 16).replace("T", " ")} UTC failed`,
        `${s.lastError!.at.slice(0, 10)} ${s.lastError!.httpStatus ? `HTTP ${s.lastError!.httpStatus}: ` : ""}${s.lastError!.message}`,
      ]),
    );
  });

  it("the local fake upstream: every source fresh on /sources and on the web page, its last attempt succeeded", {
    timeout: 300_000,
  }, async ({ browser }) => {
    // As `test/live-support.ts` seeds its live tests: an empty store, every source's recorded payload.
    const dir = join(root, "fake-upstream");
    mkdirSync(dir);
    const upstream = await startFakeUpstream(SEED_DATES);
    try {
      const store = await openSqliteStore(join(dir, "tariff.db"));
      try {
        const lines: string[] = [];
        const logger = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
        const result = await runLiveIngest(store, SOURCES, testConfig(upstream, dir), logger);
        expect(result.published).toBe(true);
        // Issue 38 §6 (T313): the run's log line is a summary; the unmatched listings are behind the CLI.
        const published = lines.find((l) => l.includes('"live run published"'))!;
        expect(published.length).toBeLessThan(4096);
        expect(JSON.parse(published).summary).toMatchObject({ unmatchedDetails: "tariff identity --unmatched" });
        expect(JSON.parse(published).summary.unmatchedListings).toBeGreaterThan(0);
        expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(16_384);
      } finally {
        await store.close();
      }
    } finally {
      await upstream.close();
    }
    const { sources, shown } = await servedFrom(browser, dir);
    for (const s of sources) {
      expect(s.health, `${s.source}: ${JSON.stringify(s.lastError)}`).toBe("fresh");
      expect(s.lastAttempt, s.source).toMatchObject({ status: "succeeded", error: null });
      expect(s.lastSuccessAt).toBe(s.lastAttempt!.at);
    }
    expect(shown.map((r) => r.slice(0, 3))).toEqual(
      sources.map((s) => [s.source, "fresh", `${s.lastAttempt!.at.slice(0, 16).replace("T", " ")} UTC succeeded`]),
    );
  });
});
