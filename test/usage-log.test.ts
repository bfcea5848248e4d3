import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Big from "big.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadView } from "../src/catalogue/load-view.js";
import type { ApiCostEstimate } from "../src/catalogue/schemas.js";
import { modelAt, pricesAt } from "../src/catalogue/timeline.js";
import type { CatalogueView } from "../src/catalogue/view.js";
import { priceLog } from "../src/cli/cost-log.js";
import type { CostLogReport } from "../src/cli/cost-log-report.js";
import type { LogRecord } from "../src/cli/usage-log.js";
import { SOURCES } from "../src/sources/registry.js";
import { freshEnv, startTariff } from "./cli-support.js";
import { startExportServer } from "./exports-support.js";
import { copyReplayStore, loadReplay, type TestServer } from "./harness.js";

// Issue 29 §4, T216–T217: `tariff cost` prices each record of a usage log at its own day's prices
// (the version in force then, as /cost?at= does), totals per model, channel and day, answers "what
// would this have cost on X" (--as), and a closed period always prices the same. Expected amounts
// are /cost's answers in this test, never written down.

let server: TestServer;
let view: CatalogueView;
let october: CatalogueView;

beforeAll(async () => {
  const replay = await loadReplay();
  view = replay.view;
  await view.loadTimeline();
  // The catalogue as it was served on 2025-10-01, before eight more months of runs (T146).
  october = (await loadView(replay.store, SOURCES, "2025-10-01T00:00:00.000Z"))!;
  await october.loadTimeline();
  await replay.store.close();
  server = await startExportServer(view);
});
afterAll(async () => {
  await server.close();
});

async function* records(...rows: Record<string, unknown>[]): AsyncGenerator<LogRecord> {
  let line = 0;
  for (const fields of rows) yield { line: ++line, fields };
}

async function usdOf(query: string): Promise<number> {
  const res = await server.get(`/api/v1/cost?${query}`);
  expect(res.status, query).toBe(200);
  const e = ((await res.json()) as { data: ApiCostEstimate[] }).data[0]!;
  return e.totals!.find((t) => t.currency === "USD")!.amount;
}

/** A September 2025 log: DeepSeek's price fell later (0.27/1.10 then), so today's prices would give another total. */
const SEPTEMBER = [
  { timestamp: "2025-09-03T08:00:00Z", model: "deepseek/deepseek-chat", inputTokens: 100_000, outputTokens: 50_000 },
  {
    created: Date.parse("2025-09-15T10:00:00Z") / 1000,
    model: "deepseek-chat",
    provider: "deepseek",
    usage: { prompt_tokens: 90000, completion_tokens: 20000, prompt_tokens_details: { cached_tokens: 30000 } },
  },
  {
    startTimeUnixNano: String(Date.parse("2025-09-28T23:59:00Z") * 1e6),
    attributes: [
      { key: "gen_ai.provider.name", value: { stringValue: "openai" } },
      { key: "gen_ai.response.model", value: { stringValue: "gpt-4o" } },
      { key: "gen_ai.usage.input_tokens", value: { intValue: "10000" } },
      { key: "gen_ai.usage.output_tokens", value: { intValue: "800" } },
    ],
  },
];

