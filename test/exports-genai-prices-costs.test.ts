import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import {
  calcPrice,
  extractUsage,
  findProvider,
  type Provider,
  type UsageExtractor,
  updatePrices,
  waitForUpdate,
} from "@pydantic/genai-prices";
import { describe, expect } from "vitest";
import type { ApiCostEstimate } from "../src/catalogue/schemas.js";
import { COST_EXAMPLES, type CostExample, docTable } from "./cost-examples.js";
import { bindShared } from "./fixtures.js";
import type { TestServer } from "./harness.js";

// Issue 49 §3 and "Must show", T518–T521: every usage record of docs/cost-examples.md goes through
// @pydantic/genai-prices as its users run it — the package's own loader takes Tariff's export, the
// provider's own extractor (`extractUsage`) reads the record as the maker's API returns it, and
// `calcPrice` prices it — and the total equals /cost's and the hand-worked one to the cent (and
// within 1e-9 USD), or both sides refuse. A row genai-prices cannot state is listed with why.

let server: TestServer;
let data: Provider[];

const it = bindShared("exportServer", async (_view, boundServer) => {
  server = boundServer;
  const res = await server.get("/api/v1/exports/genai-prices/data.json");
  expect(res.status).toBe(200);
  data = (await res.json()) as Provider[];
  updatePrices(({ setProviderData }) => setProviderData(data));
  await waitForUpdate();
});

/** How genai-prices prices one row: its provider, the extractor's flavor and the model (`<id>:<tier>` for a tier, T215). */
interface Priced {
  readonly provider: string;
  readonly flavor: string;
  readonly model: string;
}

/** The rows genai-prices prices with Tariff's export, by the table's id. */
const PRICED: Readonly<Record<string, Priced>> = {
  O1: { provider: "openai", flavor: "responses", model: "gpt-5.4:priority" },
  O3: { provider: "openai", flavor: "chat", model: "gpt-5.4" },
  O4: { provider: "openai", flavor: "chat", model: "gpt-5.4" },
  // OpenAI's cache writes: the package reads prompt_tokens_details.cache_write_tokens, the export
  // writes them at the input price (T483, T520).
  O5: { provider: "openai", flavor: "chat", model: "gpt-5.4" },
  O6: { provider: "openai", flavor: "chat", model: "gpt-5.4:flex" },
  O8: { provider: "openai", flavor: "chat", model: "gpt-5.5" },
  // Both cache lifetimes and web searches: the package's Anthropic extractor and the export's search price (T518, T519).
  A1: { provider: "anthropic", flavor: "default", model: "claude-sonnet-4-5" },
  A3: { provider: "anthropic", flavor: "default", model: "claude-sonnet-4-5" },
  A4: { provider: "anthropic", flavor: "default", model: "claude-sonnet-4-5" },
  A5: { provider: "anthropic", flavor: "default", model: "claude-sonnet-4-5:batch" },
  // A 1-hour write above 200K: 2× the long-context input price, bracket by bracket (T346, T520).
  A6: { provider: "anthropic", flavor: "default", model: "claude-sonnet-4-5" },
  A7: { provider: "anthropic", flavor: "default", model: "claude-opus-4-6:priority" },
  A8: { provider: "anthropic", flavor: "default", model: "claude-opus-4-6:priority" },
  A11: { provider: "anthropic", flavor: "default", model: "claude-haiku-4-5:batch" },
  G1: { provider: "google", flavor: "default", model: "gemini-2.5-pro" },
  G2: { provider: "google", flavor: "default", model: "gemini-2.5-pro:priority" },
  G4: { provider: "google", flavor: "default", model: "gemini-2.5-flash:batch" },
  G5: { provider: "google", flavor: "default", model: "gemini-3-pro-preview:batch" },
  G6: { provider: "google", flavor: "default", model: "gemini-3-pro-preview" },
  R1: { provider: "openrouter", flavor: "chat", model: "anthropic/claude-sonnet-4.5" },
  R2: { provider: "openrouter", flavor: "chat", model: "openai/gpt-5.4" },
  R3: { provider: "openrouter", flavor: "chat", model: "google/gemini-2.5-pro" },
};

const REGION = {
  cell: "no region",
  why: "a region: genai-prices' prices have no region, and /cost bills the maker's regional rule (T303)",
};

/** The rows genai-prices cannot state: the table's genai-prices cell, and why. */
const NOT_PRICED: Readonly<Record<string, { cell: string; why: string }>> = {
  O2: REGION,
  O7: {
    cell: "no request tier",
    why: "a request naming a tier the record contradicts (T480): genai-prices takes no request beside the usage",
  },
  A2: REGION,
  A10: REGION,
  G3: {
    cell: "no unpriced part",
    why: "an unpriced part beside a partial total (grounding, T300): genai-prices has no way to name it",
  },
  B1: REGION,
  B2: {
    cell: "no Bedrock 1h writes",
    why: "Bedrock's 1-hour cache writes: the package's aws extractor reads cacheWriteInputTokens as one count, not cacheDetails' lifetimes",
  },
  B3: REGION,
  B4: REGION,
  B5: REGION,
  V1: REGION,
  V2: {
    cell: "no Vertex seller",
    why: "Vertex AI as a seller: the package's google provider is the Gemini API's and Vertex's at once, and the export lists the Gemini API's prices there",
  },
  V3: REGION,
};

/** The record as the provider's API returns it: a bare `usage` object wrapped in its response. */
function response(ex: CostExample): unknown {
  const u = ex.usage as Record<string, unknown>;
  return "usage" in u || "usageMetadata" in u ? u : { usage: u };
}

