import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadView } from "../src/catalogue/load-view.js";
import type { ApiChange, ApiCostEstimate, ApiModel, ApiPrice, ApiRate } from "../src/catalogue/schemas.js";
import type { SourceId } from "../src/domain/observation.js";
import { loadRunContext, publishRun, type RunContext, type SourceOutcome } from "../src/ingest/run-pipeline.js";
import { SOURCES } from "../src/sources/registry.js";
import { listSnapshots } from "../src/sources/snapshot-reader.js";
import type { SourcePayload } from "../src/sources/source.js";
import type { CatalogueStore } from "../src/store/catalogue-store.js";
import { openSqliteStore } from "../src/store/open-store.js";
import { loadReplay, startServer, type TestServer } from "./harness.js";
import { recordedPayload } from "./recorded-payloads.js";

// Announced and promotional prices (issue 37 §4, issue 35 §5; T335–T338). No recorded copy states
// an end ahead of time (each boundary lies before the copy that first states it, counted below), so
// the announcements are shown by running the real pipeline on real recorded copies at a run date
// before their boundary — the copies' rows are untouched, only the run's date is chosen:
// - llm-prices 2025-11-01 `historical-v1.json`: DeepSeek Chat 0.14 / 0.28 until 2025-02-08, then
//   0.27 / 1.10 (run on 2025-02-01);
// - genai-prices 2025-08-01 `data.json`: OpenAI o3 10 / 40, from 2025-06-10 2 / 8 (run on 2025-06-01);
// - genai-prices 2026-04-01 `data.json`: Claude Opus 4.6's > 200K bracket (input 10, output 37.5)
//   ends on 2026-03-13, when its unconstrained list gives way to a flat 5 / 25 (run on 2026-03-10).

const day = (d: string) => `${d}T00:00:00.000Z`;

/** A recorded copy read as if fetched on `runDay` (its rows unchanged). */
function copyOn(source: SourceId, recorded: string, runDay: string): SourcePayload {
  return { ...recordedPayload(source, recorded), observedAt: day(runDay) };
}

/** Publishes one run of the given outcomes (no guards, as a replay, T40). */
async function run(store: CatalogueStore, ctx: RunContext, runDay: string, outcomes: [SourceId, SourcePayload][]) {
  return publishRun(store, ctx, SOURCES, {
    runTime: day(runDay),
    outcomes: new Map<SourceId, SourceOutcome>(outcomes.map(([id, payload]) => [id, { kind: "payload", payload }])),
    guards: null,
    finishedAt: `${runDay}T00:01:00.000Z`,
  });
}

interface Body<T> {
  data: T;
  meta: Record<string, unknown> & { datasetVersion: string };
}

async function get<T>(server: TestServer, path: string): Promise<Body<T>> {
  const res = await server.get(`/api/v1${path}`);
  expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
  return (await res.json()) as Body<T>;
}

const price = (m: ApiModel, label: string): ApiPrice | undefined => m.prices.find((p) => p.label === label);
const usd = (e: ApiCostEstimate | undefined) =>
  e?.totals?.find((t) => t.currency === "USD" && t.denomination === "currency")?.amount ?? null;
const direct = (body: Body<ApiCostEstimate[]>) => body.data.find((e) => e.channel === "direct");

