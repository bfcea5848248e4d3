import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiCostEstimate } from "../src/catalogue/schemas.js";
import type { CatalogueView } from "../src/catalogue/view.js";
import { priceLog } from "../src/cli/cost-log.js";
import { formatReport } from "../src/cli/cost-log-text.js";
import type { LogRecord } from "../src/cli/usage-log.js";
import { COST_EXAMPLES, type CostExample, docTable } from "./cost-examples.js";
import { startExportServer } from "./exports-support.js";
import { loadReplay, type TestServer } from "./harness.js";

// Issue 37 "Must show": the table of docs/cost-examples.md — real usage objects of every maker family
// priced by /cost on the replayed catalogue — agrees to the cent (here: exactly) with the amount
// worked by hand from the makers' prices and written in the table; `tariff cost` on a 1,000-line log
// of the same objects prices every line or names why, and its totals are the per-line sum.
// genai-prices' own extractors and calculator, loaded with Tariff's export, price the same records in
// test/exports-genai-prices-costs.test.ts (T518–T521).

let server: TestServer;
let view: CatalogueView;

beforeAll(async () => {
  const replay = await loadReplay();
  await replay.store.close();
  view = replay.view;
  await view.loadTimeline();
  server = await startExportServer(view);
});
afterAll(async () => {
  await server.close();
});

function costUrl(ex: CostExample): string {
  return `/api/v1/cost?${new URLSearchParams({ model: ex.model, usage: JSON.stringify(ex.usage), ...ex.query })}`;
}

async function costOf(ex: CostExample): Promise<ApiCostEstimate> {
  const res = await server.get(costUrl(ex));
  expect(res.status, ex.id).toBe(200);
  const body = (await res.json()) as { data: ApiCostEstimate[] };
  expect(body.data, ex.id).toHaveLength(1);
  return body.data[0]!;
}

/** The USD total of an estimate: its total, or its partial total when incomplete (T300). */
function usd(e: ApiCostEstimate): number | undefined {
  return (e.totals ?? e.partialTotals).find((t) => t.denomination === "currency" && t.currency === "USD")?.amount;
}

describe("docs/cost-examples.md: /cost beside the amount worked by hand", () => {
  // Issue 49 "Must show": at least 30 rows, three per maker family at least, covering cache writes of
  // both lifetimes, fast/priority/flex/batch, a region, a web search and a prompt above a bracket.
  it("has at least 30 rows, three per maker family, and covers every dimension the issues name", () => {
    expect(COST_EXAMPLES.length).toBeGreaterThanOrEqual(30);
    const families = new Map<string, number>();
    for (const ex of COST_EXAMPLES) families.set(ex.family, (families.get(ex.family) ?? 0) + 1);
    expect([...families.values()].every((n) => n >= 3)).toBe(true);
    expect(families.size).toBe(5);
    const shows = COST_EXAMPLES.map((e) => e.shows).join(" ");
    for (const what of ["both lifetimes", "fast", "priority", "flex", "batch", "region", "web search", "272,000"])
      expect(shows.toLowerCase()).toContain(what.toLowerCase());
    expect([...docTable().keys()]).toEqual(COST_EXAMPLES.map((e) => e.id));
  });

  it.each(COST_EXAMPLES.map((e) => [e.id, e] as const))("%s", async (_id, ex) => {
    const { before, cost, byHand } = docTable().get(ex.id)!;
    expect([before, cost, byHand]).toEqual([ex.before, ex.handTotal, ex.handTotal]);
    if (ex.refusal !== undefined) {
      // A precise refusal: a 400 problem whose detail says why (the maker's rule or the mismatch).
      expect(ex.handTotal).toBe("refused");
      const res = await server.get(costUrl(ex));
      expect(res.status, ex.id).toBe(400);
      expect(((await res.json()) as { detail: string }).detail.startsWith(ex.refusal), ex.id).toBe(true);
      return;
    }
    const e = await costOf(ex);
    expect(e.complete, ex.id).toBe(ex.complete);
    expect(String(usd(e))).toBe(ex.handTotal);
  });

  it("the boundaries: 272,000 and 200,000 prompt tokens are the base bracket, one more is the long-context one", async () => {
    const bracket = async (id: string) => (await costOf(COST_EXAMPLES.find((e) => e.id === id)!)).bracket;
    expect(await bracket("O3")).toMatchObject({ contextMin: 0, promptTokensPerRequest: 272000 });
    expect(await bracket("O4")).toMatchObject({ contextMin: 272000, promptTokensPerRequest: 272001 });
    expect(await bracket("A3")).toMatchObject({ contextMin: 0, promptTokensPerRequest: 200000 });
    expect(await bracket("A4")).toMatchObject({ contextMin: 200000, promptTokensPerRequest: 272000 });
  });
});

