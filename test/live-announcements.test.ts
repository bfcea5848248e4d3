import { describe, expect, it } from "vitest";
import type { ApiCostEstimate, ApiModel } from "../src/catalogue/schemas.js";
import { isCalendarDay } from "../src/domain/calendar-day.js";
import type { BodyTransform } from "./fake-upstream.js";
import type { TestServer } from "./harness.js";
import { liveFileFixtures, servedAfterLiveRun } from "./live-support.js";

// Issue 47 §1 Must show (T420–T425): each announcement fault, served by the local fake upstream in a
// whole live run over the May seed, is refused or holds its source with its reason in `/sources`,
// and `?at=` / `/cost` on the future day answer as without it. The faults are invented edits of
// genai-prices' real recorded June `data.json` (the fake serves Anthropic's, Mistral's and
// DeepSeek's entries; gpt-4o, the issue's model, is not among them, so Claude Haiku 4.5 — 1 / 5 on
// Anthropic's own page — carries the issue's record: 999 / 499.5 / 3996 from 2027-01-01).

type GenaiModel = { id: string; prices: unknown };
type GenaiProvider = { id: string; models: GenaiModel[] };

/** genai-prices' served `data.json` with `edit` applied (an invented edit of the real payload). */
function genaiWith(edit: (providers: GenaiProvider[]) => void): BodyTransform {
  return {
    decoded: (body) => {
      const providers = JSON.parse(body.toString("utf8")) as GenaiProvider[];
      edit(providers);
      return Buffer.from(JSON.stringify(providers));
    },
  };
}

const anthropic = (providers: GenaiProvider[], id: string) =>
  providers.find((p) => p.id === "anthropic")!.models.find((m) => m.id === id)!;

/** The issue's record, and the impossible and far dates, each on a real Anthropic model of the payload. */
const FAULTS = genaiWith((providers) => {
  const dated = (id: string, ...entries: [string, Record<string, number>][]) => {
    const m = anthropic(providers, id);
    m.prices = [{ prices: m.prices }, ...entries.map(([day, prices]) => ({ constraint: { start_date: day }, prices }))];
  };
  dated("claude-haiku-4-5", ["2027-01-01", { input_mtok: 999, cache_read_mtok: 499.5, output_mtok: 3996 }]);
  dated("claude-opus-4-5", ["2027-13-45", { input_mtok: 4, output_mtok: 20 }], ["2027-02-30", { input_mtok: 4 }]);
  dated("claude-sonnet-4-0", [
    "9999-01-01",
    { input_mtok: 2.5, cache_write_mtok: 3, cache_read_mtok: 0.25, output_mtok: 12 },
  ]);
});

/** Every plain Anthropic list of the payload announcing 0.9 × itself from 2026-12-31: a flood. */
const FLOOD = genaiWith((providers) => {
  for (const p of providers)
    for (const m of p.models) {
      if (Array.isArray(m.prices) || typeof m.prices !== "object" || m.prices === null) continue;
      const list = Object.entries(m.prices as Record<string, unknown>).filter(
        ([, v]) => typeof v === "number" && v > 0,
      );
      if (list.length === 0) continue;
      m.prices = [
        { prices: m.prices },
        {
          constraint: { start_date: "2026-12-31" },
          prices: Object.fromEntries(list.map(([k, v]) => [k, (v as number) * 0.9])),
        },
      ];
    }
});

const FUTURE = ["2027-01-02", "2027-01-01", "2027-03-01", "2028-01-01"];
const COST = "inputTokens=1000000&outputTokens=1000000&cachedInputTokens=200000&cacheWriteTokens=100000&requests=20";
const MODELS = ["anthropic/claude-haiku-4-5", "anthropic/claude-opus-4-5", "anthropic/claude-sonnet-4-0"];

interface Answers {
  readonly models: Record<string, unknown>;
  readonly costs: Record<string, unknown>;
  readonly changes: unknown[];
  readonly rss: string;
}

async function json<T>(server: TestServer, path: string): Promise<T> {
  const res = await server.get(`/api/v1${path}`);
  expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
  return ((await res.json()) as { data: T }).data;
}

