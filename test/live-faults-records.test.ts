import { rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildView } from "../src/catalogue/view.js";
import type { Dataset } from "../src/domain/dataset.js";
import type { SourceId } from "../src/domain/observation.js";
import { runLiveIngest } from "../src/ingest/live-run.js";
import { loadRunContext, publishRun, type SourceOutcome } from "../src/ingest/run-pipeline.js";
import { SOURCES } from "../src/sources/registry.js";
import type { SourceAdapter } from "../src/sources/source.js";
import type { CatalogueStore } from "../src/store/catalogue-store.js";
import { openSqliteStore } from "../src/store/open-store.js";
import {
  type BodyTransform,
  type FakeUpstream,
  LIVE_DATES,
  SEED_DATES,
  servedPayload,
  startFakeUpstream,
} from "./fake-upstream.js";
import { cloneSeed, liveFileFixtures, QUIET, servedRows, testConfig } from "./live-support.js";
import { openFreshStore, type StoreKind } from "./store-backends.js";

// Issue 33 Must show (§2, §3; T250–T257): one upstream record never takes the catalogue down.
// Each case is a whole live run against the local fake upstream, over a store whose previous run
// published the May payloads, with one or two sources serving their recorded June payload plus
// invented records (no upstream has sent these yet; the records are copies of real ones with the
// id or one amount changed). Each trigger costs its record only: it is counted (unmatched with its
// reason, or rejected `not_finite`), every source publishes its other rows, and `/sources` says so.

/** Every `Object.prototype` name (`constructor`, `__proto__`, `toString`, `hasOwnProperty`, `valueOf`, …). */
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);

type OpenRouterModel = { id: string; canonical_slug?: string; name?: string; pricing: Record<string, string> };
type LiteLLMEntry = Record<string, unknown> & { litellm_provider: string };

/** OpenRouter's served models.json rewritten by `edit` (a copy of a real model: `like`). */
function openrouterWith(edit: (data: OpenRouterModel[], like: (id: string) => OpenRouterModel) => void): BodyTransform {
  return {
    decoded: (body) => {
      const json = JSON.parse(body.toString("utf8")) as { data: OpenRouterModel[] };
      const like = (id: string) => structuredClone(json.data.find((m) => m.id === id)!);
      edit(json.data, like);
      return Buffer.from(JSON.stringify(json));
    },
  };
}

/** LiteLLM's served file with `edit` applied (own keys set with defineProperty: `__proto__` stays a key). */
function litellmWith(
  edit: (set: (key: string, entry: LiteLLMEntry) => void, get: (key: string) => LiteLLMEntry) => void,
) {
  return {
    decoded: (body: Buffer) => {
      const json = JSON.parse(body.toString("utf8")) as Record<string, LiteLLMEntry>;
      edit(
        (key, entry) =>
          Object.defineProperty(json, key, { value: entry, enumerable: true, writable: true, configurable: true }),
        (key) => structuredClone(json[key]!),
      );
      return Buffer.from(JSON.stringify(json));
    },
  } satisfies BodyTransform;
}

interface RunOutcome {
  readonly dataset: Dataset;
  readonly upstream: FakeUpstream;
  readonly reloaded: Dataset | null;
}

/** One live run over `store` with `transforms` applied; checks every source published; the store reloads it. */
async function liveRun(
  store: CatalogueStore,
  dir: string,
  transforms: Partial<Record<SourceId, BodyTransform>>,
): Promise<RunOutcome> {
  const upstream = await startFakeUpstream();
  try {
    for (const [source, t] of Object.entries(transforms) as [SourceId, BodyTransform | undefined][])
      if (t) upstream.transform(source, t);
    const result = await runLiveIngest(store, SOURCES, testConfig(upstream, dir), QUIET);
    const { dataset } = result;
    // No source failed: each fault cost its record only, and every source published this run.
    expect(dataset.run.status).toBe("succeeded");
    expect(dataset.run.summary.failed).toEqual({});
    for (const h of dataset.sources)
      expect({ source: h.source, status: h.lastRunStatus, error: h.lastError, at: h.lastSuccessAt }).toEqual({
        source: h.source,
        status: "succeeded",
        error: null,
        at: dataset.run.datasetVersion,
      });
    // The sources without invented records publish every row they serve.
    for (const a of SOURCES.filter((s) => !(s.id in transforms)))
      expect(dataset.sources.find((h) => h.source === a.id)?.rowsLastRun).toBe(servedRows(upstream, a.id));
    return { dataset, upstream, reloaded: await store.loadDataset() };
  } finally {
    await upstream.close();
  }
}

