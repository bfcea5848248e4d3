import Big from "big.js";
import { describe, expect } from "vitest";
import type { ApiCostEstimate } from "../src/catalogue/schemas.js";
import type { CatalogueView } from "../src/catalogue/view.js";
import { estimateCost, type TokenUsage } from "../src/domain/cost.js";
import { TOOLS } from "../src/mcp/tools.js";
import { bindShared } from "./fixtures.js";
import { startServer, type TestServer } from "./harness.js";

// GET /cost (issue 17 §1, T140–T145) over real HTTP on the replayed catalogue. Expected amounts are
// worked out by hand from the makers' list prices in the recorded payloads: Anthropic's pricing page
// (data/upstream/official-anthropic/2025-12-01/pricing.md.gz: Sonnet 4.5 $3 / $15, cache read $0.30,
// > 200K $6 / $22.50 with the cache multipliers on top, batch $1.50 / $7.50) and genai-prices
// (2026-06-01: gpt-4o 2.5 / 1.25 cached / 10; gemini-2.5-pro 1.25 / 0.125 / 10, > 200K 2.5 / 0.25 / 15).
let server: TestServer;
let view: CatalogueView;

// The worker's shared replay and API server on a loopback port (test/fixtures.ts, T274), bound before the file's first test.
const it = bindShared("apiServer", (boundView, boundServer) => {
  view = boundView;
  server = boundServer;
});

interface CostBody {
  data: ApiCostEstimate[];
  meta: Record<string, unknown> & { found: number; requested: number };
}

async function cost(query: string): Promise<CostBody> {
  const res = await server.get(`/api/v1/cost?${query}`);
  expect(res.status, `${query}: ${res.status}`).toBe(200);
  return (await res.json()) as CostBody;
}

async function problem(query: string, status = 400): Promise<string> {
  const res = await server.get(`/api/v1/cost?${query}`);
  expect(res.status, query).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  return ((await res.json()) as { detail: string }).detail;
}

/** The one estimate of a single model in one channel and seller. */
async function one(query: string, channel = "direct"): Promise<ApiCostEstimate> {
  const body = await cost(query);
  const found = body.data.filter((e) => e.channel === channel);
  expect(found, query).toHaveLength(1);
  return found[0]!;
}

function usd(e: ApiCostEstimate): number | null {
  return e.totals?.find((t) => t.currency === "USD" && t.denomination === "currency")?.amount ?? null;
}

