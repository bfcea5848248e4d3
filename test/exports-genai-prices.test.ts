import { calcPrice, type Provider, updatePrices, waitForUpdate } from "@pydantic/genai-prices";
import { describe, expect } from "vitest";
import type { ApiCostEstimate } from "../src/catalogue/schemas.js";
import type { CatalogueView } from "../src/catalogue/view.js";
import { GENAI_PRICES_PACKAGE_PROVIDERS } from "../src/exports/genai-prices-package.js";
import { validator } from "./exports-support.js";
import { bindShared } from "./fixtures.js";
import type { TestServer } from "./harness.js";

// Issue 29 §1–2, T215: the `genai-prices` export loaded into genai-prices' own JS package
// (@pydantic/genai-prices, its calculator unchanged) prices real workloads — the README's among them
// — to the same cent as /cost; the expected amounts are /cost's answers in this test, never written down.
const PATH = "/api/v1/exports/genai-prices/data.json";

let server: TestServer;
let view: CatalogueView;
let data: Provider[];

// The worker's shared replay and export server (test/fixtures.ts, T274), bound before the file's first test, the exported file read.
const it = bindShared("exportServer", async (boundView, boundServer) => {
  view = boundView;
  server = boundServer;
  const res = await server.get(PATH);
  expect(res.status).toBe(200);
  data = (await res.json()) as Provider[];
  // What pydantic-ai / Logfire do with UpdatePrices(url=…): the package's own loader takes the file.
  updatePrices(({ setProviderData }) => setProviderData(data));
  await waitForUpdate();
});

describe("genai-prices' v2 data.json", () => {
  it("validates against genai-prices' v2 JSON Schema", () => {
    const validate = validator("genai-prices-v2.data.schema.json");
    const ok = validate(data);
    expect(validate.errors?.slice(0, 5) ?? []).toEqual([]);
    expect(ok).toBe(true);
    expect(data.length).toBeGreaterThan(30);
  });

  it("keeps genai-prices' providers (API patterns, the package's own usage extractors) and links every model back to Tariff", () => {
    const anthropic = data.find((p) => p.id === "anthropic")!;
    expect(anthropic.api_pattern).toBe("https://api\\.anthropic\\.com");
    // T518: the package's extractors, not the recorded v1 payload's older ones, wherever the package has the provider.
    const known = data.filter((p) => p.id in GENAI_PRICES_PACKAGE_PROVIDERS);
    expect(known.length).toBeGreaterThan(25);
    for (const provider of known)
      expect(provider.extractors, provider.id).toEqual(GENAI_PRICES_PACKAGE_PROVIDERS[provider.id]!.extractors);
    expect(anthropic.extractors?.[0]?.mappings.map((m) => m.dest)).toContain("cache_write_1h_tokens");
    for (const provider of data)
      for (const model of provider.models) {
        expect(model.description, `${provider.id}/${model.id}`).toContain(`${server.base}/m/`);
        expect(model.description).toContain(view.version);
      }
  });
});

/** One workload: the /cost query, and the same usage as genai-prices takes it (input_tokens counts every input token). */
interface Workload {
  readonly name: string;
  readonly query: string;
  readonly channel?: string;
  readonly provider: string;
  readonly model: string;
  readonly usage: Record<string, number>;
  /** genai-prices prices one call: the usage is of one request, sent `calls` times. */
  readonly calls?: number;
  readonly at?: string;
}

