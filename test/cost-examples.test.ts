import { readFileSync } from "node:fs";
import { calcPrice, type Provider, updatePrices, waitForUpdate } from "@pydantic/genai-prices";
import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiCostEstimate } from "../src/catalogue/schemas.js";
import type { CatalogueView } from "../src/catalogue/view.js";
import { priceLog } from "../src/cli/cost-log.js";
import type { LogRecord } from "../src/cli/usage-log.js";
import { COST_EXAMPLES, type CostExample } from "./cost-examples.js";
import { startExportServer } from "./exports-support.js";
import { loadReplay, type TestServer } from "./harness.js";

// Issue 37 "Must show": the table of docs/cost-examples.md — real usage objects of every maker family
// priced by /cost on the replayed catalogue — agrees to the cent (here: exactly) with the amount
// worked by hand from the makers' prices and written in the table; `tariff cost` on a 1,000-line log
// of the same objects prices every line or names why, and its totals are the per-line sum; and
// genai-prices' own calculator, loaded with Tariff's export, prices the rows whose dimensions it
// supports to the same cent.

let server: TestServer;
let view: CatalogueView;
let exported: Provider[];

beforeAll(async () => {
  const replay = await loadReplay();
  await replay.store.close();
  view = replay.view;
  await view.loadTimeline();
  server = await startExportServer(view);
  const res = await server.get("/api/v1/exports/genai-prices/data.json");
  expect(res.status).toBe(200);
  exported = (await res.json()) as Provider[];
});
afterAll(async () => {
  await server.close();
});

async function costOf(ex: CostExample): Promise<ApiCostEstimate> {
  const query = new URLSearchParams({ model: ex.model, usage: JSON.stringify(ex.usage), ...ex.query });
  const res = await server.get(`/api/v1/cost?${query}`);
  expect(res.status, ex.id).toBe(200);
  const body = (await res.json()) as { data: ApiCostEstimate[] };
  expect(body.data, ex.id).toHaveLength(1);
  return body.data[0]!;
}

/** The USD total of an estimate: its total, or its partial total when incomplete (T300). */
function usd(e: ApiCostEstimate): number | undefined {
  return (e.totals ?? e.partialTotals).find((t) => t.denomination === "currency" && t.currency === "USD")?.amount;
}

/** The table rows of docs/cost-examples.md: id → [/cost column, by-hand column]. */
function tableRows(): Map<string, [string, string]> {
  const rows = new Map<string, [string, string]>();
  for (const line of readFileSync("docs/cost-examples.md", "utf8").split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    if (cells.length < 8 || !/^[A-Z]\d$/.test(cells[1] ?? "")) continue;
    rows.set(cells[1]!, [cells[cells.length - 3]!, cells[cells.length - 2]!]);
  }
  return rows;
}

describe("docs/cost-examples.md: /cost beside the amount worked by hand", () => {
  it("has at least three rows per maker family, and covers every dimension the issue names", () => {
    const families = new Map<string, number>();
    for (const ex of COST_EXAMPLES) families.set(ex.family, (families.get(ex.family) ?? 0) + 1);
    expect([...families.values()].every((n) => n >= 3)).toBe(true);
    expect(families.size).toBe(4);
    const shows = COST_EXAMPLES.map((e) => e.shows).join(" ");
    for (const what of ["cache write", "priority", "region", "web search", "272,000"])
      expect(shows.toLowerCase()).toContain(what.toLowerCase());
    expect([...tableRows().keys()]).toEqual(COST_EXAMPLES.map((e) => e.id));
  });

  it.each(COST_EXAMPLES.map((e) => [e.id, e] as const))("%s", async (_id, ex) => {
    const e = await costOf(ex);
    expect(e.complete, ex.id).toBe(ex.complete);
    const amount = usd(e);
    expect(String(amount)).toBe(ex.handTotal);
    const [documented, byHand] = tableRows().get(ex.id)!;
    expect([documented, byHand]).toEqual([ex.handTotal, ex.handTotal]);
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
 * A 1,000-line log mixing the table's objects (deterministic: line i is example i mod N, an hour
 * apart within June 2026), with two kinds of line no price exists for: a Scale Tier response (paid
 * by Scale Tier units) every 97th line and an unknown model every 89th.
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
    // A record with a missing price line (O5) is not priced; one with an unpriced part (G3) is priced but for it.
    if (ex.id === "O5") expectedUnpriced++;
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
    // Each reason is precise: what is missing and on which day (the day varies with the line).
    const reasons = new Set(report.problems.map((p) => p.reason.replace(/ on \d{4}-\d{2}-\d{2}$/, " on <day>")));
    expect(reasons).toEqual(
      new Set([
        "nothing to price: service_tier: served by Scale Tier, paid for by prepaid Scale Tier units, not per token; " +
          "inputTokens: service_tier: served by Scale Tier, paid for by prepaid Scale Tier units, not per token; " +
          "outputTokens: service_tier: served by Scale Tier, paid for by prepaid Scale Tier units, not per token",
        "openai/gpt-5.4 publishes no price for cacheWriteTokens in direct on <day>",
        "unknown model acme/unknown-model",
      ]),
    );
    expect(report.problems.reduce((n, p) => n + p.count, 0)).toBe(expectedUnpriced);
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

/**
 * The rows genai-prices can price: the direct channel, standard tier, no region, no per-call fee,
 * no unpriced part. Its usage counts every input token in `input_tokens` and bills reasoning as output.
 */
const GENAI_ROWS: readonly { id: string; provider: string; model: string; usage: Record<string, number> }[] = [
  {
    id: "O3",
    provider: "openai",
    model: "gpt-5.4",
    usage: { input_tokens: 272000, cache_read_tokens: 200000, output_tokens: 1000 },
  },
  {
    id: "O4",
    provider: "openai",
    model: "gpt-5.4",
    usage: { input_tokens: 272001, cache_read_tokens: 200000, output_tokens: 1000 },
  },
  {
    id: "A3",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    usage: { input_tokens: 200000, cache_read_tokens: 50000, output_tokens: 1000 },
  },
  {
    id: "A4",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    usage: { input_tokens: 272000, cache_read_tokens: 50000, output_tokens: 1000 },
  },
  {
    id: "G1",
    provider: "google",
    model: "gemini-2.5-pro",
    usage: { input_tokens: 272000, cache_read_tokens: 100000, output_tokens: 5000 },
  },
];

describe("genai-prices, loaded with Tariff's export, prices the rows whose dimensions it supports", () => {
  it.each(GENAI_ROWS.map((r) => [r.id, r] as const))("%s", async (_id, row) => {
    updatePrices(({ setProviderData }) => setProviderData(exported));
    await waitForUpdate();
    const ex = COST_EXAMPLES.find((e) => e.id === row.id)!;
    const priced = calcPrice(row.usage, row.model, { providerId: row.provider });
    expect(priced, row.id).not.toBeNull();
    expect(Math.round(priced!.total_price * 100)).toBe(Math.round(Number(ex.handTotal) * 100));
    expect(Math.abs(priced!.total_price - Number(ex.handTotal))).toBeLessThan(1e-9);
  });
});