describe("the README workloads, checked against the makers' list prices", () => {
  it("Claude Sonnet 4.5 at exactly 200K prompt tokens: the standard bracket", async () => {
    const e = await one(
      "model=anthropic/claude-sonnet-4-5&inputTokens=150000&cachedInputTokens=50000&outputTokens=2000",
    );
    expect(e.bracket).toEqual({ contextMin: 0, contextMax: null, promptTokensPerRequest: 200000 });
    expect(e.lines.map((l) => [l.usage, l.label, l.amount, l.cost])).toEqual([
      ["inputTokens", "Input", 3, 0.45],
      ["cachedInputTokens", "Input (cache read)", 0.3, 0.015],
      ["outputTokens", "Output", 15, 0.03],
    ]);
    expect(e.totals).toEqual([{ denomination: "currency", currency: "USD", amount: 0.495 }]);
    expect(e.complete).toBe(true);
  });

  // The workload, the bracket it is billed in, each line's label, price and cost, and the USD total.
  it.each([
    [
      "Claude Sonnet 4.5 one token above 200K: the whole request, cache lines included, at the long-context rates",
      "model=anthropic/claude-sonnet-4-5&inputTokens=150000&cachedInputTokens=50001&outputTokens=2000",
      { contextMin: 200000, contextMax: null },
      [
        ["Input (> 200K tokens)", 6, 0.9],
        ["Input (cache read, > 200K tokens)", 0.6, 0.0300006],
        ["Output (> 200K tokens)", 22.5, 0.045],
      ],
      0.9750006,
    ],
    [
      "GPT-4o with cache hits (OpenAI usage: prompt_tokens 10,000 of which cached_tokens 6,000)",
      "model=openai/gpt-4o&inputTokens=4000&cachedInputTokens=6000&outputTokens=800",
      { contextMin: 0, contextMax: null },
      [
        ["Input", 2.5, 0.01],
        ["Input (cache read)", 1.25, 0.0075],
        ["Output", 10, 0.008],
      ],
      0.0255,
    ],
    [
      "Gemini 2.5 Pro with a long context: every line at the > 200K prices",
      "model=google/gemini-2.5-pro&inputTokens=250000&cachedInputTokens=100000&outputTokens=4000",
      { contextMin: 200000, contextMax: null },
      [
        ["Input (> 200K tokens)", 2.5, 0.625],
        ["Input (cache read, > 200K tokens)", 0.25, 0.025],
        ["Output (> 200K tokens)", 15, 0.06],
      ],
      0.71,
    ],
    [
      "a batch of 100 Claude Sonnet 4.5 requests at the Batch API's 50 % prices",
      "model=anthropic/claude-sonnet-4-5&inputTokens=1000000&outputTokens=200000&requests=100&tier=batch",
      { promptTokensPerRequest: 10000 },
      [
        ["Input (batch)", 1.5, 1.5],
        ["Output (batch)", 7.5, 1.5],
      ],
      3,
    ],
  ] as const)("%s", async (_name, query, bracket, lines, total) => {
    const e = await one(query);
    expect(e.bracket).toMatchObject(bracket);
    expect(e.lines.map((l) => [l.label, l.amount, l.cost])).toEqual(lines);
    expect(usd(e)).toBe(total);
  });

  it("a coding-plan model totals in credits, never in money (D7)", async () => {
    const body = await cost(
      "model=moonshotai/kimi-k2-thinking&channel=coding_plan&inputTokens=100000&outputTokens=20000",
    );
    const e = body.data.find((x) => x.seller === "kimi-for-coding")!;
    expect(e.totals).toEqual([{ denomination: "credit", currency: "XXX", amount: 0 }]);
    expect(e.lines.every((l) => l.displayUnit === "credits per 1M tokens (included in plan)")).toBe(true);
  });
});