/** The USD total genai-prices gives a row, through the export's provider and its own extractor. */
function genaiTotal(ex: CostExample, how: Priced, extractors?: UsageExtractor[]): number | null {
  const provider = findProvider({ providerId: how.provider });
  expect(provider?.id, ex.id).toBe(how.provider);
  const usage = extractUsage(extractors ? { ...provider!, extractors } : provider!, response(ex), how.flavor).usage;
  return calcPrice(usage, how.model, { providerId: how.provider })?.total_price ?? null;
}

async function costUsd(ex: CostExample): Promise<number> {
  const url = `/api/v1/cost?${new URLSearchParams({ model: ex.model, usage: JSON.stringify(ex.usage), ...ex.query })}`;
  const res = await server.get(url);
  expect(res.status, ex.id).toBe(200);
  const e = ((await res.json()) as { data: ApiCostEstimate[] }).data[0]!;
  expect(e.complete, ex.id).toBe(true);
  return e.totals!.find((t) => t.currency === "USD" && t.denomination === "currency")!.amount;
}

describe("genai-prices, loaded with Tariff's export, prices docs/cost-examples.md as /cost does", () => {
  it("classifies every row: priced by genai-prices, or not with the reason", () => {
    const ids = COST_EXAMPLES.map((e) => e.id);
    // A9 is refused on both sides: its own test below.
    expect([...Object.keys(PRICED), ...Object.keys(NOT_PRICED), "A9"].sort()).toEqual([...ids].sort());
    expect(Object.keys(PRICED).filter((id) => id in NOT_PRICED)).toEqual([]);
    expect(Object.keys(PRICED)).toHaveLength(22);
    // The table's genai-prices column says the same: the amount where priced (equal to /cost's, checked
    // below), "refused" for A9, the short reason otherwise.
    const table = docTable();
    for (const ex of COST_EXAMPLES) {
      const cell = ex.id in PRICED ? ex.handTotal : ex.id === "A9" ? "refused" : NOT_PRICED[ex.id]!.cell;
      expect(table.get(ex.id)?.genai, ex.id).toBe(cell);
    }
  });

  it.each(Object.entries(PRICED))("%s", async (id, how) => {
    const ex = COST_EXAMPLES.find((e) => e.id === id)!;
    const usd = await costUsd(ex);
    expect(String(usd)).toBe(ex.handTotal);
    const total = genaiTotal(ex, how);
    expect(total, `${how.provider}/${how.model}`).not.toBeNull();
    expect(Math.round(total! * 100)).toBe(Math.round(usd * 100));
    expect(Math.abs(total! - usd)).toBeLessThan(1e-9);
  });

  it("A9: fast mode on Claude Opus 4.7 is refused on both sides (T481, T521)", async () => {
    const ex = COST_EXAMPLES.find((e) => e.id === "A9")!;
    const res = await server.get(
      `/api/v1/cost?${new URLSearchParams({ model: ex.model, usage: JSON.stringify(ex.usage) })}`,
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail.startsWith(ex.refusal!)).toBe(true);
    // The export has no Opus 4.7 fast model: genai-prices finds no price, where models.dev's 6× stood alone.
    expect(genaiTotal(ex, { provider: "anthropic", flavor: "default", model: "claude-opus-4-7:priority" })).toBeNull();
    const anthropic = data.find((p) => p.id === "anthropic")!;
    expect(anthropic.models.map((m) => m.id)).toContain("claude-opus-4-6:priority");
    expect(anthropic.models.map((m) => m.id)).not.toContain("claude-opus-4-7:priority");
  });
});

/** The recorded genai-prices payload's own Anthropic extractors (the v1 feed of 2026-06-01): what the export carried before T518. */
function recordedAnthropicExtractors(): UsageExtractor[] {
  const file = gunzipSync(readFileSync("data/upstream/genai-prices/2026-06-01/data.json.gz")).toString("utf8");
  return (JSON.parse(file) as Provider[]).find((p) => p.id === "anthropic")!.extractors!;
}

describe("issue 49's Sonnet 4.5 request: both cache lifetimes and web searches, before → after", () => {
  it("A1 and the same record with 3 searches equal /cost; the recorded extractor dropped the 1-hour writes and the searches", async () => {
    const a1 = COST_EXAMPLES.find((e) => e.id === "A1")!;
    const usage = a1.usage as Record<string, unknown>;
    const three: CostExample = {
      ...a1,
      id: "A1 with 3 searches",
      usage: { ...usage, server_tool_use: { web_search_requests: 3 } },
    };
    const how = PRICED.A1!;
    // By hand: A1's 0.062 and one more search at 10 per 1K.
    expect(await costUsd(three)).toBe(0.072);
    expect(genaiTotal(three, how)).toBeCloseTo(0.072, 12);
    // The recorded extractor, on the same file: every cache write at the 5-minute price, no search.
    // 2,000 × 3 + 10,000 × 0.3 + 5,000 × 3.75 + 800 × 15, / 1M = 0.03975 (T518).
    const old = recordedAnthropicExtractors();
    expect(genaiTotal(a1, how, old)).toBeCloseTo(0.03975, 12);
    expect(genaiTotal(three, how, old)).toBeCloseTo(0.03975, 12);
    // The export's search price, which genai-prices' own data also states for Sonnet 4.5.
    const sonnet = data.find((p) => p.id === "anthropic")!.models.find((m) => m.id === "claude-sonnet-4-5")!;
    expect((sonnet.prices as Record<string, unknown>).web_searches_kcount).toBe(10);
  });
});