/**
 * A GPT-4o snapshot served on priority processing (issue 38 §4): OpenAI's page lists priority under
 * `gpt-4o` only, the name that points at `gpt-4o-2024-08-06`, so the snapshot is billed at it
 * (T347): 12,000 × 4.25 + 8,000 × 2.125 + 1,000 × 17, / 1M = 0.051 + 0.017 + 0.017 = 0.085.
 */
const SNAPSHOT_ON_PRIORITY = {
  object: "chat.completion",
  model: "gpt-4o-2024-08-06",
  service_tier: "priority",
  usage: {
    prompt_tokens: 20000,
    completion_tokens: 1000,
    prompt_tokens_details: { cached_tokens: 8000 },
  },
} as const;
const SNAPSHOT_ON_PRIORITY_USD = "0.085";

/**
 * A 1,000-line log mixing the table's objects (deterministic: line i is example i mod N, an hour
 * apart within June 2026), with the kinds among them (A5 batch with caching, A6 above 200K
 * with a 1-hour write, and a GPT-4o snapshot on priority every 53rd line), and two kinds of line no
 * price exists for: a Scale Tier response (paid by Scale Tier units) every 97th line and an unknown
 * model every 89th.
 */
function log(): { records: LogRecord[]; expected: Big; expectedUnpriced: number } {
  const records: LogRecord[] = [];
  let expected = new Big(0);
  let expectedUnpriced = 0;
  for (let i = 0; i < 1000; i++) {
    const timestamp = new Date(Date.UTC(2026, 5, 2) + i * 3_600_000).toISOString();
    if (i % 97 === 96) {
      records.push({
        line: i + 1,
        fields: {
          timestamp,
          model: "openai/gpt-5.4",
          service_tier: "scale",
          usage: { prompt_tokens: 100, completion_tokens: 10 },
        },
      });
      expectedUnpriced++;
      continue;
    }
    if (i % 89 === 88) {
      records.push({ line: i + 1, fields: { timestamp, model: "acme/unknown-model", usage: { input_tokens: 5 } } });
      expectedUnpriced++;
      continue;
    }
    if (i % 53 === 52) {
      records.push({ line: i + 1, fields: { ...SNAPSHOT_ON_PRIORITY, timestamp } });
      expected = expected.plus(SNAPSHOT_ON_PRIORITY_USD);
      continue;
    }
    const ex = COST_EXAMPLES[i % COST_EXAMPLES.length]!;
    const wrapped =
      typeof ex.usage === "object" && ex.usage !== null && ("usage" in ex.usage || "usageMetadata" in ex.usage);
    const fields = {
      ...(wrapped ? (ex.usage as Record<string, unknown>) : { usage: ex.usage }),
      timestamp,
      model: ex.model,
      ...ex.query,
    };
    records.push({ line: i + 1, fields });
    // A refused record (O7, A9) is not priced; one with an unpriced part (G3) is priced but for it.
    if (ex.refusal !== undefined) expectedUnpriced++;
    else expected = expected.plus(ex.handTotal);
  }
  return { records, expected, expectedUnpriced };
}

