import { describe, expect } from "vitest";
import type { ApiCostEstimate } from "../src/catalogue/schemas.js";
import type { CatalogueView } from "../src/catalogue/view.js";
import { TOOLS } from "../src/mcp/tools.js";
import { ANTHROPIC_BOTH_CACHE_LIFETIMES } from "./cost-examples.js";
import { bindShared } from "./fixtures.js";
import type { MemoryServer } from "./harness.js";

// Issue 29 §3, T211: /cost (and MCP estimate_cost) take the usage object as the provider returns it,
// or a span's OpenTelemetry GenAI attributes, and price it exactly as the same usage written out in
// token parameters. The usage objects have the shapes of the providers' API references; the token
// parameters beside each are the README's mapping table worked out by hand.

let server: MemoryServer;
let view: CatalogueView;

// The worker's shared replay and in-memory API (test/fixtures.ts, T274), bound before the file's first test for the helpers below.
const it = bindShared("api", (boundView, boundServer) => {
  view = boundView;
  server = boundServer;
});

interface CostBody {
  data: ApiCostEstimate[];
  meta: Record<string, unknown> & { usage: Record<string, unknown> };
}

async function cost(query: string): Promise<CostBody> {
  const res = await server.get(`/api/v1/cost?${query}`);
  expect(res.status, `${query}: ${res.status}`).toBe(200);
  return (await res.json()) as CostBody;
}

async function problem(query: string): Promise<string> {
  const res = await server.get(`/api/v1/cost?${query}`);
  expect(res.status, query).toBe(400);
  return ((await res.json()) as { detail: string }).detail;
}

const usageQuery = (model: string, usage: unknown, extra = "") =>
  `model=${model}&usage=${encodeURIComponent(JSON.stringify(usage))}${extra}`;

/**
 * The usage object's answer equals the token parameters' answer: the same lines, totals and usage.
 * `extra` applies to both queries; `format` only to the usage object's.
 */
async function expectSame(model: string, usage: unknown, tokens: string, extra = "", format = "") {
  const fromObject = await cost(usageQuery(model, usage, `${extra}${format}`));
  const fromTokens = await cost(`model=${model}&${tokens}${extra}`);
  expect(fromObject.data[0]!.totals).not.toBeNull();
  expect(fromObject.data).toEqual(fromTokens.data);
  expect(fromObject.meta.usage).toEqual(fromTokens.meta.usage);
  return fromObject;
}

const CASES = [
  {
    name: "OpenAI Chat Completions usage (prompt-caching guide: 2006 prompt tokens, 1920 cached)",
    model: "openai/gpt-4o",
    usage: {
      prompt_tokens: 2006,
      completion_tokens: 300,
      total_tokens: 2306,
      prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    },
    tokens: "inputTokens=86&cachedInputTokens=1920&outputTokens=300",
  },
  {
    name: "OpenAI Responses usage (reasoning guide: 1186 output tokens, 1024 of them reasoning)",
    model: "openai/o3",
    usage: {
      input_tokens: 75,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 1186,
      output_tokens_details: { reasoning_tokens: 1024 },
      total_tokens: 1261,
    },
    tokens: "inputTokens=75&outputTokens=162&reasoningTokens=1024",
  },
  {
    name: "Anthropic Messages usage with a cache read and a 1-hour cache write",
    model: "anthropic/claude-sonnet-4-5",
    usage: {
      input_tokens: 2095,
      cache_creation_input_tokens: 248,
      cache_read_input_tokens: 1800,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 248 },
      output_tokens: 503,
      service_tier: "standard",
    },
    tokens: "inputTokens=2095&cachedInputTokens=1800&cacheWriteTokens=248&cacheTtl=1h&outputTokens=503",
  },
  {
    name: "Gemini usageMetadata, 350K-token prompt with 100K cached (the README's Gemini workload)",
    model: "google/gemini-2.5-pro",
    usage: {
      usageMetadata: {
        promptTokenCount: 350000,
        cachedContentTokenCount: 100000,
        candidatesTokenCount: 4000,
        thoughtsTokenCount: 1500,
        totalTokenCount: 355500,
        promptTokensDetails: [{ modality: "TEXT", tokenCount: 350000 }],
      },
      modelVersion: "gemini-2.5-pro",
    },
    tokens: "inputTokens=250000&cachedInputTokens=100000&outputTokens=4000&reasoningTokens=1500",
  },
  {
    name: "an OpenTelemetry GenAI span's attributes (the README's 200K Sonnet workload)",
    model: "anthropic/claude-sonnet-4-5",
    usage: {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "anthropic",
      "gen_ai.request.model": "claude-sonnet-4-5",
      "gen_ai.usage.input_tokens": 200000,
      "gen_ai.usage.cache_read.input_tokens": 50000,
      "gen_ai.usage.cache_creation.input_tokens": 0,
      "gen_ai.usage.output_tokens": 2000,
    },
    tokens: "inputTokens=150000&cachedInputTokens=50000&outputTokens=2000",
  },
];