describe("billing rules (issue 17 §1)", () => {
  it("counts are exclusive: cache hits are billed once, at the cache price (LiteLLM #14849)", async () => {
    const e = await one("model=google/gemini-2.5-pro&cachedInputTokens=100000");
    expect(e.lines).toHaveLength(1);
    expect(e.lines[0]).toMatchObject({ usage: "cachedInputTokens", tokens: 100000, amount: 0.125, cost: 0.0125 });
    expect(usd(e)).toBe(0.0125);
  });

  it.each([
    ["anthropic/claude-sonnet-4-5", 200000, 3],
    ["google/gemini-2.5-pro", 200000, 1.25],
    ["openai/gpt-5.4", 272000, 2.5],
  ])("%s: a prompt of exactly %i tokens is standard, one more is long context", async (model, limit, base) => {
    const at = await one(`model=${model}&inputTokens=${limit}`);
    expect(at.bracket.contextMin).toBe(0);
    expect(at.lines[0]?.amount).toBe(base);
    const above = await one(`model=${model}&inputTokens=${limit + 1}`);
    expect(above.bracket.contextMin).toBe(limit);
    expect(above.lines[0]?.amount).toBe(base * 2);
    expect(above.lines[0]?.label).toBe(`Input (> ${limit / 1000}K tokens)`);
  });

  it("GPT-5.4 has no > 200K row (models.dev's generic bracket is not published beside the stated 272K, issue 24 T173): 250,000 is standard (T145, genai-prices #711)", async () => {
    const prices = view.pricesByModel.get("openai/gpt-5.4") ?? [];
    expect(prices.some((p) => p.channel === "direct" && p.contextMin === 200000)).toBe(false);
    expect(prices.some((p) => p.channel === "direct" && p.contextMin === 272000)).toBe(true);
    const e = await one("model=openai/gpt-5.4&inputTokens=250000&outputTokens=1000");
    expect(e.bracket.contextMin).toBe(0);
    expect(usd(e)).toBe(0.64);
  });

  it("the prompt counts cache writes, and requests split it evenly", async () => {
    const written = await one("model=anthropic/claude-sonnet-4-5&inputTokens=199000&cacheWriteTokens=1001");
    expect(written.bracket.contextMin).toBe(200000);
    expect(written.lines[1]).toMatchObject({ label: "Input (cache write, > 200K tokens)", amount: 7.5 });
    const two = await one("model=anthropic/claude-sonnet-4-5&inputTokens=400000&requests=2");
    expect(two.bracket).toEqual({ contextMin: 0, contextMax: null, promptTokensPerRequest: 200000 });
    const twoPlus = await one("model=anthropic/claude-sonnet-4-5&inputTokens=400002&requests=2");
    expect(twoPlus.bracket.contextMin).toBe(200000);
    const odd = await one("model=anthropic/claude-sonnet-4-5&inputTokens=400001&requests=2");
    expect(odd.bracket.promptTokensPerRequest).toBe(200000.5);
    expect(odd.bracket.contextMin).toBe(200000);
  });

  it("cacheTtl=1h bills cache writes at the 1-hour write price", async () => {
    const e = await one("model=anthropic/claude-sonnet-4-5&cacheWriteTokens=100000&cacheTtl=1h");
    expect(e.lines[0]).toMatchObject({ label: "Input (cache write 1h)", amount: 6, cost: 0.6 });
    const five = await one("model=anthropic/claude-sonnet-4-5&cacheWriteTokens=100000");
    expect(five.lines[0]).toMatchObject({ label: "Input (cache write)", amount: 3.75, cost: 0.375 });
    // Above 200K nobody publishes Anthropic's 1-hour write price: it is the maker's 2× of the
    // long-context input price, $6 (T346), said on the line — never the base bracket's $6 write.
    const long = await one("model=anthropic/claude-sonnet-4-5&cacheWriteTokens=1000000&cacheTtl=1h");
    expect(long.missing).toEqual([]);
    expect(long.lines[0]).toMatchObject({
      label: "Cache write 1h at 2× Input (> 200K tokens)",
      amount: 12,
      cost: 12,
      derived: { from: "Input (> 200K tokens)", factor: 2, decision: "T346" },
    });
  });

  it("a dimension the model lacks is a missing line and there is no total (LiteLLM #10242, Portkey #606)", async () => {
    // OpenAI's 5-minute cache writes are the input price now (T483); a 1-hour write has no OpenAI price.
    const e = await one("model=openai/gpt-4o&inputTokens=1000&cacheWriteTokens=1000&cacheTtl=1h&outputTokens=10");
    expect(e.complete).toBe(false);
    expect(e.totals).toBeNull();
    expect(e.missing).toEqual(["cacheWriteTokens"]);
    const line = e.lines.find((l) => l.usage === "cacheWriteTokens")!;
    expect(line).toMatchObject({ status: "missing", amount: null, cost: null, label: null });
    // The priced lines are still shown, with the weakest confidence of those.
    expect(e.lines.filter((l) => l.status === "priced")).toHaveLength(2);
    expect(e.confidence).not.toBeNull();
  });

  it("the maker's long-context threshold binds a reseller that publishes no long-context price", async () => {
    const body = await cost("model=anthropic/claude-sonnet-4-5&channel=all&inputTokens=200001");
    const azure = body.data.find((e) => e.channel === "reseller_3")!;
    expect(azure.bracket.contextMin).toBe(200000);
    expect(azure.totals).toBeNull();
    expect(azure.missing).toEqual(["inputTokens"]);
    const bedrock = body.data.find((e) => e.channel === "reseller_2")!;
    expect(bedrock.lines[0]).toMatchObject({ label: "Input (> 200K tokens)", amount: 6 });
    // Below the threshold Azure bills its own standard price.
    const below = await one("model=anthropic/claude-sonnet-4-5&channel=reseller_3&inputTokens=200000", "reseller_3");
    expect(usd(below)).toBe(0.6);
  });

  it("the maker's standard-tier threshold binds the batch tier: no batch price above 200K is published", async () => {
    const e = await one("model=anthropic/claude-sonnet-4-5&tier=batch&inputTokens=300000");
    expect(e.missing).toEqual(["inputTokens"]);
    expect(e.totals).toBeNull();
  });

  it("reasoning tokens are billed at a reasoning price where one is published, else as output", async () => {
    const apart = await one("model=alibaba/qwen-plus&outputTokens=1000&reasoningTokens=1000");
    expect(apart.lines.map((l) => [l.usage, l.label])).toEqual([
      ["outputTokens", "Output"],
      ["reasoningTokens", "Reasoning"],
    ]);
    const asOutput = await one("model=openai/gpt-5.4&outputTokens=1000&reasoningTokens=3000");
    expect(asOutput.lines[1]).toMatchObject({ usage: "reasoningTokens", label: "Output", amount: 15, cost: 0.045 });
  });

  it("amounts are exact decimals with at most 10 significant digits, summed before rounding (D7)", () => {
    const usages: TokenUsage[] = [];
    for (const n of [1, 3, 7, 333, 50001, 123457, 999999])
      usages.push({
        inputTokens: n,
        cachedInputTokens: n * 3,
        cacheWriteTokens: 0,
        cacheWrite1hTokens: 0,
        cacheTtl: "5m",
        outputTokens: n * 7,
        reasoningTokens: 0,
        webSearchRequests: 0,
        requests: 1,
        tier: "standard",
        region: null,
      });
    let floatNoise = 0;
    for (const id of ["openai/gpt-4o", "anthropic/claude-sonnet-4-5", "deepseek/deepseek-chat", "openai/gpt-4o-mini"]) {
      const direct = (view.pricesByModel.get(id) ?? []).filter((p) => p.channel === "direct");
      for (const usage of usages) {
        const e = estimateCost(direct, usage);
        let sum = new Big(0);
        for (const line of e.lines) {
          const exact = new Big(line.tokens).times(String(line.amount)).div(1_000_000);
          sum = sum.plus(exact);
          expect(line.cost).toBe(Number(exact.toPrecision(10)));
          if (line.cost !== (line.tokens * line.amount!) / 1_000_000) floatNoise += 1;
        }
        expect(e.totals?.[0]?.amount).toBe(Number(sum.toPrecision(10)));
        expect(String(e.totals?.[0]?.amount).replace(/^0\.0*|\.|e.*$/g, "").length).toBeLessThanOrEqual(10);
      }
    }
    // Plain floating point would have differed somewhere in these cases.
    expect(floatNoise).toBeGreaterThan(0);
  });
});