describe("tariff cost on a 1,000-line log of these objects", () => {
  it("prices every line or names why, and the total is the per-line sum", async () => {
    const { records, expected, expectedUnpriced } = log();
    const report = await priceLog(
      view,
      (async function* () {
        yield* records;
      })(),
    );
    expect(report.records).toBe(1000);
    expect(report.unpriced).toBe(expectedUnpriced);
    expect(report.priced + report.unpriced).toBe(1000);
    // Issue 38 §4 and issue 49 "Must show": left unpriced is only what has no price — Scale Tier's
    // prepaid units, a model nobody lists, a record whose tier the line contradicts (O7, T480) and fast
    // mode on a model Anthropic does not sell it for (A9, T481) — each reason once (no day in it,
    // T345). OpenAI's cache writes (O5, O8) are priced now (T483).
    const o7 = COST_EXAMPLES.find((e) => e.id === "O7")!.refusal!;
    const a9 = COST_EXAMPLES.find((e) => e.id === "A9")!.refusal!;
    const reasons = report.problems.map((p) => p.reason).sort();
    expect(reasons).toHaveLength(4);
    expect(reasons[0]).toMatch(new RegExp(`^${a9}: fast mode`));
    expect(reasons.slice(1, 3)).toEqual([
      "nothing to price: service_tier: served by Scale Tier, paid for by prepaid Scale Tier units, not per token; " +
        "inputTokens: service_tier: served by Scale Tier, paid for by prepaid Scale Tier units, not per token; " +
        "outputTokens: service_tier: served by Scale Tier, paid for by prepaid Scale Tier units, not per token",
      `${o7} (its service_tier or speed): leave tier out to price the record as served, or give a record served in standard`,
    ]);
    expect(reasons[3]).toBe("unknown model acme/unknown-model");
    expect(report.problems.reduce((n, p) => n + p.count, 0)).toBe(expectedUnpriced);
    expect(report.problems.every((p) => p.missing.length === 0)).toBe(true);
    // Every line of every reason (T345), in file order.
    for (const p of report.problems) {
      expect(p.lines).toHaveLength(p.count);
      expect([...p.lines].sort((a, b) => a - b)).toEqual(p.lines);
    }
    const snapshots = records.filter((r) => "fields" in r && r.fields.model === SNAPSHOT_ON_PRIORITY.model).length;
    expect(snapshots).toBeGreaterThan(10);
    expect(report.pricedAsUndated).toEqual({
      "openai/gpt-4o-2024-08-06 as openai/gpt-4o (direct, priority)": snapshots,
    });
    expect(report.byModel["openai/gpt-4o-2024-08-06"]!.totals.USD).toBe(
      Number(new Big(SNAPSHOT_ON_PRIORITY_USD).times(snapshots).toFixed(10)),
    );
    // The text report is short: one line per reason.
    const text = formatReport(report, "june.jsonl");
    const notPriced = text.slice(text.indexOf("\nnot priced"));
    expect(notPriced.trim().split("\n")).toHaveLength(1 + report.problems.length);
    expect(report.unpricedParts.map((p) => p.reason)).toEqual([
      "Grounding with Google Search is billed per grounded prompt (Gemini 2.x) or per search query (Gemini 3) beyond a free daily allowance, which a usage record does not show",
    ]);
    expect(report.totals.USD).toBe(Number(expected.toFixed(10)));
    const byDay = Object.values(report.byDay).reduce((sum, g) => sum.plus(String(g.totals.USD ?? 0)), new Big(0));
    const byModel = Object.values(report.byModel).reduce((sum, g) => sum.plus(String(g.totals.USD ?? 0)), new Big(0));
    expect(Number(byDay.toFixed(10))).toBe(report.totals.USD);
    expect(Number(byModel.toFixed(10))).toBe(report.totals.USD);
  });
});

// Issue 49 §2: the maker's rule is the price; a reseller's or aggregator's row against it is a dissent.
describe("the maker's billing rules over the aggregators' rows (T482, T483)", () => {
  it("B3: Bedrock's us. profile bills 1.1× global; models.dev's and Portkey's us rows at the global price are named", async () => {
    const e = await costOf(COST_EXAMPLES.find((x) => x.id === "B3")!);
    expect(e.lines.map((l) => [l.usage, l.amount, l.uplift?.factor, l.dissent])).toEqual([
      ["inputTokens", 5.5, 1.1, { amount: 5, sources: ["models-dev", "portkey"], decision: "T482" }],
      ["outputTokens", 27.5, 1.1, { amount: 25, sources: ["models-dev", "portkey"], decision: "T482" }],
    ]);
  });

  it("O5: GPT-5.4's cache writes at its input price, the guide's rule on the line", async () => {
    const e = await costOf(COST_EXAMPLES.find((x) => x.id === "O5")!);
    expect(e.lines.find((l) => l.usage === "cacheWriteTokens")).toMatchObject({
      label: "Cache write at 1× Input",
      amount: 2.5,
      derived: { from: "Input", factor: 1, decision: "T483" },
      dissent: null,
    });
  });
});