describe("llm-prices historical-v1.json: DeepSeek Chat 0.14 / 0.28 until 2025-02-08, then 0.27 / 1.10", () => {
  let dir: string;
  let store: CatalogueStore;
  let server: TestServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "tariff-announced-llm-"));
    store = await openSqliteStore(join(dir, "tariff.db"));
    await run(store, await loadRunContext(store), "2025-02-01", [
      ["llm-prices", copyOn("llm-prices", "2025-11-01", "2025-02-01")],
    ]);
    const view = await loadView(store, SOURCES);
    server = await startServer(view!);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("the served price carries its end and the announced successor", async () => {
    const { data } = await get<ApiModel>(server, "/models/deepseek/deepseek-chat");
    expect(price(data, "Input")).toMatchObject({
      amount: 0.14,
      effectiveUntil: day("2025-02-08"),
      announced: { amount: 0.27, effectiveFrom: day("2025-02-08"), source: "llm-prices" },
    });
    expect(price(data, "Output")).toMatchObject({
      amount: 0.28,
      effectiveUntil: day("2025-02-08"),
      announced: { amount: 1.1, effectiveFrom: day("2025-02-08"), source: "llm-prices" },
    });
  });

  it("at=2025-02-07 answers 0.14 / 0.28, at=2025-02-08 the announced 0.27 / 1.10, from the same version", async () => {
    const before = await get<ApiModel>(server, "/models/deepseek/deepseek-chat?at=2025-02-07");
    const after = await get<ApiModel>(server, "/models/deepseek/deepseek-chat?at=2025-02-08");
    expect([price(before.data, "Input")?.amount, price(before.data, "Output")?.amount]).toEqual([0.14, 0.28]);
    expect([price(after.data, "Input")?.amount, price(after.data, "Output")?.amount]).toEqual([0.27, 1.1]);
    expect(price(after.data, "Input")).toMatchObject({
      effectiveFrom: day("2025-02-08"),
      effectiveUntil: null,
      announced: null,
      sources: ["llm-prices"],
    });
    expect(before.meta.datasetVersion).toBe(day("2025-02-01"));
    expect(after.meta.datasetVersion).toBe(day("2025-02-01"));
  });

  it("/rates and /models give the same price of the day as the model's own page (T336 amended: one answer per day)", async () => {
    const rate = async (at: string) =>
      (await get<ApiRate[]>(server, `/rates?provider=deepseek&at=${at}`)).data.find(
        (r) => r.id === "deepseek/deepseek-chat",
      );
    expect(await rate("2025-02-07")).toMatchObject({ inputPerMTok: 0.14, outputPerMTok: 0.28 });
    expect(await rate("2025-02-08")).toMatchObject({ inputPerMTok: 0.27, outputPerMTok: 1.1 });
    const listed = async (at: string) =>
      (await get<ApiModel[]>(server, `/models?provider=deepseek&q=deepseek-chat&at=${at}`)).data.find(
        (m) => m.id === "deepseek/deepseek-chat",
      );
    expect(price((await listed("2025-02-07"))!, "Input")?.amount).toBe(0.14);
    expect(price((await listed("2025-02-08"))!, "Input")?.amount).toBe(0.27);
  });

  it("/cost of 1M input + 1M output tokens: 0.42 on 2025-02-07, 1.37 on 2025-02-08", async () => {
    const q = "model=deepseek/deepseek-chat&inputTokens=1000000&outputTokens=1000000";
    expect(usd(direct(await get<ApiCostEstimate[]>(server, `/cost?${q}&at=2025-02-07`)))).toBe(0.42);
    expect(usd(direct(await get<ApiCostEstimate[]>(server, `/cost?${q}&at=2025-02-08`)))).toBe(1.37);
  });
});