describe("models, channels and ranking", () => {
  const EIGHT = [
    "anthropic/claude-sonnet-4-5",
    "openai/gpt-4o",
    "openai/gpt-4o-mini",
    "google/gemini-2.5-pro",
    "google/gemini-2.5-flash",
    "deepseek/deepseek-chat",
    "anthropic/claude-opus-4-0",
    "openai/gpt-5",
  ];

  it("ranks 8 models cheapest first; complete money totals before incomplete ones", async () => {
    const body = await cost(`models=${EIGHT.join(",")}&inputTokens=100000&outputTokens=10000&cacheWriteTokens=1000`);
    expect(body.meta).toMatchObject({ found: 8, requested: 8, channel: "direct" });
    const complete = body.data.filter((e) => e.totals !== null);
    const incomplete = body.data.filter((e) => e.totals === null);
    expect(body.data).toEqual([...complete, ...incomplete]);
    expect(incomplete.length).toBeGreaterThan(0); // OpenAI and Google publish no cache-write price
    const totals = complete.map((e) => usd(e)!);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
  });

  it("drops unknown ids (found vs requested) and answers an alias as its model", async () => {
    const body = await cost("models=openai/gpt-4o,nobody/nothing,anthropic/claude-sonnet-4-5-20250929&inputTokens=10");
    expect(body.meta).toMatchObject({ found: 2, requested: 3 });
    expect(body.data.map((e) => e.model).sort()).toEqual(["anthropic/claude-sonnet-4-5", "openai/gpt-4o"]);
  });

  it("channel=all prices every channel selling the model; credit estimates rank after money", async () => {
    const body = await cost("model=moonshotai/kimi-k2.5&channel=all&inputTokens=1000&outputTokens=1000");
    const channels = new Set(body.data.map((e) => e.channel));
    expect(channels.has("direct")).toBe(true);
    expect(channels.has("coding_plan")).toBe(true);
    const firstCredit = body.data.findIndex((e) => e.totals?.some((t) => t.denomination === "credit"));
    const lastMoney = body.data.findLastIndex(
      (e) => e.totals?.length === 1 && e.totals[0]!.denomination === "currency",
    );
    expect(firstCredit).toBeGreaterThan(lastMoney);
    for (const e of body.data)
      expect(new Set(e.totals?.map((t) => `${t.denomination}|${t.currency}`)).size).toBe(e.totals?.length ?? 0);
  });

  // T484 (issue 49 §3; amends the bare id of D14's model routes for /cost): the id, how new the data
  // is, and the nearest ids, the maker's own first.
  it("an unknown model is a 404 naming the id, how new the data is and the nearest ids", async () => {
    const detail = await problem("model=openai/gpt-5.9&inputTokens=1", 404);
    expect(detail).toMatch(
      /^unknown model openai\/gpt-5\.9: no model or alias of that id in dataset 2026-06-01T00:00:00\.000Z, its newest source evidence of 2026-06-01T00:00:00\.000Z; a model released since is not listed yet\. Nearest ids: openai\/gpt-5/,
    );
    const ids = detail.slice(detail.indexOf("Nearest ids: ") + 13).split(", ");
    expect(ids.length).toBeGreaterThanOrEqual(2);
    expect(ids.length).toBeLessThanOrEqual(5);
    expect(ids.every((id) => id.startsWith("openai/gpt-5"))).toBe(true);
    expect(await problem("model=nobody/nothing&inputTokens=1", 404)).toMatch(/^unknown model nobody\/nothing: /);
    expect(await problem("model=openai/gpt-5.9&inputTokens=1&at=2026-03-15", 404)).toContain(
      "no model or alias of that id on 2026-03-15 (dataset 2026-06-01T00:00:00.000Z)",
    );
  });

  it("a channel that does not sell the model answers no estimate", async () => {
    const body = await cost("model=deepseek/deepseek-chat&channel=reseller_2&inputTokens=1");
    expect(body.data).toEqual([]);
    expect(body.meta.found).toBe(1);
  });
});