describe("the maker's caching multipliers where no source lists the cache price (issue 38 §4, T346)", () => {
  it("A5: batch with prompt caching, the cache lines from the batch input price", async () => {
    const e = await costOf(COST_EXAMPLES.find((x) => x.id === "A5")!);
    expect(e.lines.map((l) => [l.usage, l.label, l.amount, l.derived?.factor ?? null])).toEqual([
      ["inputTokens", "Input (batch)", 1.5, null],
      ["cachedInputTokens", "Cache read at 0.1× Input (batch)", 0.15, 0.1],
      ["cacheWriteTokens", "Cache write at 1.25× Input (batch)", 1.875, 1.25],
      ["outputTokens", "Output (batch)", 7.5, null],
    ]);
    expect(e.lines[1]!.derived).toMatchObject({ from: "Input (batch)", decision: "T346" });
  });

  it("A6: above 200K, a 1-hour cache write at 2× the long-context input price; a listed price is used as listed", async () => {
    const e = await costOf(COST_EXAMPLES.find((x) => x.id === "A6")!);
    expect(e.bracket.contextMin).toBe(200000);
    expect(e.lines.find((l) => l.usage === "cacheWriteTokens")).toMatchObject({
      label: "Cache write 1h at 2× Input (> 200K tokens)",
      amount: 12,
      derived: { from: "Input (> 200K tokens)", factor: 2 },
    });
    // The 5-minute write above 200K is listed (LiteLLM 7.5): no rule replaces it.
    const listed = await costOf({
      ...COST_EXAMPLES.find((x) => x.id === "A6")!,
      usage: { input_tokens: 250000, cache_creation_input_tokens: 4000, output_tokens: 1000 },
    });
    expect(listed.lines.find((l) => l.usage === "cacheWriteTokens")).toMatchObject({
      label: "Input (cache write, > 200K tokens)",
      amount: 7.5,
      derived: null,
    });
  });

  it("no other seller borrows Anthropic's rule: Vertex's batch cache read stays missing beside its batch input", async () => {
    const res = await server.get(
      "/api/v1/cost?model=anthropic/claude-sonnet-4-5&channel=reseller_4&tier=batch&inputTokens=1000&cachedInputTokens=1000",
    );
    expect(res.status).toBe(200);
    const e = ((await res.json()) as { data: ApiCostEstimate[] }).data[0]!;
    expect(e.lines[0]).toMatchObject({ usage: "inputTokens", label: "Input (batch)", derived: null });
    expect(e.missing).toEqual(["cachedInputTokens"]);
  });
});

// T370, T371: Anthropic's fast mode (its page's "Fast mode pricing", read into Opus 4.6's priority tier).
describe("Anthropic fast mode on Claude Opus 4.6", () => {
  // The page lists no fast cache price ("Prompt caching multipliers apply on top of fast mode
  // pricing"): models.dev's fast cache read and 5-minute write are listed (T374) and used as listed;
  // the 1-hour write, listed by no one, is the maker's multiplier on the fast input price (T346).
  it("A7: the fast prices with the caching multipliers on top", async () => {
    const e = await costOf(COST_EXAMPLES.find((x) => x.id === "A7")!);
    expect(e.lines.map((l) => [l.usage, l.label, l.amount, l.derived?.factor ?? null])).toEqual([
      ["inputTokens", "Input (priority)", 30, null],
      ["cachedInputTokens", "Input (priority, cache read)", 3, null],
      ["cacheWriteTokens", "Input (priority, cache write)", 37.5, null],
      ["cacheWrite1hTokens", "Cache write 1h at 2× Input (priority)", 60, 2],
      ["outputTokens", "Output (priority)", 150, null],
    ]);
    expect(e.lines[0]).toMatchObject({ sources: ["official-anthropic", "models-dev"], confidence: "verified" });
    expect(e.lines[3]!.derived).toMatchObject({ from: "Input (priority)", decision: "T346" });
  });

  // Anthropic's page: "Fast mode pricing applies across the full context window, including requests
  // over 200K input tokens" (T371). In the 2026-06 version no standard bracket is left either; the rule
  // against the 2026-03 page's standard 200K bracket is tested in src/domain/full-window-tiers.test.ts
  // (on that day the catalogue lists Opus 4.6 with a 200K window, so /cost refuses the request, T200).
  it("A8: a 272,000-token fast request is billed in the base bracket at 30 / 150", async () => {
    const e = await costOf(COST_EXAMPLES.find((x) => x.id === "A8")!);
    expect(e.bracket).toMatchObject({ contextMin: 0, promptTokensPerRequest: 272000 });
    expect(e.lines.map((l) => [l.label, l.amount])).toEqual([
      ["Input (priority)", 30],
      ["Input (priority, cache read)", 3],
      ["Output (priority)", 150],
    ]);
  });
});
