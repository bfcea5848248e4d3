import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { constants, gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { Dataset } from "../src/domain/dataset.js";
import { priceKey } from "../src/domain/dataset.js";
import { dimensionKey } from "../src/domain/dimension.js";
import type { SourceId } from "../src/domain/observation.js";
import { runLiveIngest } from "../src/ingest/live-run.js";
import { countRows } from "../src/ingest/run-pipeline.js";
import { SOURCES } from "../src/sources/registry.js";
import { listSnapshots } from "../src/sources/snapshot-reader.js";
import type { SourcePayload } from "../src/sources/source.js";
import { openSqliteStore } from "../src/store/open-store.js";
import { freshEnv, runTariff } from "./cli-support.js";
import {
  type BodyTransform,
  type Dates,
  type FakeUpstream,
  LIVE_DATES,
  servedPayload,
  startFakeUpstream,
} from "./fake-upstream.js";
import {
  cloneSeed,
  liveFileFixtures,
  QUIET,
  type ServedSource,
  servedAfterLiveRun,
  servedPrices,
  testConfig,
} from "./live-support.js";

// issue 26 Must show (Found 1, 3, 4; Build §1, §7, §8): a source is checked against its own last
// good run before anything of it is used. Each case is a whole live run against the local fake
// upstream, over a copy of a store whose previous run published the same June payloads: every
// source but the broken one answers exactly what it answered then, so the published catalogue
// must come out unchanged — every direct and channel price — and `/sources` must say which guard
// failed which source and why, with no URL in it.
//
// The broken payloads are generated here from the recorded ones (multiplied, rows dropped, the
// gzip stream cut), not committed as fixture files.

/** Multiplies every amount of a models.dev payload (every number under a `cost` key, fast modes too) by `factor`. */
function modelsDevTimes(factor: number) {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== "object") return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === "cost" ? times(v, factor) : walk(v)]));
  };
  return (body: Buffer): Buffer => Buffer.from(JSON.stringify(walk(JSON.parse(body.toString("utf8")))));
}

/** Multiplies every amount of a genai-prices payload (`prices` values; tier `start` thresholds stay). */
function genaiPricesTimes(factor: number) {
  return (body: Buffer): Buffer => {
    const json = JSON.parse(body.toString("utf8")) as { models: { prices?: unknown }[] }[];
    for (const provider of json)
      for (const model of provider.models) if (model.prices) model.prices = times(model.prices, factor);
    return Buffer.from(JSON.stringify(json));
  };
}

/** Every number in `value` × `factor`, except the `start` token thresholds of price tiers. */
function times(value: unknown, factor: number, key = ""): unknown {
  if (typeof value === "number") return key === "start" ? value : value * factor;
  if (Array.isArray(value)) return value.map((v) => times(v, factor));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, times(v, factor, k)]));
  return value;
}

/** Drops 11 of every 25 models of each models.dev provider: 44 % of the models, 48 % of the price rows. */
function modelsDevDrop48(body: Buffer): Buffer {
  const json = JSON.parse(body.toString("utf8")) as Record<string, { models: Record<string, unknown> }>;
  for (const provider of Object.values(json))
    provider.models = Object.fromEntries(Object.entries(provider.models).filter((_, i) => i % 25 >= 11));
  return Buffer.from(JSON.stringify(json));
}

/** Anthropic's page gzip-encoded and cut short on the wire: the stream ends before its last block. */
const ANTHROPIC_CUT = 0.5;
const truncatedGzip: BodyTransform = {
  encoding: "gzip",
  wire: (gz) => gz.subarray(0, Math.floor(gz.length * ANTHROPIC_CUT)),
};

interface GuardCase {
  readonly name: string;
  readonly source: SourceId;
  readonly transform: BodyTransform;
  /** What the source's `lastError` must say: the guard (or decoding step) and its figure. */
  readonly error: RegExp;
  /** A model whose served price the broken payload would move, checked over HTTP. */
  readonly sample: { readonly id: string; readonly channel: string };
}