const WORKLOADS: readonly Workload[] = [
  {
    name: "README: Claude Sonnet 4.5, prompt exactly 200K",
    query: "model=anthropic/claude-sonnet-4-5&inputTokens=150000&cachedInputTokens=50000&outputTokens=2000",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    usage: { input_tokens: 200000, cache_read_tokens: 50000, output_tokens: 2000 },
  },
  {
    name: "README: Claude Sonnet 4.5, one token above 200K",
    query: "model=anthropic/claude-sonnet-4-5&inputTokens=150000&cachedInputTokens=50001&outputTokens=2000",
    provider: "anthropic",
    model: "claude-sonnet-4-5-20250929",
    usage: { input_tokens: 200001, cache_read_tokens: 50001, output_tokens: 2000 },
  },
  {
    name: "README: GPT-4o with cache hits",
    query: "model=openai/gpt-4o&inputTokens=4000&cachedInputTokens=6000&outputTokens=800",
    provider: "openai",
    model: "gpt-4o",
    usage: { input_tokens: 10000, cache_read_tokens: 6000, output_tokens: 800 },
  },
  {
    name: "README: Gemini 2.5 Pro, 350K-token prompt",
    query: "model=google/gemini-2.5-pro&inputTokens=250000&cachedInputTokens=100000&outputTokens=4000",
    provider: "google",
    model: "gemini-2.5-pro",
    usage: { input_tokens: 350000, cache_read_tokens: 100000, output_tokens: 4000 },
  },
  {
    name: "README: batch, 100 Claude Sonnet 4.5 requests",
    query: "model=anthropic/claude-sonnet-4-5&inputTokens=1000000&outputTokens=200000&requests=100&tier=batch",
    provider: "anthropic",
    model: "claude-sonnet-4-5:batch",
    usage: { input_tokens: 10000, output_tokens: 2000 },
    calls: 100,
  },
  {
    name: "README edge: GPT-5.4 at 272,001 prompt tokens is long context",
    query: "model=openai/gpt-5.4&inputTokens=272001&outputTokens=1000",
    provider: "openai",
    model: "gpt-5.4",
    usage: { input_tokens: 272001, output_tokens: 1000 },
  },
  {
    name: "README edge: GPT-5.4 at 272,000 prompt tokens is standard",
    query: "model=openai/gpt-5.4&inputTokens=272000&outputTokens=1000",
    provider: "openai",
    model: "gpt-5.4",
    usage: { input_tokens: 272000, output_tokens: 1000 },
  },
  {
    name: "DeepSeek chat with cache hits, outside the off-peak window",
    query: "model=deepseek/deepseek-chat&inputTokens=100000&cachedInputTokens=50000&outputTokens=20000",
    provider: "deepseek",
    model: "deepseek-chat",
    usage: { input_tokens: 150000, cache_read_tokens: 50000, output_tokens: 20000 },
    at: "2026-06-01T12:00:00Z",
  },
  {
    name: "Claude Haiku 4.5 writing the 5-minute cache",
    query: "model=anthropic/claude-haiku-4-5&inputTokens=20000&cacheWriteTokens=30000&outputTokens=1000",
    provider: "anthropic",
    model: "claude-haiku-4-5",
    usage: { input_tokens: 50000, cache_write_tokens: 30000, output_tokens: 1000 },
  },
  {
    name: "Claude Opus 4.1 writing the 1-hour cache",
    query: "model=anthropic/claude-opus-4-1&inputTokens=10000&cacheWriteTokens=20000&cacheTtl=1h&outputTokens=500",
    provider: "anthropic",
    model: "claude-opus-4-1",
    usage: { input_tokens: 30000, cache_write_tokens: 20000, cache_write_1h_tokens: 20000, output_tokens: 500 },
  },
  {
    name: "Claude Sonnet 4.5 on OpenRouter",
    query:
      "model=anthropic/claude-sonnet-4-5&channel=reseller_1&inputTokens=8000&cachedInputTokens=2000&outputTokens=700",
    channel: "reseller_1",
    provider: "openrouter",
    model: "anthropic/claude-sonnet-4.5",
    usage: { input_tokens: 10000, cache_read_tokens: 2000, output_tokens: 700 },
  },
];

async function costOf(query: string, channel = "direct"): Promise<ApiCostEstimate> {
  const res = await server.get(`/api/v1/cost?${query}`);
  expect(res.status, query).toBe(200);
  // The USD offer: a maker's CNY list (DeepSeek's, T512) is an estimate of its own (T510), never in the export.
  const estimates = ((await res.json()) as { data: ApiCostEstimate[] }).data.filter(
    (e) => e.channel === channel && e.lines.every((l) => l.denomination !== "currency" || l.currency === "USD"),
  );
  expect(estimates, query).toHaveLength(1);
  return estimates[0]!;
}

describe("genai-prices' own calculator, loaded with the export, prices real workloads to the cent of /cost", () => {
  it.each(WORKLOADS.map((w) => [w.name, w] as const))("%s", async (_name, w) => {
    const estimate = await costOf(w.query, w.channel);
    const usd = estimate.totals?.find((t) => t.currency === "USD" && t.denomination === "currency")?.amount;
    expect(usd, w.query).toBeGreaterThan(0);
    const priced = calcPrice(w.usage, w.model, {
      providerId: w.provider,
      ...(w.at ? { timestamp: new Date(w.at) } : {}),
    });
    expect(priced, `${w.provider}/${w.model}`).not.toBeNull();
    const total = priced!.total_price * (w.calls ?? 1);
    expect(Math.round(total * 100)).toBe(Math.round(usd! * 100));
    expect(Math.abs(total - usd!)).toBeLessThan(1e-9);
  });

  it("the README's coding-plan workload is credits, not money: genai-prices finds no $0 price for it", async () => {
    const estimate = await costOf(
      "model=moonshotai/kimi-k2-thinking&channel=coding_plan&inputTokens=100000&outputTokens=20000",
      "coding_plan",
    );
    expect(estimate.totals?.every((t) => t.denomination === "credit")).toBe(true);
    expect(
      calcPrice({ input_tokens: 100000, output_tokens: 20000 }, "kimi-k2-thinking", { providerId: "kimi-for-coding" }),
    ).toBeNull();
  });

  it("the off-peak window is exported only whole: with its output held back (T331), DeepSeek is priced at the standard price all day", () => {
    // genai-prices' off-peak output 0.55 stands alone above the standard 0.28 since DeepSeek's cut and
    // is not published (issue 36 §4, T331); a window without an output price is no genai-prices
    // conditional price, so the standard price applies inside the window too.
    const deepseek = data.find((p) => p.id === "deepseek")!.models.find((m) => m.id === "deepseek-chat")!;
    expect(Array.isArray(deepseek.prices)).toBe(false);
    const base = deepseek.prices as { input_mtok: number; output_mtok: number };
    const usage = { input_tokens: 1_000_000, output_tokens: 1_000_000 };
    const at = (time: string) =>
      calcPrice(usage, "deepseek-chat", { providerId: "deepseek", timestamp: new Date(time) })!.total_price;
    expect(at("2026-06-01T12:00:00Z")).toBeCloseTo(base.input_mtok + base.output_mtok, 9);
    expect(at("2026-06-01T17:00:00Z")).toBeCloseTo(base.input_mtok + base.output_mtok, 9);
  });
});