describe("/cost prices a usage object exactly as its token parameters", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    await expectSame(c.model, c.usage, c.tokens);
  });

  it("the OTel span as an OTLP JSON attribute list (integers as strings) prices the same", async () => {
    const attributes = CASES[4]!.usage as unknown as Record<string, string | number>;
    const span = {
      name: "chat claude-sonnet-4-5",
      attributes: Object.entries(attributes).map(([key, v]) => ({
        key,
        value: typeof v === "number" ? { intValue: String(v) } : { stringValue: v },
      })),
    };
    const body = await expectSame("anthropic/claude-sonnet-4-5", span, CASES[4]!.tokens);
    // The README's worked figure for this workload, checked by hand against Anthropic's list price.
    expect(body.data[0]!.totals).toEqual([{ denomination: "currency", currency: "USD", amount: 0.495 }]);
  });

  it("usageFormat names the format when the field names would not; requests and tier apply as with tokens", async () => {
    const usage = { input_tokens: 1000000, output_tokens: 200000 };
    await expectSame(
      "anthropic/claude-sonnet-4-5",
      usage,
      "inputTokens=1000000&outputTokens=200000",
      "&requests=100&tier=batch",
      "&usageFormat=anthropic",
    );
    // One request of a million tokens is longer than GPT-4o's context window (a 400, T200): a tenth.
    await expectSame(
      "openai/gpt-4o",
      { input_tokens: 100000, output_tokens: 20000 },
      "inputTokens=100000&outputTokens=20000",
      "",
      "&usageFormat=openai-responses",
    );
  });

  // T480 (issue 49 §1): the record's own service tier prices it when the request names none; a
  // request naming another tier is a 400 naming both (it used to ask for tier= in every case).
  it("a whole Chat Completions response is read through its usage and priced in the tier that served it", async () => {
    const response = {
      object: "chat.completion",
      model: "gpt-4o-2024-08-06",
      service_tier: "priority",
      usage: { prompt_tokens: 10000, completion_tokens: 800, prompt_tokens_details: { cached_tokens: 6000 } },
    };
    const tokens = "inputTokens=4000&cachedInputTokens=6000&outputTokens=800";
    const asServed = await cost(usageQuery("openai/gpt-4o", response));
    const named = await expectSame("openai/gpt-4o", response, tokens, "&tier=priority");
    expect(asServed.data).toEqual(named.data);
    expect(asServed.meta.usage.tier).toBe("priority");
    expect(await problem(`${usageQuery("openai/gpt-4o", response)}&tier=standard`)).toBe(
      "tier=standard was asked, but the usage record was served in the priority tier (its service_tier or speed): " +
        "leave tier out to price the record as served, or give a record served in standard",
    );
  });

  // Invented from the Responses API reference's object (service_tier at the response's top level),
  // with a usage holding only the two totals: the response's `object` says which API it is (T480).
  it("a Responses response served on flex is priced at flex even when its usage has no details", async () => {
    const response = {
      object: "response",
      model: "gpt-5.4",
      service_tier: "flex",
      usage: { input_tokens: 10000, output_tokens: 1000, total_tokens: 11000 },
    };
    const body = await expectSame("openai/gpt-5.4", response, "inputTokens=10000&outputTokens=1000", "&tier=flex");
    expect(body.data[0]!.lines.map((l) => l.label)).toEqual(["Input (flex)", "Output (flex)"]);
    expect((await cost(usageQuery("openai/gpt-5.4", response))).data).toEqual(body.data);
  });
});

describe("usage that cannot be priced exactly is a 400 naming why", () => {
  it.each([
    [
      usageQuery("openai/gpt-4o", { prompt_tokens: 10 }, "&inputTokens=5"),
      "give either usage or token counts, not both (inputTokens given beside usage)",
    ],
    ["model=openai/gpt-4o&usage=%7Bprompt_tokens", "usage must be JSON: a usage object or a span's attributes"],
    ["model=openai/gpt-4o&inputTokens=5&usageFormat=gemini", "usageFormat needs usage (a usage record as JSON)"],
    [
      usageQuery("openai/gpt-4o", { prompt_tokens: 10, prompt_tokens_details: { cached_tokens: 20 } }),
      "usage: prompt_tokens_details (cached + cache write + audio) (20) exceeds prompt_tokens (10), which includes it: the record does not add up",
    ],
    [
      usageQuery("openai/gpt-4o", { tokens: 10 }),
      "usage: no usage fields found: give an OpenAI (prompt_tokens or input_tokens), Anthropic (input_tokens), Gemini (promptTokenCount), Bedrock Converse (inputTokens) usage object, or OpenTelemetry gen_ai.usage.* attributes",
    ],
    [usageQuery("openai/gpt-4o", [1, 2]), "usage: the usage must be a JSON object"],
    [
      usageQuery("openai/gpt-4o", { prompt_tokens: -3 }),
      "usage: usage.prompt_tokens must be an integer from 0 to 10^12, got -3",
    ],
    [
      `${usageQuery("openai/gpt-4o", { prompt_tokens: 3 })}&usageFormat=cohere`,
      "usageFormat must be one of: openai-chat, openai-responses, anthropic, gemini, bedrock-converse, otel",
    ],
  ])("%s", async (query, detail) => {
    expect(await problem(query)).toBe(detail);
  });

  it("a record's region must be the region asked for (T303)", async () => {
    const usage = { input_tokens: 10, output_tokens: 5, inference_geo: "us" };
    expect(await problem(`${usageQuery("anthropic/claude-opus-4-6", usage)}&region=eu`)).toBe(
      "region=eu was asked, but the usage record was processed in region us (its inference_geo): leave region " +
        "out to price the record where it was served",
    );
    expect(await problem("model=openai/gpt-4o&inputTokens=5&region=us%20east")).toContain(
      "region must be a region slug",
    );
  });
});