const CASES: readonly GuardCase[] = [
  {
    name: "models.dev × 1000",
    source: "models-dev",
    transform: { decoded: modelsDevTimes(1000) },
    error: /^models-dev: guard scale-shift: \d+ of \d+ amounts \(\d+\.\d %\) moved by one factor ×1000 /,
    sample: { id: "mistral/devstral-small-2505", channel: "direct" },
  },
  {
    name: "genai-prices × 1000",
    source: "genai-prices",
    transform: { decoded: genaiPricesTimes(1000) },
    error: /^genai-prices: guard scale-shift: \d+ of \d+ amounts \(\d+\.\d %\) moved by one factor ×1000 /,
    sample: { id: "anthropic/claude-opus-4-0", channel: "direct" },
  },
  {
    name: "models.dev 48 % row drop",
    source: "models-dev",
    transform: { decoded: modelsDevDrop48 },
    error:
      /^models-dev: guard row-drop: \d+ of \d+ priced rows of the last good run are gone \(-4\d\.\d %, more than the allowed 25 %\)/,
    sample: { id: "mistral/devstral-small-2505", channel: "direct" },
  },
  {
    name: "Anthropic's page as a truncated gzip body",
    source: "official-anthropic",
    transform: truncatedGzip,
    error:
      /^official-anthropic: pricing\.md: gzip body is truncated or corrupt \(unexpected end of file\) \(2 attempts\)$/,
    sample: { id: "anthropic/claude-opus-4-0", channel: "direct" },
  },
];

/** The payload the fake serves for `source` with `transform` applied (decoded side only). */
function transformed(source: SourceId, transform: BodyTransform): SourcePayload {
  const good = servedPayload(source, LIVE_DATES[source]!);
  const files = [...good.files].map(([name, text]): [string, string] => [
    name,
    transform.decoded ? transform.decoded(Buffer.from(text), name).toString("utf8") : text,
  ]);
  return { files: new Map(files), observedAt: good.observedAt };
}

const live = liveFileFixtures({ dates: LIVE_DATES });

/** What users are served after one live run over a copy of the seed, the fake upstream set up by `setup`. */
interface Served {
  readonly dataset: Dataset;
  readonly sources: readonly ServedSource[];
  /** `/models/<id>?channel=<channel>` prices, as served over HTTP. */
  readonly sample: string;
}

async function liveRun(setup: (upstream: FakeUpstream) => void, sample: GuardCase["sample"]): Promise<Served> {
  const [provider, model] = sample.id.split("/");
  const served = await servedAfterLiveRun(live.seed, setup, async (server) => {
    const res = await server.get(`/api/v1/models/${provider}/${model}?channel=${sample.channel}`);
    return JSON.stringify(((await res.json()) as { data: { prices: unknown[] } }).data.prices);
  });
  return { dataset: served.dataset, sources: served.sources, sample: served.read };
}

/** Prices (direct and channel) whose amount differs between two catalogues, or that only one has. */
function diff(before: Dataset, after: Dataset): string[] {
  const a = servedPrices(before);
  const b = servedPrices(after);
  const keys = [...new Set([...a.keys(), ...b.keys()])].sort();
  return keys.filter((k) => a.get(k) !== b.get(k)).map((k) => `${k}: ${a.get(k)} → ${b.get(k)}`);
}

const outages = new Map<SourceId, Promise<Served>>();
/** The same run with `source` merely down (HTTP 500): what its absence alone changes (once per source). */
function outage(source: SourceId, sample: GuardCase["sample"]): Promise<Served> {
  let run = outages.get(source);
  if (!run) {
    run = liveRun((u) => u.fault(source, "http-500"), sample);
    outages.set(source, run);
  }
  return run;
}