describe("each record at its own day's prices", () => {
  it("a record of 2025-09 is priced at the prices in force then, equal to /cost?at= that day", async () => {
    const report = await priceLog(view, records(SEPTEMBER[0]!));
    const then = await usdOf("model=deepseek/deepseek-chat&inputTokens=100000&outputTokens=50000&at=2025-09-03");
    const now = await usdOf("model=deepseek/deepseek-chat&inputTokens=100000&outputTokens=50000");
    expect(then).not.toBe(now); // DeepSeek's price moved since: the check can fail
    expect(report.totals).toEqual({ USD: then });
    expect(report.versions).toEqual({ "2025-09-01T00:00:00.000Z": 1 });
  });

  it("usage objects, OTel spans and token counts, totalled per model, channel and day", async () => {
    const report = await priceLog(view, records(...SEPTEMBER));
    expect(report).toMatchObject({ records: 3, priced: 3, unpriced: 0 });
    const expected = [
      await usdOf("model=deepseek/deepseek-chat&inputTokens=100000&outputTokens=50000&at=2025-09-03"),
      await usdOf(
        "model=deepseek/deepseek-chat&inputTokens=60000&cachedInputTokens=30000&outputTokens=20000&at=2025-09-15",
      ),
      await usdOf("model=openai/gpt-4o&inputTokens=10000&outputTokens=800&at=2025-09-28"),
    ];
    const sum = (xs: number[]) => xs.reduce((a, b) => a.plus(b), new Big(0)).toNumber();
    expect(report.totals.USD).toBe(sum(expected));
    expect(report.byModel["deepseek/deepseek-chat"]).toEqual({
      records: 2,
      totals: { USD: sum(expected.slice(0, 2)) },
    });
    expect(report.byModel["openai/gpt-4o"]).toEqual({ records: 1, totals: { USD: expected[2] } });
    expect(report.byChannel).toEqual({ direct: { records: 3, totals: { USD: sum(expected) } } });
    expect(Object.keys(report.byDay)).toEqual(["2025-09-03", "2025-09-15", "2025-09-28"]);
  });

  it("a closed period always prices the same: September as the catalogue of 2025-10-01 priced it, and as today's does", async () => {
    const today = await priceLog(view, records(...SEPTEMBER));
    const then = await priceLog(october, records(...SEPTEMBER));
    expect(october.version).toBe("2025-10-01T00:00:00.000Z");
    expect(today).toEqual(then);
    expect(await priceLog(view, records(...SEPTEMBER))).toEqual(today);
  });

  it("a model renamed since is priced under the id it had on the record's day (T66, T216)", async () => {
    // Any model published under a former id before it was renamed, with a direct price then.
    const timeline = view.timeline();
    let found: { id: string; formerId: string; version: string; input: number; output: number } | undefined;
    for (const entry of view.models) {
      for (const formerId of entry.model.formerIds)
        for (const version of timeline.versions) {
          if (found || !modelAt(timeline, formerId, version) || modelAt(timeline, entry.model.id, version)) continue;
          const direct = pricesAt(timeline, formerId, version).filter(
            (p) =>
              p.channel === "direct" &&
              p.unit === "mtok" &&
              p.modality === "text" &&
              p.tier === "standard" &&
              p.contextMin === 0 &&
              p.cache === "none" &&
              p.currency === "USD" &&
              Object.keys(p.qualifiers).length === 0,
          );
          const input = direct.find((p) => p.direction === "input")?.amount;
          const output = direct.find((p) => p.direction === "output")?.amount;
          if (input !== undefined && output !== undefined)
            found = { id: entry.model.id, formerId, version, input, output };
        }
      if (found) break;
    }
    expect(found).toBeDefined();
    const day = found!.version.slice(0, 10);
    const report = await priceLog(
      view,
      records({
        timestamp: `${day}T12:00:00Z`,
        model: found!.formerId,
        inputTokens: 10_000,
        outputTokens: 10_000,
      }),
    );
    expect(report).toMatchObject({ priced: 1, versions: { [found!.version]: 1 } });
    // 10K tokens each: a hundredth of the per-1M prices.
    expect(report.byModel[found!.id]!.totals.USD).toBe(new Big(found!.input).plus(found!.output).div(100).toNumber());
  });

  it("--as prices every record's usage on another model", async () => {
    const report = await priceLog(view, records(...SEPTEMBER), { as: "openai/gpt-4.1" });
    expect(report).toMatchObject({ asModel: "openai/gpt-4.1", priced: 3 });
    expect(report.byModel["openai/gpt-4o"]!.totals.USD).toBe(
      await usdOf("model=openai/gpt-4.1&inputTokens=10000&outputTokens=800&at=2025-09-28"),
    );
    // Claude Sonnet 4.5 was first published on 2025-10-01: September cannot be priced on it.
    const sonnet = await priceLog(view, records(...SEPTEMBER), { as: "anthropic/claude-sonnet-4-5" });
    expect(sonnet).toMatchObject({ priced: 0, unpriced: 3 });
    expect(sonnet.problems).toEqual([
      {
        reason: "anthropic/claude-sonnet-4-5 has no prices published on or before the record's day",
        count: 3,
        lines: [1, 2, 3],
        missing: [],
        unpricedTokens: 0,
        unpricedCalls: 0,
        pricedPart: {},
        days: null,
      },
    ]);
    await expect(priceLog(view, records(...SEPTEMBER), { as: "nobody/nothing" })).rejects.toThrow("nobody/nothing");
  });

  it("a dated snapshot on priority costs what /cost says, billed at its undated name's prices and counted apart (T347, T361)", async () => {
    const usage = { tier: "priority", inputTokens: 12000, cachedInputTokens: 8000, outputTokens: 1000 };
    const report = await priceLog(
      view,
      records(
        { timestamp: "2026-06-02T08:00:00Z", model: "gpt-4o-2024-08-06", provider: "openai", ...usage },
        { timestamp: "2026-06-02T09:00:00Z", model: "openai/gpt-4o-2024-08-06", ...usage },
      ),
    );
    expect(report).toMatchObject({ priced: 2, unpriced: 0 });
    expect(report.pricedAsUndated).toEqual({ "openai/gpt-4o-2024-08-06 as openai/gpt-4o (direct, priority)": 2 });
    const each = await usdOf(
      "model=openai/gpt-4o-2024-08-06&tier=priority&inputTokens=12000&cachedInputTokens=8000&outputTokens=1000&at=2026-06-02",
    );
    // 12,000 × 4.25 + 8,000 × 2.125 + 1,000 × 17, / 1M: gpt-4o's priority prices (genai-prices 2026-06-01).
    expect(each).toBe(0.085);
    expect(report.byModel["openai/gpt-4o-2024-08-06"]!.totals.USD).toBe(new Big(each).times(2).toNumber());
  });

  it("what cannot be priced is counted by reason with its lines, never a silent 0", async () => {
    const report = await priceLog(
      view,
      (async function* (): AsyncGenerator<LogRecord> {
        yield { line: 1, error: "not JSON" };
        yield { line: 2, fields: { model: "openai/gpt-4o", inputTokens: 5 } };
        yield { line: 3, fields: { timestamp: "2025-09-03", model: "nobody/nothing", inputTokens: 5 } };
        yield { line: 4, fields: { timestamp: "2024-01-01", model: "openai/gpt-4o", inputTokens: 5 } };
        // A 1-hour cache write: OpenAI states no such price (its 5-minute writes are the input price, T483).
        yield {
          line: 5,
          fields: { timestamp: "2026-05-01", model: "openai/gpt-4o", cacheWriteTokens: 5, cacheTtl: "1h" },
        };
        yield {
          line: 6,
          fields: {
            timestamp: "2026-05-01",
            model: "openai/gpt-4o",
            usage: { prompt_tokens: 1, prompt_tokens_details: { cached_tokens: 2 } },
          },
        };
        yield { line: 7, fields: { timestamp: "2026-05-01", model: "openai/gpt-4o", inputTokens: 5 } };
      })(),
    );
    expect(report).toMatchObject({ records: 7, priced: 1, unpriced: 6 });
    expect(report.problems.map((p) => [p.reason.split(":")[0], p.lines])).toEqual([
      ["not JSON", [1]],
      [
        "no timestamp (one of timestamp, time, ts, created_at, createdAt, created, start_time, startTimeUnixNano, date)",
        [2],
      ],
      ["unknown model nobody/nothing", [3]],
      ["openai/gpt-4o has no prices published on or before the record's day", [4]],
      // T345: the reason names the missing dimension by its label, and no day.
      ["openai/gpt-4o (direct) has no published Input (cache write 1h) price (for cacheWriteTokens)", [5]],
      ["usage", [6]],
    ]);
  });
});

