// Issue 33 §5 (T266, T267): a serving process loads a new version in pages and builds its view in
// steps, so a publish does not stop request handling. These tests hold that the paged reads and the
// stepped build give exactly what one read and one build give, on the recorded replay.
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StoreSpans } from "../src/catalogue/load-view.js";
import { buildView, buildViewInSteps, type CatalogueView } from "../src/catalogue/view.js";
import type { HistoryPoint, PublishedChange } from "../src/domain/change.js";
import type { Dataset } from "../src/domain/dataset.js";
import type { SourceAttempt } from "../src/domain/source-attempt.js";
import { SOURCES } from "../src/sources/registry.js";
import type { CatalogueStore } from "../src/store/catalogue-store.js";
import { openReplayStore, replayDbPath } from "./harness.js";

let store: CatalogueStore;
let raw: Database.Database;
let version: string;
let dataset: Dataset;
let changes: PublishedChange[];
let history: HistoryPoint[];
let attempts: SourceAttempt[];

beforeAll(async () => {
  store = await openReplayStore();
  raw = new Database(await replayDbPath(), { readonly: true });
  const runs = await store.listRuns();
  // An older version: its spans are a part of each table, not all of it (the filter is exercised).
  version = runs[Math.floor(runs.length / 2)]!.datasetVersion;
  dataset = (await store.loadDataset(version))!;
  changes = await store.loadChanges();
  history = await store.loadHistory();
  attempts = await store.loadAttempts();
}, 120_000);

afterAll(async () => {
  raw.close();
  await store.close();
});

/** Counts the turns of the event loop taken while `work` runs. */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let done = false;
  const tick = () => {
    if (done) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  const result = await work();
  done = true;
  return { result, turns };
}

describe("paged reads (T266)", () => {
  it("loadChanges reads every change record once, in (version, seq) order, over many pages", async () => {
    const rows = raw
      .prepare("select dataset_version as v, seq from change_record order by dataset_version, seq")
      .all() as { v: string; seq: number }[];
    expect(rows.length).toBeGreaterThan(5000); // more than a few pages of 1,000
    expect(changes.map((c) => [c.publishedIn, c.seq])).toEqual(rows.map((r) => [r.v, r.seq]));
  });

  it("loadDirectSpans reads every direct price span once, in pages, turning the event loop between them (T503)", async () => {
    const rows = raw
      .prepare("select price_key as k, valid_from as f from price_span where channel = 'direct' order by k, f")
      .all() as { k: string; f: string }[];
    expect(rows.length).toBeGreaterThan(1000); // many pages of 200
    const { result, turns } = await turnsDuring(() => store.loadDirectSpans());
    expect(result.map((s) => s.from)).toEqual(rows.map((r) => r.f));
    expect(new Set(result.map((s) => `${s.value.modelId}|${s.from}|${s.value.seller}|${s.value.label}`)).size).toBe(
      rows.length,
    );
    expect(result.every((s) => s.value.channel === "direct")).toBe(true);
    // One turn per page at least: a single query would have let none through.
    expect(turns).toBeGreaterThanOrEqual(Math.floor(rows.length / 200));
  });

  it("loadDataset reads every price and model span open at the version once", () => {
    const open = "valid_from <= ? and (valid_to is null or valid_to > ?)";
    const priceKeys = raw.prepare(`select price_key as k from price_span where ${open}`).all(version, version) as {
      k: string;
    }[];
    const modelIds = raw.prepare(`select id from model_span where ${open} order by id`).all(version, version) as {
      id: string;
    }[];
    expect(priceKeys.length).toBeGreaterThan(1000); // many pages of 200
    expect(raw.prepare("select count(*) as n from price_span").get()).not.toEqual({ n: priceKeys.length });
    expect(dataset.prices).toHaveLength(priceKeys.length);
    expect(dataset.models.map((m) => m.id)).toEqual(modelIds.map((r) => r.id));
  });

  it("loadDataset's prices are loadSpansAt's of the same version, with their evidence", async () => {
    const spans = await store.loadSpansAt(version);
    const withoutEvidence = dataset.prices.map((p) => ({ ...p, observations: [] }));
    expect(new Set(spans.prices.map((s) => JSON.stringify(s.value)))).toEqual(
      new Set(withoutEvidence.map((p) => JSON.stringify(p))),
    );
    expect(dataset.prices.some((p) => p.observations.length > 0)).toBe(true);
  });

  it("the event loop turns while a version is read", async () => {
    const { result, turns } = await turnsDuring(() => store.loadDataset(version));
    expect(result).toEqual(dataset);
    expect(turns).toBeGreaterThan(10);
  });
});

describe("the view built in steps (T267)", () => {
  /** The view's data: its functions (the point-in-time index) are made anew by each build. */
  const data = (view: CatalogueView) =>
    Object.fromEntries(Object.entries(view).filter(([, value]) => typeof value !== "function"));

  it("is the view built in one go, and lets the event loop turn meanwhile", async () => {
    const now = new Date("2026-07-01T00:00:00Z");
    const timeline = new StoreSpans(async () => ({ store, release: async () => {} }));
    const record = { changes, history, timeline, attempts };
    const whole = buildView(dataset, SOURCES, now, record);
    const { result: stepped, turns } = await turnsDuring(() => buildViewInSteps(dataset, SOURCES, now, record));
    expect(data(stepped)).toEqual(data(whole));
    expect(Object.keys(stepped).sort()).toEqual(Object.keys(whole).sort());
    expect(JSON.stringify([...stepped.byId.keys()])).toBe(JSON.stringify([...whole.byId.keys()]));
    expect(turns).toBeGreaterThan(10);
  });
});