describe("the broken payloads are what the issue found (checked without the guards)", () => {
  const adapter = (id: SourceId) => SOURCES.find((a) => a.id === id)!;

  it("× 1000 payloads still parse, with every amount a thousand times the recorded one", () => {
    for (const source of ["models-dev", "genai-prices"] as const) {
      const t = CASES.find((c) => c.source === source && c.name.includes("1000"))!.transform;
      const good = adapter(source).parse(servedPayload(source, LIVE_DATES[source]!));
      const bad = adapter(source).parse(transformed(source, t));
      expect(countRows(bad)).toBe(countRows(good));
      const amounts = (ls: typeof good) => ls.flatMap((l) => l.prices.map((p) => p.amount));
      const ratio = amounts(bad).map((a, i) => (amounts(good)[i] === 0 ? 1000 : a / amounts(good)[i]!));
      expect(ratio.every((r) => Math.abs(r - 1000) < 1e-6)).toBe(true);
    }
  });

  it("the row drop loses 45–50 % of models.dev's rows: under the 50 % guard of issue 7", () => {
    const good = countRows(adapter("models-dev").parse(servedPayload("models-dev", LIVE_DATES["models-dev"]!)));
    const bad = countRows(adapter("models-dev").parse(transformed("models-dev", { decoded: modelsDevDrop48 })));
    const drop = (good - bad) / good;
    expect(drop).toBeGreaterThan(0.45);
    expect(drop).toBeLessThan(0.5);
  });

  it("a lenient gzip decoder makes the cut Anthropic page a shorter page that still parses", () => {
    const page = servedPayload("official-anthropic", LIVE_DATES["official-anthropic"]!).files.get("pricing.md")!;
    const cut = truncatedGzip.wire!(gzipSync(Buffer.from(page)), "pricing.md");
    const lenient = gunzipSync(cut, { finishFlush: constants.Z_SYNC_FLUSH }).toString("utf8");
    expect(lenient.length).toBeLessThan(page.length);
    const a = adapter("official-anthropic");
    const full = countRows(a.parse({ files: new Map([["pricing.md", page]]), observedAt: "2025-12-01T00:00:00.000Z" }));
    const short = countRows(
      a.parse({ files: new Map([["pricing.md", lenient]]), observedAt: "2025-12-01T00:00:00.000Z" }),
    );
    expect(short).toBeGreaterThan(0);
    expect(short).toBeLessThan(full);
  });
});

describe("a live run with one source broken: the published catalogue is unchanged, /sources says why", () => {
  it.each(CASES)("$name", async (c) => {
    const served = await liveRun((u) => u.transform(c.source, c.transform), c.sample);
    expect(served.dataset.run.status).toBe("partial");
    expect(Object.keys(served.dataset.run.summary.failed)).toEqual([c.source]);

    // /sources says which guard failed which source and why, without a URL; the previous
    // evidence stays, with its age (the last good run is the seed's).
    const failed = served.sources.find((s) => s.source === c.source)!;
    expect(failed.lastError?.message).toMatch(c.error);
    expect(failed.lastError?.message).not.toMatch(/https?:|127\.0\.0\.1|localhost|<address>/);
    expect(failed.lastSuccessAt).toBe(live.seed.dataset.run.datasetVersion);
    for (const other of served.sources.filter((s) => s.source !== c.source)) expect(other.lastError).toBeNull();

    // Every direct and channel price against the previous run: equal. A failed source's carried
    // evidence keeps its place in reconciliation (issue 26 Found 2, T178), so neither the broken
    // payload nor the source merely being down (HTTP 500) moves any price.
    const changed = diff(live.seed.dataset, served.dataset);
    expect(changed).toEqual([]);
    const down = await outage(c.source, c.sample);
    expect(down.dataset.run.status).toBe("partial");
    expect(diff(live.seed.dataset, down.dataset)).toEqual([]);
    expect(served.dataset.prices.length).toBe(live.seed.dataset.prices.length);
    expect(served.dataset.prices.some((p) => p.channel === "direct")).toBe(true);
    expect(served.dataset.prices.some((p) => p.channel !== "direct")).toBe(true);
    if (process.env.TARIFF_PRINT_ERRORS)
      appendFileSync(
        process.env.TARIFF_PRINT_ERRORS,
        `${c.name}: ${failed.lastError?.message}\n  ${served.dataset.prices.length} prices; ${changed.length} differ ` +
          `from the previous run, as in the outage: ${changed.join("; ")}\n`,
      );

    // A model the broken payload would have moved is served as before, over HTTP.
    const previous = live.seed.dataset.prices.filter(
      (p) => p.modelId === c.sample.id && p.channel === c.sample.channel,
    );
    expect(previous.length).toBeGreaterThan(0);
    for (const p of previous) expect(served.sample).toContain(`"amount":${p.amount}`);
  });
});

