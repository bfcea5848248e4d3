import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MARKET_KINDS } from "../src/domain/change.js";
import type { Dataset, PublishedPrice } from "../src/domain/dataset.js";
import { priceKey } from "../src/domain/dataset.js";
import { dimensionKey } from "../src/domain/dimension.js";
import type { SourceId } from "../src/domain/observation.js";
import { runLiveIngest } from "../src/ingest/live-run.js";
import { loadRunContext, publishRun, type SourceOutcome } from "../src/ingest/run-pipeline.js";
import { SOURCES } from "../src/sources/registry.js";
import { listSnapshots } from "../src/sources/snapshot-reader.js";
import type { CatalogueStore } from "../src/store/catalogue-store.js";
import { openSqliteStore } from "../src/store/open-store.js";
import { LIVE_DATES, startFakeUpstream } from "./fake-upstream.js";
import { QUIET, testConfig } from "./live-support.js";
import { recordedPayload } from "./recorded-payloads.js";

// Issue 26 §2 (T178): a source that fails changes nothing by its absence. Its last good evidence
// keeps its place in reconciliation (full weight, its evidence age), ageing — stale, re-confirming
// nothing — but never vanishing, so no dissenting amount wins because it failed.

/** Every published price (all channels) as model, channel, seller, dimension, unit → amount and money. */
function amounts(dataset: Dataset): Map<string, string> {
  return new Map(
    dataset.prices.map((p: PublishedPrice) => [
      priceKey(p, dimensionKey(p)),
      `${p.amount} ${p.denomination} ${p.currency}`,
    ]),
  );
}

function differences(before: Map<string, string>, after: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [key, was] of before) if (after.get(key) !== was) out.push(`${key}: ${was} → ${after.get(key) ?? "gone"}`);
  for (const [key, now] of after) if (!before.has(key)) out.push(`${key}: new ${now}`);
  return out;
}

describe("models.dev failing on the recorded 2026-06-01 payloads, run through the ingestion pipeline", () => {
  let dir: string;
  let store: CatalogueStore;
  let good: Dataset;
  let failed: Dataset;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "tariff-failed-source-"));
    store = await openSqliteStore(join(dir, "tariff.db"));
    const ctx = await loadRunContext(store);
    // Every source of the 2026-06-01 snapshot: those not recorded then (Anthropic's page, the makers'
    // one-off copies of issue 48) do not run.
    const recorded = listSnapshots("data/upstream").get("2026-06-01") ?? [];
    const outcomes = (failing: SourceId | null) =>
      new Map<SourceId, SourceOutcome>(
        SOURCES.filter((a) => recorded.includes(a.id)).map((a) => [
          a.id,
          a.id === failing
            ? { kind: "failed", message: `${a.id}: HTTP 500 Internal Server Error (2 attempts)`, httpStatus: 500 }
            : { kind: "payload", payload: recordedPayload(a.id, "2026-06-01") },
        ]),
      );
    good = (
      await publishRun(store, ctx, SOURCES, {
        runTime: "2026-06-01T00:00:00.000Z",
        outcomes: outcomes(null),
        guards: null,
        finishedAt: "2026-06-01T00:01:00.000Z",
      })
    ).dataset;
    failed = (
      await publishRun(store, ctx, SOURCES, {
        runTime: "2026-06-01T01:00:00.000Z",
        outcomes: outcomes("models-dev"),
        guards: null,
        finishedAt: "2026-06-01T01:01:00.000Z",
      })
    ).dataset;
  }, 180_000);

  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps MiniMax M2.5's 0.3 on Together (reseller_5): Portkey's 300 does not win because models.dev failed", () => {
    // models.dev (weight 0.8) says 0.3 for togetherai's MiniMaxAI/MiniMax-M2.5 input, Portkey (0.6) 300
    // — a unit slip with no third source to outvote it. Before T178 the carried 0.3 counted half and
    // 300 was published when models.dev failed.
    const input = (d: Dataset) =>
      d.prices.find(
        (p) =>
          p.modelId === "minimax/minimax-m2.5" &&
          p.channel === "reseller_5" &&
          p.direction === "input" &&
          p.cache === "none" &&
          p.modality === "text",
      );
    expect(input(good)).toMatchObject({ amount: 0.3, sources: ["models-dev"], dissenting: ["portkey"] });
    expect(failed.run.status).toBe("partial");
    expect(input(failed)).toMatchObject({
      amount: 0.3,
      sources: ["models-dev"],
      staleSince: failed.run.datasetVersion,
    });
    expect(input(failed)?.observations.find((o) => o.source === "models-dev")).toMatchObject({
      amount: 0.3,
      fresh: false,
    });
  });

  it("publishes every direct and channel price at the amount of the run before", () => {
    expect(good.prices.length).toBeGreaterThan(15_000);
    expect(differences(amounts(good), amounts(failed))).toEqual([]);
  });

  it("records no market change", async () => {
    const changes = (await store.loadChanges()).filter((c) => c.occurredAt === failed.run.datasetVersion);
    expect(changes.filter((c) => MARKET_KINDS.includes(c.kind))).toEqual([]);
  });
});

describe("a live run with models.dev failing (HTTP 500) against the local fake upstream", () => {
  it("publishes every direct and channel price at the amount of the run before", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tariff-live-failed-"));
    const upstream = await startFakeUpstream(LIVE_DATES);
    const store = await openSqliteStore(join(dir, "tariff.db"));
    try {
      const config = testConfig(upstream, dir);
      const first = await runLiveIngest(store, SOURCES, config, QUIET, () => new Date("2026-06-01T00:00:00.000Z"));
      expect(first.dataset.run.status).toBe("succeeded");
      upstream.fault("models-dev", "http-500");
      const second = await runLiveIngest(store, SOURCES, config, QUIET, () => new Date("2026-06-01T01:00:00.000Z"));
      expect(second.dataset.run.summary.failed).toEqual({ "models-dev": expect.stringContaining("HTTP 500") });
      const modelsDevBacked = first.dataset.prices.filter((p) => p.sources.includes("models-dev"));
      expect(modelsDevBacked.length).toBeGreaterThan(50);
      expect(differences(amounts(first.dataset), amounts(second.dataset))).toEqual([]);
      const changes = (await store.loadChanges()).filter((c) => c.occurredAt === second.dataset.run.datasetVersion);
      expect(changes.filter((c) => MARKET_KINDS.includes(c.kind))).toEqual([]);
    } finally {
      await store.close();
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