/**
 * T347, moved into `/cost` by T361 (issue 38 §4): OpenAI lists priority under `gpt-4o` only, the name
 * that points at `gpt-4o-2024-08-06`; the snapshot's own standard prices (2.5 / 1.25 cached / 10) are
 * the name's, so `/cost` on the snapshot at `tier=priority` is billed at `gpt-4o`'s priority prices
 * (4.25 / 2.125 / 17; genai-prices 2026-06-01) and says so: 12,000 × 4.25 + 8,000 × 2.125 + 1,000 × 17,
 * / 1M = 0.051 + 0.017 + 0.017 = 0.085.
 */
describe("a dated snapshot billed at its undated name's prices (T347, T361)", () => {
  const USAGE = "inputTokens=12000&cachedInputTokens=8000&outputTokens=1000";

  it("gpt-4o-2024-08-06 on priority is priced as openai/gpt-4o, and the estimate says so", async () => {
    const e = await one(`model=openai/gpt-4o-2024-08-06&tier=priority&${USAGE}`);
    expect(e).toMatchObject({ model: "openai/gpt-4o-2024-08-06", pricedAs: "openai/gpt-4o", complete: true });
    expect(e.missing).toEqual([]);
    expect(e.lines.map((l) => [l.usage, l.label, l.amount])).toEqual([
      ["inputTokens", "Input (priority)", 4.25],
      ["cachedInputTokens", "Input (priority, cache read)", 2.125],
      ["outputTokens", "Output (priority)", 17],
    ]);
    expect(usd(e)).toBe(0.085);
    // The name's own answer for the same usage: the same lines and total, no pricedAs.
    const named = await one(`model=openai/gpt-4o&tier=priority&${USAGE}`);
    expect(named.pricedAs).toBeNull();
    expect(e.lines).toEqual(named.lines);
  });

  it("the snapshot's own prices where it has them: the standard tier is not priced as the name", async () => {
    const e = await one(`model=openai/gpt-4o-2024-08-06&${USAGE}`);
    expect(e.pricedAs).toBeNull();
    expect(usd(e)).toBe(0.05); // 12,000 × 2.5 + 8,000 × 1.25 + 1,000 × 10, / 1M
  });

  it("a snapshot priced unlike its name (gpt-4o-2024-05-13, 5 / 15) is never billed as it: its line stays missing", async () => {
    const e = await one(`model=openai/gpt-4o-2024-05-13&tier=priority&${USAGE}`);
    expect(e.pricedAs).toBeNull();
    expect(e.complete).toBe(false);
    expect(e.missing.length).toBeGreaterThan(0);
  });

  it("MCP estimate_cost answers the same as HTTP", async () => {
    const tool = TOOLS.find((t) => t.name === "estimate_cost")!;
    const query = `model=openai/gpt-4o-2024-08-06&tier=priority&${USAGE}`;
    const args = Object.fromEntries(new URLSearchParams(query));
    const viaTool = (await tool.run(view, args)).body as unknown as CostBody;
    const viaHttp = await cost(query);
    expect(viaTool.data).toEqual(viaHttp.data);
    expect(viaTool.data[0]!.pricedAs).toBe("openai/gpt-4o");
  });
});

