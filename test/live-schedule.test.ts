import { describe, expect, it, vi } from "vitest";
import { loadView } from "../src/catalogue/load-view.js";
import { loadConfig } from "../src/cli/config.js";
import { type LiveRunOutcome, type LiveRunReport, parseDuration, scheduleLiveIngest } from "../src/cli/ingest-live.js";
import { PORTKEY_PROVIDERS } from "../src/sources/portkey/upstream.js";
import { SOURCES } from "../src/sources/registry.js";
import { openSqliteStore } from "../src/store/open-store.js";
import { startFakeUpstream } from "./fake-upstream.js";
import { startServer } from "./harness.js";
import { cloneSeed, liveFileFixtures } from "./live-support.js";

// issue 7 §3: `tariff serve --ingest-every` runs live ingestion in the server's process and swaps
// the served view after each publish.
const live = liveFileFixtures();

describe("serve --ingest-every (issue 7 §3)", () => {
  it("a background run publishes and the server then serves the new version", async () => {
    const { dir, cleanup } = cloneSeed(live.seed);
    const upstream = await startFakeUpstream();
    const config = loadConfig({ ...upstream.env(), DATA_DIR: dir, INGEST_RETRIES: "0", LOG_LEVEL: "silent" });
    const store = await openSqliteStore(config.databasePath);
    const server = await startServer((await loadView(store, SOURCES))!);
    await store.close();
    const outcomes: LiveRunOutcome[] = [];
    // The run is a worker thread (T220); the server's thread loads what it published.
    const schedule = scheduleLiveIngest(config, 3_600_000, async (outcome) => {
      outcomes.push(outcome);
      if (!("report" in outcome) || !outcome.report.published) return;
      const reader = await openSqliteStore(config.databasePath);
      try {
        server.views.swap((await loadView(reader, SOURCES, outcome.report.version))!);
      } finally {
        await reader.close();
      }
    });
    try {
      const before = live.seed.dataset.run.datasetVersion;
      expect(server.views.current()?.version).toBe(before);
      await vi.waitFor(() => expect(server.views.current()?.version).not.toBe(before), {
        timeout: 60_000,
        interval: 50,
      });
      expect(outcomes).toHaveLength(1);
      const report = (outcomes[0] as { report: LiveRunReport }).report;
      expect(report).toMatchObject({ published: true, failed: [], sources: SOURCES.length });
      expect(report.version).toBe(server.views.current()?.version);
      expect(report.changes).toBeGreaterThan(0); // May → June moved prices
      const meta = (await (await server.get("/api/v1/meta")).json()) as { meta: { datasetVersion: string } };
      expect(meta.meta.datasetVersion).toBe(server.views.current()?.version);
      expect(meta.meta.datasetVersion > before).toBe(true);
    } finally {
      await schedule.stop();
      await server.close();
      await upstream.close();
      cleanup();
    }
  });

  it("durations are a number and a unit, at least one second", () => {
    expect(parseDuration("90s")).toBe(90_000);
    expect(parseDuration("15m")).toBe(900_000);
    expect(parseDuration("1h")).toBe(3_600_000);
    expect(() => parseDuration("10ms")).toThrow(/under one second/);
    expect(() => parseDuration("soon")).toThrow(/invalid duration/);
  });
});

describe("live upstream configuration (issue 7 §1)", () => {
  // Each source's own URLs are checked in its folder's test (T235); here, what the config makes of them.
  it("every registered source has a live upstream: its public https base URL, unless overridden", () => {
    const config = loadConfig({});
    expect(config.live.baseUrls).toEqual(Object.fromEntries(SOURCES.map((a) => [a.id, a.upstream.baseUrl])));
    for (const a of SOURCES) expect(a.upstream.baseUrl, a.id).toMatch(/^https:\/\/[^/]+\/(.+\/)?$/);
    expect(config.live.settings).toEqual({
      ...Object.fromEntries(SOURCES.map((a) => [a.id, []])),
      portkey: PORTKEY_PROVIDERS,
    });
    expect(loadConfig({ PORTKEY_PROVIDERS: " openai, ,groq " }).live.settings.portkey).toEqual(["openai", "groq"]);
    expect(config.live.fetch.maxBytes).toBe(20 * 1024 * 1024);
    expect(config.live.maxRowDrop).toBe(0.25); // T190
  });

  it("base URLs are overridable per source and checked", () => {
    const config = loadConfig({ SOURCE_URL_MODELS_DEV: "http://127.0.0.1:9/md" });
    expect(config.live.baseUrls["models-dev"]).toBe("http://127.0.0.1:9/md/");
    expect(() => loadConfig({ SOURCE_URL_LITELLM: "not a url" })).toThrow(/SOURCE_URL_LITELLM: not a URL/);
  });
});