/** What users are told of the three models today and on the future days: prices (as answered) and /cost totals. */
async function answers(server: TestServer): Promise<Answers> {
  const models: Record<string, unknown> = {};
  const costs: Record<string, unknown> = {};
  for (const id of MODELS)
    for (const at of [null, ...FUTURE]) {
      const q = at ? `?at=${at}` : "";
      const m = await json<ApiModel>(server, `/models/${id}${q}`);
      models[`${id} ${at}`] = m.prices.map((p) => ({
        label: p.label,
        amount: p.amount,
        confidence: p.confidence,
        sources: p.sources,
        dissenting: p.dissenting,
        effectiveUntil: p.effectiveUntil,
      }));
      const cost = await json<ApiCostEstimate[]>(server, `/cost?model=${id}&${COST}${at ? `&at=${at}` : ""}`);
      costs[`${id} ${at}`] = cost.find((e) => e.channel === "direct")?.totals;
    }
  const changes = await json<unknown[]>(server, "/changes?kind=price_announced,announcement_withdrawn&limit=500");
  const feed = await server.get("/api/v1/changes.xml?kind=price_announced,announcement_withdrawn");
  expect(feed.status).toBe(200);
  const rss = await feed.text();
  return { models, costs, changes, rss };
}

/**
 * The answered prices with genai-prices taken out of `sources` and `dissenting`, where it dissents
 * in one run and agrees in the other only because of the dated record (T466).
 */
function withoutGenaiDissent(models: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, prices] of Object.entries(models))
    out[key] = (prices as { sources: string[]; dissenting: string[] }[]).map((p) => ({
      ...p,
      sources: p.sources.filter((s) => s !== "genai-prices"),
      dissenting: p.dissenting.filter((s) => s !== "genai-prices"),
    }));
  return out;
}

const live = liveFileFixtures();

describe("announcement faults from the fake upstream (issue 47 §1 Must show)", () => {
  it("each fault is refused with its reason in /sources; ?at= and /cost on the future days answer as without it", async () => {
    const clean = await servedAfterLiveRun(live.seed, () => {}, answers);
    const faulty = await servedAfterLiveRun(live.seed, (u) => u.transform("genai-prices", FAULTS), answers);
    const genai = faulty.sources.find((s) => s.source === "genai-prices") as unknown as {
      lastError: unknown;
      rejectedByReason: Record<string, number>;
    };
    // Refused record by record, the source publishing the rest: 999 and 499.5 jump ×999 and ×4995,
    // 3996 is above the 1,000 bound, two days are no calendar days, year 9999 beyond the horizon.
    expect(genai.lastError).toBeNull();
    expect(genai.rejectedByReason).toMatchObject({
      announced_jump: 2,
      announced_out_of_bounds: 1,
      invalid_date: 2,
      beyond_horizon: 4,
    });
    // Claude Haiku 4.5's cache write, which the record leaves out, would end on 2027-01-01 by that
    // aggregator alone: Anthropic's own page states no end, and outranks it (T423).
    // The dated record itself is dissent (T466): where the maker's page states no end, genai-prices'
    // dated price moves from `sources` to `dissenting`; amounts, confidence, ends and costs are as
    // without the faults.
    expect(withoutGenaiDissent(faulty.read.models)).toEqual(withoutGenaiDissent(clean.read.models));
    expect(faulty.read.costs).toEqual(clean.read.costs);
    for (const id of MODELS)
      expect(faulty.read.models[`${id} 2027-01-02`], id).toEqual(faulty.read.models[`${id} null`]);
    const haiku = faulty.read.models["anthropic/claude-haiku-4-5 2027-01-02"] as {
      label: string;
      amount: number;
      confidence: string;
    }[];
    expect(haiku.find((p) => p.label === "Input")).toMatchObject({ amount: 1, confidence: "verified" });
    // /changes and RSS carry no date that is not a real calendar date.
    for (const c of faulty.read.changes as { effectiveFrom?: string | null; occurredAt: string }[]) {
      if (c.effectiveFrom) expect(isCalendarDay(c.effectiveFrom.slice(0, 10)), c.effectiveFrom).toBe(true);
      expect(isCalendarDay(c.occurredAt.slice(0, 10))).toBe(true);
    }
    expect(faulty.read.rss).not.toMatch(/2027-13-45|2027-02-30|9999-/);
  });

  it("a flood of announcements fails genai-prices with its guard, keeps its last good data, and changes no answer", async () => {
    const flooded = await servedAfterLiveRun(live.seed, (u) => u.transform("genai-prices", FLOOD), answers);
    const genai = flooded.sources.find((s) => s.source === "genai-prices")!;
    expect(genai.lastError?.message).toMatch(
      /^genai-prices: guard announcement-flood: \d+ prices announce an end or successor new since the last good run, which announced 0 \(more than the allowed 40\)/,
    );
    expect(flooded.dataset.prices.filter((p) => p.effectiveUntil)).toEqual([]);
    expect(flooded.read.changes).toEqual([]);
    for (const id of MODELS)
      expect(flooded.read.models[`${id} 2027-01-02`], id).toEqual(flooded.read.models[`${id} null`]);
  });
});