describe("bad input is a 400 naming the parameter (D13)", () => {
  it.each([
    ["model=openai/gpt-4o&inputTokens=-1", "inputTokens"],
    ["model=openai/gpt-4o&outputTokens=1.5", "outputTokens"],
    ["model=openai/gpt-4o&cachedInputTokens=1e3", "cachedInputTokens"],
    ["model=openai/gpt-4o&cacheWriteTokens=1000000000001", "cacheWriteTokens"],
    ["model=openai/gpt-4o&reasoningTokens=", "reasoningTokens"],
    ["model=openai/gpt-4o&inputTokens=1&requests=0", "requests"],
    ["model=openai/gpt-4o&inputTokens=1&tier=economy", "tier"],
    ["model=openai/gpt-4o&inputTokens=1&cacheTtl=2h", "cacheTtl"],
    ["model=openai/gpt-4o&inputTokens=1&channel=reseller_9", "channel"],
    ["model=openai/gpt-4o&inputTokens=1&inputTokens=2", "inputTokens"],
    ["model=openai/gpt-4o&inputTokens=1&at=2025-02-30", "at"],
    // A future `at` is no longer a 400 (T336): test/point-in-time.test.ts.
    ["model=openai/gpt-4o", "usage"],
    ["inputTokens=1", "model"],
    ["model=openai/gpt-4o&models=openai/gpt-4o,openai/gpt-5&inputTokens=1", "model"],
    ["models=openai/gpt-4o&inputTokens=1", "models"],
    [`models=${Array.from({ length: 9 }, (_, i) => `openai/m${i}`).join(",")}&inputTokens=1`, "models"],
  ])("%s → 400 about %s", async (query, name) => {
    expect(await problem(query)).toContain(name);
  });

  it("accepts the bound itself: 10^12 tokens", async () => {
    // Spread over 10^8 requests of 10,000 tokens: one request of 10^12 would exceed the context window (T200).
    const e = await one("model=openai/gpt-4o&inputTokens=1000000000000&requests=100000000");
    expect(usd(e)).toBe(2500000);
  });
});