describe("genai-prices dated lists: OpenAI o3 from 2025-06-10, Claude Opus 4.6's > 200K bracket until 2026-03-13", () => {
  let dir: string;
  let store: CatalogueStore;
  let server: TestServer;
  let withdrawn: TestServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "tariff-announced-genai-"));
    store = await openSqliteStore(join(dir, "tariff.db"));
    const ctx = await loadRunContext(store);
    await run(store, ctx, "2025-06-01", [["genai-prices", copyOn("genai-prices", "2025-08-01", "2025-06-01")]]);
    await run(store, ctx, "2026-03-10", [["genai-prices", copyOn("genai-prices", "2026-04-01", "2026-03-10")]]);
    server = await startServer((await loadView(store, SOURCES))!);
    // A later copy that no longer dates the change (invented: the 2026-04-01 copy with Claude Opus
    // 4.6's `start_date` entry deleted, as an upstream withdrawing an announcement would).
    const copy = copyOn("genai-prices", "2026-04-01", "2026-03-11");
    const providers = JSON.parse(copy.files.get("data.json")!) as {
      id: string;
      models: { id: string; prices: unknown }[];
    }[];
    const opus = providers.find((p) => p.id === "anthropic")!.models.find((m) => m.id === "claude-opus-4-6")!;
    opus.prices = (opus.prices as { constraint?: unknown }[]).filter((e) => e.constraint === undefined);
    const files = new Map(copy.files);
    files.set("data.json", JSON.stringify(providers));
    await run(store, ctx, "2026-03-11", [["genai-prices", { ...copy, files }]]);
    withdrawn = await startServer((await loadView(store, SOURCES))!);
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await withdrawn?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("o3: at=2025-06-09 answers 10 / 40 (ends 2025-06-10), at=2025-06-10 the announced 2 / 8", async () => {
    const before = await get<ApiModel>(server, "/models/openai/o3?at=2025-06-09");
    const after = await get<ApiModel>(server, "/models/openai/o3?at=2025-06-10");
    expect(price(before.data, "Input")).toMatchObject({
      amount: 10,
      effectiveUntil: day("2025-06-10"),
      announced: { amount: 2, effectiveFrom: day("2025-06-10"), source: "genai-prices" },
    });
    expect(price(before.data, "Output")?.amount).toBe(40);
    expect([price(after.data, "Input")?.amount, price(after.data, "Output")?.amount]).toEqual([2, 8]);
    // The cache read (0.5 on both lists) has no end.
    expect(price(before.data, "Input (cache read)")).toMatchObject({
      amount: 0.5,
      effectiveUntil: null,
      announced: null,
    });
    const q = "model=openai/o3&inputTokens=1000000&outputTokens=1000000";
    expect(usd(direct(await get<ApiCostEstimate[]>(server, `/cost?${q}&at=2025-06-09`)))).toBe(50);
    expect(usd(direct(await get<ApiCostEstimate[]>(server, `/cost?${q}&at=2025-06-10`)))).toBe(10);
  });

  it("Claude Opus 4.6: the > 200K bracket answers on 2026-03-12 and is gone on 2026-03-13; the base price stays", async () => {
    const { data } = await get<ApiModel>(server, "/models/anthropic/claude-opus-4-6?at=2026-03-12");
    const long = data.prices.find((p) => p.direction === "input" && p.cache === "none" && p.contextMin === 200000);
    // The bracket ends with no successor stated for it: `announced` null.
    expect(long).toMatchObject({ amount: 10, effectiveUntil: day("2026-03-13"), announced: null });
    expect(data.prices.filter((p) => p.contextMin === 200000).map((p) => p.amount)).toEqual([10, 1, 12.5, 37.5]);
    const after = await get<ApiModel>(server, "/models/anthropic/claude-opus-4-6?at=2026-03-13");
    expect(after.data.prices.filter((p) => p.contextMin === 200000)).toEqual([]);
    // 5 / 25 on both lists: no end.
    expect(price(after.data, "Input")).toMatchObject({ amount: 5, effectiveUntil: null });
    expect(price(after.data, "Output")).toMatchObject({ amount: 25, effectiveUntil: null });
    // genai-prices gives the model a 200,000-token window, so /cost cannot ask for a prompt above
    // the bracket (a 400, T145); a 200,000-token prompt is the base bracket on both days.
    const q = "model=anthropic/claude-opus-4-6&inputTokens=200000&outputTokens=10000";
    for (const at of ["2026-03-12", "2026-03-13"])
      expect(usd(direct(await get<ApiCostEstimate[]>(server, `/cost?${q}&at=${at}`))), at).toBe(1.25);
  });

  it("/changes announces the end ahead of time only when asked (kind=price_announced)", async () => {
    const plain = await get<ApiChange[]>(server, "/changes?days=365");
    expect(plain.data.filter((c) => c.kind === "price_announced")).toEqual([]);
    const asked = await get<ApiChange[]>(server, "/changes?days=365&kind=price_announced&model=claude-opus-4-6");
    expect(asked.data.map((c) => [c.label, c.oldAmount, c.newAmount, c.effectiveFrom])).toEqual(
      expect.arrayContaining([["Input (> 200K tokens)", 10, null, day("2026-03-13")]]),
    );
    const feed = await server.get("/api/v1/changes.xml?days=365&kind=price_announced&model=claude-opus-4-6");
    expect(feed.status).toBe(200);
    expect(await feed.text()).toContain("price_announced in channel direct (USD per 1M tokens), effective 2026-03-13");
  });

  it("a later run that no longer states the end withdraws it, with a change record that says so", async () => {
    const { data } = await get<ApiModel>(withdrawn, "/models/anthropic/claude-opus-4-6");
    const long = data.prices.find((p) => p.direction === "input" && p.cache === "none" && p.contextMin === 200000);
    expect(long).toMatchObject({ amount: 10, effectiveUntil: null, announced: null });
    // The announcement is gone: the bracket is still published on 2026-03-13.
    const after = await get<ApiModel>(withdrawn, "/models/anthropic/claude-opus-4-6?at=2026-03-13");
    expect(after.data.prices.filter((p) => p.contextMin === 200000).map((p) => p.amount)).toEqual([10, 1, 12.5, 37.5]);
    const changes = await get<ApiChange[]>(
      withdrawn,
      "/changes?days=365&kind=announcement_withdrawn&model=claude-opus-4-6",
    );
    expect(changes.data.map((c) => [c.label, c.oldAmount, c.newAmount, c.effectiveFrom, c.occurredAt])).toEqual(
      expect.arrayContaining([["Input (> 200K tokens)", null, 10, day("2026-03-13"), day("2026-03-11")]]),
    );
    // Only Claude Opus 4.6's list was withdrawn: Sonnet 4.6's end stands, not withdrawn.
    const sonnet = await get<ApiChange[]>(
      withdrawn,
      "/changes?days=365&kind=announcement_withdrawn&model=claude-sonnet-4-6",
    );
    expect(sonnet.data).toEqual([]);
  });
});