describe("the tariff commands", () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "tariff-usage-"));
    await copyReplayStore(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = () => freshEnv(dir, { DATA_DIR: dir });

  it("tariff cost reads a CSV and a JSONL log and reports what priceLog does", async () => {
    const csv = join(dir, "month.csv");
    writeFileSync(
      csv,
      "timestamp,model,inputTokens,cachedInputTokens,outputTokens\n" +
        "2025-09-03T08:00:00Z,deepseek/deepseek-chat,100000,0,50000\n" +
        "2025-09-15T10:00:00Z,openai/gpt-4o,4000,6000,800\n",
    );
    const jsonl = join(dir, "month.jsonl");
    writeFileSync(jsonl, `${SEPTEMBER.map((r) => JSON.stringify(r)).join("\n")}\n\n`);
    const fromCsv = await startTariff(["cost", csv, "--json"], dir, env()).done;
    expect(fromCsv.code, fromCsv.stderr).toBe(0);
    const csvReport = JSON.parse(fromCsv.stdout) as CostLogReport;
    expect(csvReport).toMatchObject({ records: 2, priced: 2 });
    expect(csvReport.byModel["openai/gpt-4o"]!.totals.USD).toBe(
      await usdOf("model=openai/gpt-4o&inputTokens=4000&cachedInputTokens=6000&outputTokens=800&at=2025-09-15"),
    );
    const fromJsonl = await startTariff(["cost", jsonl], dir, env()).done;
    expect(fromJsonl.code, fromJsonl.stderr).toBe(0);
    const expected = await priceLog(view, records(...SEPTEMBER));
    expect(fromJsonl.stdout).toContain(`${jsonl}: 3 record(s), 3 priced, 0 not priced`);
    expect(fromJsonl.stdout).toContain(`total: USD ${expected.totals.USD}`);
    expect(fromJsonl.stdout).toMatch(/by day:\n {2}2025-09-03/);
    const missing = await startTariff(["cost", join(dir, "nothing.jsonl")], dir, env()).done;
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no such file");
  });

  it("tariff export writes each file under its consumer's name, byte for byte what the API serves", async () => {
    const out = join(dir, "site");
    const run = await startTariff(["export", "all", out, "--base-url", server.base], dir, env()).done;
    expect(run.code, run.stderr).toBe(0);
    for (const [path, file] of [
      ["litellm/model_prices_and_context_window.json", "model_prices_and_context_window.json"],
      ["models-dev/api.json", "api.json"],
      ["genai-prices/data.json", "data.json"],
    ] as const) {
      const served = await (await server.get(`/api/v1/exports/${path}`)).text();
      expect(readFileSync(join(out, file), "utf8") === served, file).toBe(true);
      expect(run.stderr).toContain(`wrote ${join(out, file)}`);
    }
    const past = await startTariff(["export", "litellm", join(dir, "past"), "--at", "2025-09-15"], dir, env()).done;
    expect(past.code, past.stderr).toBe(0);
    expect(past.stderr).toContain("dataset version 2025-09-01T00:00:00.000Z");
    const bad = await startTariff(["export", "litellm", join(dir, "bad"), "--at", "2025-13-01"], dir, env()).done;
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("at must be a real date YYYY-MM-DD");
  });
});