describe("HTTP like every endpoint (issue 17 §4)", () => {
  it("carries ETag, CORS, Cache-Control and answers 304 on a matching If-None-Match", async () => {
    const path = "/api/v1/cost?model=openai/gpt-4o&inputTokens=1000";
    const res = await server.get(path);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300, s-maxage=3600, stale-while-revalidate=86400");
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^W\//);
    expect((await server.get(path, { "if-none-match": etag })).status).toBe(304);
  });

  it("counts against the rate limit", async () => {
    const limited = await startServer(view, { rateLimitPerMinute: 2 });
    try {
      const path = "/api/v1/cost?model=openai/gpt-4o&inputTokens=1000";
      expect((await limited.get(path)).headers.get("ratelimit-remaining")).toBe("1");
      await limited.get(path);
      const third = await limited.get(path);
      expect(third.status).toBe(429);
      expect(third.headers.get("retry-after")).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });
});

// T508, T510: Moonshot's own list is CNY (data/upstream/official-moonshot/2026-01-01: kimi-k2-thinking
// ￥4 / ￥1 cache hit / ￥16 per 1M tokens; kimi-latest ￥2 / ￥5 / ￥10 input by request size ≤ 8,192,
// ≤ 32,768, ≤ 131,072 tokens, output ￥10 / ￥20 / ￥30). It is an offer of its own, totalled in CNY;
// the maker's USD amounts (the aggregators', 0.6 / 0.15 / 2.5) stay the USD offer's, never added to it.
describe("a maker's CNY list is an offer of its own, totalled in CNY", () => {
  it("kimi-k2-thinking direct: the USD estimate first, then the CNY one; no total mixes the two", async () => {
    const body = await cost(
      "model=moonshotai/kimi-k2-thinking&inputTokens=100000&cachedInputTokens=100000&outputTokens=1000000",
    );
    expect(body.data.map((e) => [e.channel, e.seller, e.totals])).toEqual([
      ["direct", "moonshotai", [{ denomination: "currency", currency: "USD", amount: 2.575 }]],
      ["direct", "moonshotai", [{ denomination: "currency", currency: "CNY", amount: 16.5 }]],
    ]);
    const cny = body.data[1]!;
    // `medium`: the page alone states them, and its one copy (2026-01-01) is older than the 35 days
    // that keep it `verified` at the replay's last version (T292, T460).
    expect(cny.lines.map((l) => [l.usage, l.label, l.amount, l.currency, l.confidence, l.sources])).toEqual([
      ["inputTokens", "Input (currency: CNY)", 4, "CNY", "medium", ["official-moonshot"]],
      ["cachedInputTokens", "Input (cache read) (currency: CNY)", 1, "CNY", "medium", ["official-moonshot"]],
      ["outputTokens", "Output (currency: CNY)", 16, "CNY", "medium", ["official-moonshot"]],
    ]);
    expect(body.data[0]!.lines.every((l) => l.currency === "USD")).toBe(true);
  });

  it("kimi-latest: the request's size picks the CNY bracket; a USD offer's bracket is not bound by it", async () => {
    const [usdOffer, cnyOffer] = (await cost("model=moonshotai/kimi-latest&inputTokens=10000&outputTokens=1000")).data;
    expect(cnyOffer!.bracket).toEqual({ contextMin: 8192, contextMax: 32768, promptTokensPerRequest: 10000 });
    expect(cnyOffer!.totals).toEqual([{ denomination: "currency", currency: "CNY", amount: 0.07 }]);
    expect(usdOffer!.bracket).toMatchObject({ contextMin: 0, contextMax: null });
    expect(usd(usdOffer!)).not.toBeNull();
  });
});