describe("what the recorded copies date, and the replay", () => {
  /** Every dated row of a recorded copy: [what, boundary day]. */
  function llmPricesDated(date: string): [string, string][] {
    const file = JSON.parse(recordedPayload("llm-prices", date).files.get("historical-v1.json")!) as {
      prices: { id: string; from_date?: string | null; to_date?: string | null }[];
    };
    return file.prices
      .filter((p) => p.from_date || p.to_date)
      .map((p) => [p.id, (p.to_date ?? p.from_date)!.slice(0, 10)]);
  }
  function genaiDated(date: string): [string, string][] {
    const providers = JSON.parse(recordedPayload("genai-prices", date).files.get("data.json")!) as {
      id: string;
      models: { id: string; prices: unknown }[];
    }[];
    return providers.flatMap((p) =>
      p.models.flatMap((m) =>
        Array.isArray(m.prices)
          ? (m.prices as { constraint?: { start_date?: string } }[]).flatMap((e) =>
              e.constraint?.start_date
                ? [[`${p.id}/${m.id}`, e.constraint.start_date.slice(0, 10)] as [string, string]]
                : [],
            )
          : [],
      ),
    );
  }
  /** The dates of a source's recorded copies (data/upstream). */
  const copiesOf = (source: SourceId) =>
    [...listSnapshots("data/upstream")]
      .filter(([, ids]) => ids.includes(source))
      .map(([date]) => date)
      .sort();
  const LLM_DATES = copiesOf("llm-prices");
  const GENAI_DATES = copiesOf("genai-prices");

  it("llm-prices dates one move in every copy (DeepSeek Chat, 2025-02-08); genai-prices three (o3, Opus and Sonnet 4.6); none ahead of its copy", () => {
    expect([LLM_DATES.length, GENAI_DATES.length]).toEqual([8, 12]);
    for (const d of LLM_DATES) {
      const rows = llmPricesDated(d);
      expect(rows, d).toEqual([
        ["deepseek-chat", "2025-02-08"],
        ["deepseek-chat", "2025-02-08"],
      ]);
      for (const [, boundary] of rows) expect(boundary <= d, d).toBe(true);
    }
    const seen = new Set<string>();
    for (const d of GENAI_DATES) {
      for (const [what, boundary] of genaiDated(d)) {
        seen.add(`${what} ${boundary}`);
        expect(boundary <= d, `${d}: ${what}`).toBe(true);
      }
    }
    expect([...seen].sort()).toEqual([
      "anthropic/claude-opus-4-6 2026-03-13",
      "anthropic/claude-sonnet-4-6 2026-03-13",
      "openai/o3 2025-06-10",
    ]);
  });

  it("so the replay publishes no end and no announcement in any version", async () => {
    const { store } = await loadReplay();
    try {
      const spans = await store.loadSpans();
      expect(spans.prices.length).toBeGreaterThan(1000);
      expect(spans.prices.filter((s) => s.value.effectiveUntil != null)).toEqual([]);
      const kinds = new Set((await store.loadChanges()).map((c) => c.kind));
      expect(kinds.has("price_increase")).toBe(true);
      expect(kinds.has("price_announced")).toBe(false);
      expect(kinds.has("announcement_withdrawn")).toBe(false);
    } finally {
      await store.close();
    }
  }, 900_000);
});