describe("tariff ingest --accept: a real upstream change the operator has checked (T194)", () => {
  it("refuses an unknown source; without it the guard fails the source; with it the payload is used", async () => {
    const { dir, cleanup } = cloneSeed(live.seed);
    const upstream = await startFakeUpstream(LIVE_DATES);
    upstream.transform("models-dev", { decoded: modelsDevTimes(1000) });
    const home = mkdtempSync(join(tmpdir(), "tariff-home-"));
    const env = freshEnv(home, { ...upstream.env(), DATA_DIR: dir, INGEST_RETRIES: "1", INGEST_RETRY_MIN_MS: "10" });
    try {
      const unknown = await runTariff(["ingest", "--accept", "models-dev,nope"], home, env);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain("unknown source nope; the sources are models-dev, genai-prices");

      const guarded = await runTariff(["ingest"], home, env);
      expect(guarded.code).toBe(0);
      expect(guarded.stderr).toMatch(/^ {2}models-dev +FAILED models-dev: guard scale-shift: .* ×1000 /m);

      const accepted = await runTariff(["ingest", "--accept", "models-dev"], home, env);
      expect(accepted.code).toBe(0);
      expect(accepted.stderr).toMatch(/^ {2}models-dev +ok, \d+ rows/m);
      const store = await openSqliteStore(join(dir, "tariff.db"));
      try {
        const latest = (await store.loadDataset())!;
        expect(latest.sources.find((s) => s.source === "models-dev")?.lastError).toBeNull();
        const before = live.seed.dataset.prices.find(
          (p) => p.modelId === "mistral/devstral-small-2505" && p.channel === "direct" && p.direction === "input",
        )!;
        const observation = latest.prices
          .find((p) => priceKey(p, dimensionKey(p)) === priceKey(before, dimensionKey(before)))
          ?.observations.find((o) => o.source === "models-dev");
        expect(observation?.amount).toBe(before.observations.find((o) => o.source === "models-dev")!.amount * 1000);
      } finally {
        await store.close();
      }
    } finally {
      await upstream.close();
      cleanup();
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe("no false alarm on the real history", () => {
  it("live runs of every bundled date in order, as the fake serves them, all succeed (guards on)", async () => {
    // Each date's run asks only the sources recorded that date (the others did not run, T11), as
    // the snapshot replay does; the full payloads are checked in src/core/source-guard.test.ts.
    const layout = listSnapshots("data/upstream");
    const dir = mkdtempSync(join(tmpdir(), "tariff-history-"));
    const upstream = await startFakeUpstream(LIVE_DATES);
    const store = await openSqliteStore(join(dir, "tariff.db"));
    const outcomes: string[] = [];
    try {
      let clock = Date.parse("2026-07-01T00:00:00.000Z");
      for (const [date, present] of layout) {
        upstream.serve(
          Object.fromEntries(SOURCES.map(({ id }) => [id, present.includes(id) ? date : LIVE_DATES[id]!])) as Dates,
        );
        const adapters = SOURCES.filter((a) => present.includes(a.id));
        const result = await runLiveIngest(store, adapters, testConfig(upstream, dir), QUIET, () => new Date(clock++));
        outcomes.push(`${date}: ${result.dataset.run.status} ${JSON.stringify(result.dataset.run.summary.failed)}`);
      }
    } finally {
      await store.close();
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(outcomes.length).toBe(12);
    // Every run succeeds but 2026-03-01's: OpenAI's recorded page of that date has empty text-token
    // panes, a failed page (T290), which is no false alarm.
    const failedPage = JSON.stringify({
      "official-openai":
        "official-openai: pricing.md states no text-token prices (no TextTokenPricingTables row; its text-token panes are empty)",
    });
    expect(outcomes).toEqual(
      [...layout.keys()].map((date) =>
        date === "2026-03-01" ? `${date}: partial ${failedPage}` : `${date}: succeeded {}`,
      ),
    );
  });
});