/** The unmatched rows of a run for `source` whose model is one of `models`, by model. */
function unmatchedOf(dataset: Dataset, source: SourceId, models: readonly string[]): Map<string, string> {
  const rows = (dataset.run.summary.unmatched ?? []).filter((u) => u.source === source && models.includes(u.model));
  return new Map(rows.map((u) => [u.model, u.reason]));
}

const live = liveFileFixtures();

async function onSeedCopy<T>(run: (store: CatalogueStore, dir: string) => Promise<T>): Promise<T> {
  const { dir, cleanup } = cloneSeed(live.seed);
  const store = await openSqliteStore(join(dir, "tariff.db"));
  try {
    return await run(store, dir);
  } finally {
    await store.close();
    cleanup();
  }
}

describe("one bad upstream record costs that record only (issue 33 §2)", () => {
  it("every Object.prototype name as a model id, a maker and a mode: counted unmatched, the run publishes", async () => {
    const openrouterIds = PROTOTYPE_NAMES.flatMap((n) => [n, `${n}/x`, `anthropic/${n}`]);
    const { dataset, reloaded } = await onSeedCopy((store, dir) =>
      liveRun(store, dir, {
        openrouter: openrouterWith((data, like) => {
          for (const id of openrouterIds)
            data.push({ ...like("anthropic/claude-opus-4.7"), id, canonical_slug: id, name: id });
        }),
        litellm: litellmWith((set, get) => {
          for (const n of PROTOTYPE_NAMES) {
            set(n, { ...get("claude-haiku-4-5"), litellm_provider: n, mode: n });
            set(`anthropic/${n}`, { ...get("claude-haiku-4-5"), mode: n });
          }
        }),
      }),
    );
    // Each is ordinary text now: counted unmatched with its reason, or (`<name>/x`, an unknown
    // publisher's model, like any `acme/x`) published under its own id, never as Object.prototype's.
    const unmatched = unmatchedOf(dataset, "openrouter", openrouterIds);
    for (const id of openrouterIds) {
      if (unmatched.has(id)) continue;
      expect(id, `${id} is unmatched or a publisher's model`).toMatch(/\/x$/);
      const model = dataset.models.find((m) => m.id === id.toLowerCase());
      expect(model, `${id} published as itself`).toBeDefined();
      expect(model!.name).not.toMatch(/function|native code|\[object/);
    }
    expect(unmatched.size).toBeGreaterThanOrEqual(PROTOTYPE_NAMES.length * 2);
    // LiteLLM's entries of an unknown provider or mode are no price of ours: none is published.
    const litellmKeys = [...PROTOTYPE_NAMES, ...PROTOTYPE_NAMES.map((n) => `anthropic/${n}`)];
    const fromLitellm = dataset.prices.filter((p) =>
      p.observations.some((o) => o.source === "litellm" && litellmKeys.includes(o.listing ?? "")),
    );
    expect(fromLitellm).toEqual([]);
    // No bare name or `anthropic/<name>` is published as a model; /sources counts the unmatched.
    for (const n of PROTOTYPE_NAMES)
      expect(dataset.models.filter((m) => m.id.endsWith(`/${n.toLowerCase()}`))).toEqual([]);
    const sources = buildView(dataset, SOURCES).sources;
    expect(sources.find((s) => s.source === "openrouter")!.unmatchedLastRun).toBeGreaterThanOrEqual(unmatched.size);
    expect(reloaded?.run.datasetVersion).toBe(dataset.run.datasetVersion);
  });

  it('OpenRouter "1e308" and "1e999", LiteLLM per-token 1e303: each price rejected not_finite, the rest published', async () => {
    const { dataset, reloaded } = await onSeedCopy((store, dir) =>
      liveRun(store, dir, {
        openrouter: openrouterWith((data) => {
          const a = data.find((m) => m.id === "anthropic/claude-opus-4.7")!;
          const b = data.find((m) => m.id === "mistralai/mistral-large-2512")!;
          a.pricing = { ...a.pricing, prompt: "1e308" };
          b.pricing = { ...b.pricing, completion: "1e999" };
        }),
        litellm: litellmWith((set, get) =>
          set("claude-haiku-4-5", { ...get("claude-haiku-4-5"), input_cost_per_token: 1e303 }),
        ),
      }),
    );
    const sources = buildView(dataset, SOURCES).sources;
    expect(sources.find((s) => s.source === "openrouter")!.rejectedByReason.not_finite).toBe(2);
    expect(sources.find((s) => s.source === "litellm")!.rejectedByReason.not_finite).toBe(1);
    for (const p of dataset.prices) expect(Number.isFinite(p.amount), `${p.modelId} ${p.label}`).toBe(true);
    // The models' other prices from those sources are still published.
    const via = (model: string, source: SourceId, direction: string) =>
      dataset.prices.filter(
        (p) =>
          p.modelId === model &&
          p.direction === direction &&
          p.cache === "none" &&
          Object.keys(p.qualifiers).length === 0 &&
          p.sources.includes(source),
      );
    expect(via("anthropic/claude-opus-4-7", "openrouter", "output").length).toBeGreaterThan(0);
    expect(via("anthropic/claude-opus-4-7", "openrouter", "input").filter((p) => p.seller === "openrouter")).toEqual(
      [],
    );
    expect(reloaded?.prices.length).toBe(dataset.prices.length);
  });

  const LOOKALIKES = [
    "anthropic/claude\u200b-opus-4.7", // zero-width space
    "anthropic/claude-opus-4.7\u202e", // right-to-left override
    "anthropic/\u2066claude-opus-4.7\u2069", // bidi isolate
    "anthropic/claude-opus-4.7\ufeff", // byte-order mark
    "anthropic/claude\u00ad-opus-4.7", // soft hyphen
    "anthropic/ｃｌａｕｄｅ-opus-4.7", // full-width letters
    "anthropic/claude-opus-４.7", // full-width digit
    "anthropic/claude-\u043epus-4.7", // Cyrillic о
    "anthropic/claude-o\u0440us-4.7", // Cyrillic р
    "anthropic/claude-\u03bfpus-4.7", // Greek ο
  ];

  it("ten lookalike ids: each counted unmatched with its reason, none published (§3)", async () => {
    const { dataset } = await onSeedCopy((store, dir) =>
      liveRun(store, dir, {
        openrouter: openrouterWith((data, like) => {
          for (const id of LOOKALIKES) data.push({ ...like("anthropic/claude-opus-4.7"), id, canonical_slug: id });
        }),
      }),
    );
    const unmatched = unmatchedOf(dataset, "openrouter", LOOKALIKES);
    expect([...unmatched.keys()].sort()).toEqual([...LOOKALIKES].sort());
    for (const id of LOOKALIKES)
      expect(unmatched.get(id)).toMatch(/format character|NFKC|lookalike of (anthropic\/)?claude-opus-4[.-]7 /);
    for (const m of dataset.models) expect(m.id, m.id).toMatch(/^[\x21-\x7e]+$/);
    for (const p of dataset.prices) expect(p.modelId).toMatch(/^[\x21-\x7e]+$/);
  });
});

describe("a lookalike of an id of the previous run (§3, T316)", () => {
  it("is counted unmatched with its reason when this run no longer lists the id itself", async () => {
    // Invented: a publisher's model OpenRouter lists in one run (a copy of a real record), then
    // drops while it lists a lookalike (Cyrillic і) of it. Within the second run the lookalike has
    // no plain twin; only the previous version's ids tell it for what it is.
    const plain = "acme-lab/widget-1";
    const lookalike = "acme-lab/w\u0456dget-1";
    const record = (id: string) =>
      openrouterWith((data, like) =>
        data.push({ ...like("anthropic/claude-opus-4.7"), id, canonical_slug: id, name: "Acme Lab: Widget 1" }),
      );
    await onSeedCopy(async (store, dir) => {
      const first = await liveRun(store, dir, { openrouter: record(plain) });
      const widget = first.dataset.models.find((m) => m.provider === "acme-lab");
      expect(widget?.aliases.concat(widget.id)).toContain(plain);
      const upstream = await startFakeUpstream();
      try {
        upstream.transform("openrouter", record(lookalike));
        const { dataset } = await runLiveIngest(store, SOURCES, testConfig(upstream, dir), QUIET);
        expect(dataset.run.datasetVersion > first.dataset.run.datasetVersion).toBe(true);
        expect(unmatchedOf(dataset, "openrouter", [lookalike]).get(lookalike)).toBe(
          `model id is a lookalike of ${widget!.id}, published in the previous version (homoglyphs of another script)`,
        );
        for (const m of dataset.models) expect(m.id, m.id).toMatch(/^[\x21-\x7e]+$/);
        expect(dataset.prices.filter((p) => p.observations.some((o) => o.listing === lookalike))).toEqual([]);
        expect(dataset.sources.find((h) => h.source === "openrouter")?.lastError).toBeNull();
      } finally {
        await upstream.close();
      }
    });
  });
});

describe.each<StoreKind>(["sqlite", "postgres"])("a NUL in an id, on %s (§2, §3)", (kind) => {
  it("the listing is counted unmatched, every source publishes, the store reads the run back", async () => {
    const fresh = await openFreshStore(kind);
    try {
      // The store's previous run: the May payloads.
      const first = await startFakeUpstream(SEED_DATES);
      try {
        await runLiveIngest(fresh.store, SOURCES, testConfig(first, fresh.dataDir), QUIET);
      } finally {
        await first.close();
      }
      const nul = "anthropic/claude-opus-4.7\u0000";
      const { dataset, reloaded } = await liveRun(fresh.store, fresh.dataDir, {
        openrouter: openrouterWith((data, like) =>
          data.push({ ...like("anthropic/claude-opus-4.7"), id: nul, name: "x\u0000y" }),
        ),
        litellm: litellmWith((set, get) => set("claude-haiku\u0000-4-5", get("claude-haiku-4-5"))),
      });
      const marked = nul.replace("\u0000", "\ufffd");
      expect(unmatchedOf(dataset, "openrouter", [marked]).get(marked)).toMatch(/control character/);
      expect(unmatchedOf(dataset, "litellm", ["claude-haiku\ufffd-4-5"]).size).toBe(1);
      expect(reloaded?.run.datasetVersion).toBe(dataset.run.datasetVersion);
      const states = await fresh.store.loadSourceStates();
      expect(states.get("openrouter")?.listings.some((l) => l.model === marked)).toBe(true);
    } finally {
      await fresh.cleanup();
      rmSync(fresh.dataDir, { recursive: true, force: true });
    }
  });
});

describe("a fault the computation meets in one source's payload fails that source only (T257)", () => {
  it("an adapter that emits a price of no known modality: that source fails, saying why, the others publish", async () => {
    // Invented: no adapter emits this; it stands for any record that makes the build throw.
    const broken = (a: SourceAdapter): SourceAdapter => ({
      ...a,
      parseReport: (payload) => {
        const report = a.parseReport!(payload);
        const [l, ...rest] = report.listings;
        const price = { ...l!.prices[0]!, dimension: { ...l!.prices[0]!.dimension, modality: "smell" as "text" } };
        return { ...report, listings: [{ ...l!, prices: [price, ...l!.prices.slice(1)] }, ...rest] };
      },
    });
    await onSeedCopy(async (store) => {
      const adapters = SOURCES.map((a) => (a.id === "llm-prices" ? broken(a) : a));
      const ctx = await loadRunContext(store);
      const outcomes = new Map<SourceId, SourceOutcome>(
        SOURCES.map((a) => [a.id, { kind: "payload", payload: servedPayload(a.id, LIVE_DATES[a.id]!) }]),
      );
      const runTime = new Date(Date.parse(ctx.previous!.run.datasetVersion) + 1000).toISOString();
      const result = await publishRun(store, ctx, adapters, { runTime, outcomes, guards: { maxRowDrop: 0.25 } });
      expect([...result.failures.keys()]).toEqual(["llm-prices"]);
      const health = result.dataset.sources.find((s) => s.source === "llm-prices")!;
      expect(health.lastError?.message).toMatch(
        /^llm-prices: a record of its payload broke the run's computation \(TypeError: /,
      );
      expect(result.dataset.run.status).toBe("partial");
      for (const h of result.dataset.sources.filter((s) => s.source !== "llm-prices"))
        expect([h.source, h.lastSuccessAt]).toEqual([h.source, runTime]);
      expect((await store.latestRun())?.datasetVersion).toBe(runTime);
    });
  });
});