// Issue 37 (T370–T372): Anthropic's fast mode. The record's `usage.speed` (BetaUsage in
// anthropic-sdk-typescript src/resources/beta/messages/messages.ts: "standard" | "fast" | null) says
// which speed served it; fast mode is the priority tier, priced at Anthropic's own Fast mode prices.
describe("Anthropic fast mode", () => {
  const fast = { input_tokens: 1000, cache_read_input_tokens: 4000, output_tokens: 300, speed: "fast" };

  it("a speed fast record is priced as the token parameters in tier priority, with or without tier named", async () => {
    expect(await problem(`${usageQuery("anthropic/claude-opus-4-6", fast)}&tier=standard`)).toContain(
      "tier=standard was asked, but the usage record was served in the priority tier",
    );
    expect((await cost(usageQuery("anthropic/claude-opus-4-6", fast))).data[0]!.totals).toEqual([
      { denomination: "currency", currency: "USD", amount: 0.087 },
    ]);
    const body = await expectSame(
      "anthropic/claude-opus-4-6",
      fast,
      "inputTokens=1000&cachedInputTokens=4000&outputTokens=300",
      "&tier=priority",
    );
    // Opus 4.6 fast: 30 / 150, cache read 3 (1,000 × 30 + 4,000 × 3 + 300 × 150, / 1M = 0.03 + 0.012 + 0.045).
    expect(body.data[0]!.totals).toEqual([{ denomination: "currency", currency: "USD", amount: 0.087 }]);
    expect(body.data[0]!.lines[0]).toMatchObject({ label: "Input (priority)", amount: 30, confidence: "verified" });
  });

  it("batch with fast mode is a 400 naming the page's rule", async () => {
    expect(
      await problem(`${usageQuery("anthropic/claude-opus-4-6", { ...fast, service_tier: "batch" })}&tier=batch`),
    ).toBe(
      'usage: usage.speed "fast" with service_tier "batch" cannot be priced: fast mode is not available with the Batch API (Anthropic\'s pricing page, "Fast mode pricing")',
    );
  });
});

// Issue 37 §1 (T300, T301): what used to be refused is priced now, or named beside a partial total.
describe("a usage is never refused for one unpriced part", () => {
  it("an Anthropic request writing both cache lifetimes prices each at its own price", async () => {
    const mixed = ANTHROPIC_BOTH_CACHE_LIFETIMES;
    await expectSame(
      "anthropic/claude-sonnet-4-5",
      mixed,
      "inputTokens=50&cachedInputTokens=1800&cacheWriteTokens=148&cacheWrite1hTokens=100&outputTokens=503",
    );
  });

  it("audio tokens are named in unpriced; the text tokens still have a partial total", async () => {
    const body = await cost(
      usageQuery("openai/gpt-4o", {
        prompt_tokens: 1000,
        completion_tokens: 100,
        prompt_tokens_details: { audio_tokens: 400 },
      }),
    );
    const e = body.data[0]!;
    expect(e).toMatchObject({ complete: false, totals: null });
    // gpt-4o: 2.5 / 10 USD per 1M: 600 × 2.5 + 100 × 10 = 0.0025 USD.
    expect(e.partialTotals).toEqual([{ denomination: "currency", currency: "USD", amount: 0.0025 }]);
    expect(e.unpriced).toEqual([
      {
        part: "prompt_tokens_details.audio_tokens",
        quantity: 400,
        reason: "audio tokens have their own price; /cost prices text tokens",
      },
    ]);
    expect(body.meta.usage.unpriced).toEqual(e.unpriced);
  });
});

describe("MCP estimate_cost takes the same usage", () => {
  it("its answer equals /cost's for the same usage object", async () => {
    const tool = TOOLS.find((t) => t.name === "estimate_cost")!;
    for (const c of CASES) {
      const viaTool = (await tool.run(view, { model: c.model, usage: JSON.stringify(c.usage) }))
        .body as unknown as CostBody;
      const viaHttp = await cost(usageQuery(c.model, c.usage));
      expect({ ...viaTool.meta, generatedAt: "" }).toEqual({ ...viaHttp.meta, generatedAt: "" });
      expect(viaTool.data).toEqual(viaHttp.data);
      // T485 (issue 49 §4): the usage as a JSON object, as an MCP client sends structured arguments.
      const asObject = (await tool.run(view, { model: c.model, usage: c.usage })).body as unknown as CostBody;
      expect(asObject.data).toEqual(viaHttp.data);
    }
  });
});
