import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiMeta, ApiModel, ApiProvider, ApiRate, ApiSource, ApiSuggestion } from "../src/catalogue/schemas.js";
import { CONFIDENCE_LEVELS } from "../src/domain/confidence.js";
import { isMaker, PLAN_SELLERS } from "../src/domain/sellers.js";
import { SOURCES } from "../src/sources/registry.js";
import { loadReplay, startServer, type TestServer } from "./harness.js";
import { type CursorPage, walkPages } from "./paging.js";

// Every endpoint of issue 2 over real HTTP, against the catalogue replayed from the bundled snapshots.
let server: TestServer;
let version: string;

beforeAll(async () => {
  const { view, store } = await loadReplay();
  await store.close();
  version = view.version;
  server = await startServer(view);
});
afterAll(async () => {
  await server.close();
});

interface Body<T> {
  data: T;
  meta: Record<string, unknown> & { datasetVersion: string; generatedAt: string };
}

async function getJson<T>(path: string, status = 200): Promise<Body<T>> {
  const res = await server.get(path);
  expect(res.status, `${path} → ${res.status}`).toBe(status);
  expect(res.headers.get("x-dataset-version")).toBe(version);
  return (await res.json()) as Body<T>;
}

async function problemOf(
  path: string,
  status: number,
): Promise<{ type: string; title: string; status: number; detail: string }> {
  const res = await server.get(path);
  expect(res.status, path).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  const body = (await res.json()) as { type: string; title: string; status: number; detail: string };
  expect(body.type).toBe("about:blank");
  expect(body.status).toBe(status);
  return body;
}

describe("GET /meta", () => {
  it("reports the dataset of the last replayed snapshot with the issue's minimum sizes", async () => {
    const body = await getJson<ApiMeta>("/api/v1/meta");
    expect(body.meta.datasetVersion).toBe("2026-06-01T00:00:00.000Z");
    expect(body.data.datasetVersion).toBe(body.meta.datasetVersion);
    expect(body.data.providers).toBeGreaterThanOrEqual(30);
    expect(body.data.models).toBeGreaterThanOrEqual(1000);
    expect(body.data.prices).toBeGreaterThanOrEqual(5000);
    expect(body.data.lastRun).toMatchObject({ status: expect.stringMatching(/^(succeeded|partial)$/) });
    // The makers' own lists, in registry order (issue 48 §4: derived from the registry, T430).
    expect(body.data.rates).toEqual({ contractVersion: 2, officialSources: OFFICIAL });
    expect(OFFICIAL).toEqual(expect.arrayContaining(["official-anthropic", "official-openai"]));
  });

  it("lists the D2 channels with the named resellers' sellers", async () => {
    const { data } = await getJson<ApiMeta>("/api/v1/meta");
    // Spelled out here, not imported: the contract's order of D2 channels.
    const d2 = "direct reseller_1 reseller_2 reseller_3 reseller_4 reseller_5 coding_plan token_plan other";
    expect(data.channels.map((c) => c.id)).toEqual(d2.split(" "));
    const byId = new Map(data.channels.map((c) => [c.id, c]));
    expect(byId.get("reseller_1")?.sellers).toEqual(["openrouter"]);
    expect(byId.get("reseller_2")?.sellers).toEqual(["amazon-bedrock"]);
    expect(byId.get("coding_plan")?.sellers).toContain("zai-coding-plan");
    expect(byId.get("token_plan")?.sellers).toContain("xiaomi-token-plan-ams");
  });
});

describe("GET /providers", () => {
  it("holds makers only: no reseller, gateway or plan (D1)", async () => {
    const { data } = await getJson<ApiProvider[]>("/api/v1/providers");
    const slugs = data.map((p) => p.slug);
    for (const reseller of [
      "openrouter",
      "amazon-bedrock",
      "azure",
      "google-vertex",
      "togetherai",
      "groq",
      "vercel",
      "poe",
      // (fireworks-ai: a host, and since issue 25 the maker of its own FireFunction, FireLLaVA, ASR — T183)
      "deepinfra",
    ])
      expect(slugs).not.toContain(reseller);
    // poolside is a maker whose own listing is subscription-billed; every other plan seller is a reseller.
    for (const plan of Object.keys(PLAN_SELLERS).filter((s) => !isMaker(s))) expect(slugs).not.toContain(plan);
    expect(slugs).toEqual(
      expect.arrayContaining(["anthropic", "openai", "google", "mistral", "deepseek", "xai", "meta", "alibaba"]),
    );
  });

  it("marks official (D29) the makers with direct prices", async () => {
    const { data } = await getJson<ApiProvider[]>("/api/v1/providers");
    expect(data.find((p) => p.slug === "anthropic")?.official).toBe(true);
    // Ai2 sells nothing itself (Meta now sells on its own Llama API, issue 12 §6).
    expect(data.find((p) => p.slug === "allen-ai")?.official).toBe(false);
  });
});

describe("GET /models/{provider}/{model}", () => {
  it("Claude Opus 4 has direct input 15 and output 75 USD per 1M tokens", async () => {
    const { data } = await getJson<ApiModel>("/api/v1/models/anthropic/claude-opus-4-0");
    expect(data.id).toBe("anthropic/claude-opus-4-0");
    const input = data.prices.find((p) => p.label === "Input");
    const output = data.prices.find((p) => p.label === "Output");
    expect(input).toMatchObject({
      amount: 15,
      displayUnit: "USD per 1M tokens",
      currency: "USD",
      denomination: "currency",
    });
    expect(output?.amount).toBe(75);
  });

  it("channel=reseller_2 shows Amazon Bedrock's prices", async () => {
    const { data, meta } = await getJson<ApiModel>("/api/v1/models/anthropic/claude-opus-4-0?channel=reseller_2");
    expect(meta.channel).toBe("reseller_2");
    expect(data.prices.find((p) => p.label === "Input")?.amount).toBe(15);
    expect(data.prices.find((p) => p.label === "Output")?.amount).toBe(75);
    expect(data.prices.every((p) => p.sources.length > 0)).toBe(true);
  });

  it("a channel that does not sell the model gives 200 with prices: [] (Bedrock does not sell GPT-4o)", async () => {
    const { data } = await getJson<ApiModel>("/api/v1/models/openai/gpt-4o?channel=reseller_2");
    expect(data.id).toBe("openai/gpt-4o");
    expect(data.prices).toEqual([]);
  });

  it("an unknown model is a 404 problem whose detail is the id (D14)", async () => {
    const body = await problemOf("/api/v1/models/anthropic/claude-opus-99", 404);
    expect(body.detail).toBe("anthropic/claude-opus-99");
    expect(body.title).toBe("Not Found");
  });

  it("an unknown channel is a 400, checked before the lookup (D14)", async () => {
    const body = await problemOf("/api/v1/models/nobody/nothing?channel=bedrock", 400);
    expect(body.detail).toMatch(/channel/);
    expect(body.detail).toMatch(/reseller_2/);
  });

  it("a $0 coding-plan listing is published as plan credit, never as a free money price", async () => {
    const { data } = await getJson<ApiModel>("/api/v1/models/zai/glm-4.5-air?channel=coding_plan");
    const zero = data.prices.filter((p) => p.amount === 0);
    expect(zero.length).toBeGreaterThan(0);
    for (const p of zero) {
      expect(p.denomination).toBe("credit");
      expect(p.currency).toBe("XXX");
      expect(p.displayUnit).toMatch(/included in plan/);
      expect(p.qualifiers.seller).toBeDefined();
    }
  });
});

describe("GET /models", () => {
  it("pages by keyset in id order and walks every model exactly once (D10, D12)", async () => {
    const meta = (await getJson<ApiMeta>("/api/v1/meta")).data;
    const pages = await walkPages(
      "/api/v1/models?limit=500",
      (path) => getJson<ApiModel[]>(path) as Promise<CursorPage<ApiModel>>,
    );
    const ids = pages.flatMap((p) => p.data.map((m) => m.id));
    expect(ids.length).toBe(meta.models);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(ids);
    expect(pages.length).toBe(Math.ceil(meta.models / 500));
  });

  it("every price has a confidence level, and real disputed prices name their dissenting sources", async () => {
    const { data } = await getJson<ApiModel[]>("/api/v1/models?limit=500");
    const prices = data.flatMap((m) => m.prices);
    expect(prices.length).toBeGreaterThan(0);
    for (const p of prices) expect(CONFIDENCE_LEVELS).toContain(p.confidence);
    const disputed = prices.filter((p) => p.disputed);
    expect(disputed.length).toBeGreaterThan(0);
    for (const p of disputed) expect(p.dissenting.length).toBeGreaterThan(0);
  });

  it("an exactly full last page has nextCursor null (D12)", async () => {
    const all = await getJson<ApiModel[]>("/api/v1/models?provider=anthropic&limit=500");
    const n = all.data.length;
    const first = await getJson<ApiModel[]>(`/api/v1/models?provider=anthropic&limit=${n - 1}`);
    expect(first.meta.nextCursor).toEqual(expect.any(String));
    const last = await getJson<ApiModel[]>(`/api/v1/models?provider=anthropic&limit=1&cursor=${first.meta.nextCursor}`);
    expect(last.data).toHaveLength(1);
    expect(last.meta.nextCursor).toBeNull();
    expect((await getJson<ApiModel[]>(`/api/v1/models?provider=anthropic&limit=${n}`)).meta.nextCursor).toBeNull();
  });

  it("a cursor reused with other filters is a 400; with another limit it is fine (D12)", async () => {
    const first = await getJson<ApiModel[]>("/api/v1/models?provider=openai&limit=2");
    const cursor = first.meta.nextCursor as string;
    await problemOf(`/api/v1/models?provider=google&limit=2&cursor=${cursor}`, 400);
    const next = await getJson<ApiModel[]>(`/api/v1/models?provider=openai&limit=5&cursor=${cursor}`);
    expect((next.data[0]?.id ?? "") > (first.data[1]?.id ?? "")).toBe(true);
    await problemOf("/api/v1/models?cursor=not-a-cursor!", 400);
  });

  it("q matches case-, accent- and punctuation-insensitively, ranked (D10, D11)", async () => {
    const gpt = await getJson<ApiModel[]>("/api/v1/models?q=gpt4o&limit=500");
    expect(gpt.data[0]?.slug).toBe("gpt-4o");
    const claude = await getJson<ApiModel[]>(`/api/v1/models?q=${encodeURIComponent("Cláude 3.5")}&limit=500`);
    expect(claude.data.map((m) => m.id)).toContain("anthropic/claude-3-5-sonnet-20241022");
  });

  it("provider filters by slug list; confidence keeps models whose weakest direct price is at least that level (D16)", async () => {
    const two = await getJson<ApiModel[]>("/api/v1/models?provider=anthropic,xai&limit=500");
    expect(new Set(two.data.map((m) => m.provider))).toEqual(new Set(["anthropic", "xai"]));
    const high = await getJson<ApiModel[]>("/api/v1/models?confidence=high&limit=500");
    expect(high.data.length).toBeGreaterThan(0);
    for (const m of high.data) {
      expect(m.prices.length).toBeGreaterThan(0);
      for (const p of m.prices) expect(["verified", "high"]).toContain(p.confidence);
    }
    expect((await getJson<ApiModel[]>("/api/v1/models?provider=nobody")).data).toEqual([]);
  });
});

describe("GET /models/search", () => {
  it.each([
    // Issue 50 §2, T451: a community fine-tune, an older 3.x model or gpt-4-0314 led these before.
    ["llama 3.3 70b", "meta/llama-3.3-70b-instruct"],
    ["sonnet", "anthropic/claude-sonnet-4-6"],
    ["gpt 4o", "openai/gpt-4o"],
  ])("%s: the maker's model first, the newest first (T451)", async (q, first) => {
    const body = await getJson<ApiSuggestion[]>(`/api/v1/models/search?q=${encodeURIComponent(q)}&limit=10`);
    expect(body.data[0]?.id).toBe(first);
    const ids = body.data.map((s) => s.id);
    // Within the answer, every maker's model comes before any other provider's of the same D10 rank.
    const firstOther = ids.findIndex((id) => !isMaker(id.split("/")[0]!));
    if (firstOther >= 0) expect(ids.slice(firstOther).some((id) => id === first)).toBe(false);
    expect(ids).not.toContain("openai/gpt-4-0314");
  });

  it("sonnet lists Sonnet 4.x before 3.x (newest release first within a rank, T451)", async () => {
    const ids = (await getJson<ApiSuggestion[]>("/api/v1/models/search?q=sonnet&limit=10")).data.map((s) => s.id);
    const lastFour = Math.max(
      ...["claude-sonnet-4-6", "claude-sonnet-4-5", "claude-sonnet-4-0"].map((s) => ids.indexOf(`anthropic/${s}`)),
    );
    const firstThree = ids.findIndex((id) => /claude-3/.test(id));
    expect(lastFour).toBeGreaterThanOrEqual(0);
    expect(firstThree).toBeGreaterThan(lastFour);
  });

  it("returns id and a label naming the provider (D20), in /models order", async () => {
    const body = await getJson<ApiSuggestion[]>("/api/v1/models/search?q=opus&limit=5");
    expect(body.data.length).toBe(5);
    expect(body.meta.count).toBe(5);
    expect(body.data[0]?.label).toMatch(/ — Anthropic$/);
    const list = await getJson<ApiModel[]>("/api/v1/models?q=opus&limit=5");
    expect(body.data.map((s) => s.id)).toEqual(list.data.map((m) => m.id));
  });

  it("without q returns the head of the catalogue; limit is 1 to 50", async () => {
    expect((await getJson<ApiSuggestion[]>("/api/v1/models/search")).data).toHaveLength(10);
    await problemOf("/api/v1/models/search?limit=51", 400);
  });
});

describe("GET /compare (D15)", () => {
  it("returns models in request order, drops unknown ids, counts found and requested", async () => {
    const body = await getJson<ApiModel[]>(
      "/api/v1/compare?models=openai/gpt-4o,%20anthropic/claude-opus-4-0,nobody/none,openai/gpt-4o,",
    );
    expect(body.data.map((m) => m.id)).toEqual(["openai/gpt-4o", "anthropic/claude-opus-4-0"]);
    expect(body.meta.found).toBe(2);
    expect(body.meta.requested).toBe(4);
  });

  it("fewer than 2 or more than 8 ids is a 400; a repeated id counts twice", async () => {
    await problemOf("/api/v1/compare?models=openai/gpt-4o", 400);
    await problemOf("/api/v1/compare", 400);
    await problemOf(`/api/v1/compare?models=${Array(9).fill("openai/gpt-4o").join(",")}`, 400);
    expect((await getJson<ApiModel[]>("/api/v1/compare?models=openai/gpt-4o,openai/gpt-4o")).meta.found).toBe(1);
  });
});

/** The sources whose prices are a maker's own list (`rates.officialSources`, T292). */
const OFFICIAL: readonly string[] = SOURCES.filter((a) => a.info.authoritativeFor.some(isMaker)).map((a) => a.id);

describe("GET /sources", () => {
  it("lists every configured source with registry record and health (D4)", async () => {
    const { data } = await getJson<ApiSource[]>("/api/v1/sources");
    expect(data.map((s) => s.source).sort()).toEqual(SOURCES.map((a) => a.id).sort());
    expect(data.length).toBeGreaterThanOrEqual(8);
    const anthropic = data.find((s) => s.source === "official-anthropic");
    expect(anthropic).toMatchObject({
      authoritative: true,
      weight: 1,
      lastSuccessAt: "2026-05-01T00:00:00.000Z", // its last recorded copy (T290)
      lastError: null,
    });
    expect(data.find((s) => s.source === "official-openai")).toMatchObject({
      authoritative: true,
      weight: 1,
      lastSuccessAt: "2026-06-01T00:00:00.000Z",
      lastError: null,
    });
    const modelsDev = data.find((s) => s.source === "models-dev");
    expect(modelsDev?.lastSuccessAt).toBe("2026-06-01T00:00:00.000Z");
    expect(modelsDev?.rowsLastRun).toBeGreaterThan(1000);
  });
});

describe("GET /rates (contract v2, D30)", () => {
  it("publishes billable models with both directions from the direct channel", async () => {
    const { data } = await getJson<ApiRate[]>("/api/v1/rates");
    expect(data.length).toBeGreaterThan(500);
    const opus = data.find((r) => r.id === "anthropic/claude-opus-4-0");
    expect(opus).toMatchObject({ inputPerMTok: 15, outputPerMTok: 75, cachedInputPerMTok: 1.5, currency: "USD" });
    for (const r of data) {
      expect(r.confidenceScore).toBeGreaterThanOrEqual(0);
      expect(r.confidenceScore).toBeLessThanOrEqual(100);
      expect(Number.isInteger(r.confidenceScore)).toBe(true);
      expect(r.sourceCount).toBeGreaterThanOrEqual(r.agreeingSources.length);
      // Official exactly when a maker's page agrees (T292) and was read within the window of the
      // moment judged; else the rate names the page that lapsed (T461).
      const onPage = r.agreeingSources.some((s) => OFFICIAL.includes(s));
      expect(r.official).toBe(onPage && r.pageStale === undefined);
      if (r.pageStale) expect(r.agreeingSources).toContain(r.pageStale.source);
    }
  });

  it("agreeingSources is the intersection of both directions' sources, confidence is the weaker direction's", async () => {
    const rates = (await getJson<ApiRate[]>("/api/v1/rates?provider=deepseek,anthropic")).data;
    expect(new Set(rates.map((r) => r.provider))).toEqual(new Set(["deepseek", "anthropic"]));
    for (const rate of rates.slice(0, 20)) {
      const model = (await getJson<ApiModel>(`/api/v1/models/${rate.id}`)).data;
      const input = model.prices.find((p) => p.label === "Input")!;
      const output = model.prices.find((p) => p.label === "Output")!;
      expect(rate.agreeingSources).toEqual(input.sources.filter((s) => output.sources.includes(s)));
      const weaker = input.confidenceScore < output.confidenceScore ? input : output;
      expect(rate.confidence).toBe(weaker.confidence);
      expect(rate.confidenceScore).toBe(Math.round(weaker.confidenceScore * 100));
      expect(rate.disputed).toBe(input.disputed || output.disputed);
    }
  });

  it("more than 50 providers is a 400 (D13)", async () => {
    const many = Array.from({ length: 51 }, (_, i) => `p${i}`).join(",");
    const body = await problemOf(`/api/v1/rates?provider=${many}`, 400);
    expect(body.detail).toMatch(/provider/);
  });
});

describe("errors (D13, D14, D25)", () => {
  it.each([
    ["/api/v1/models?limit=0", /limit/],
    ["/api/v1/models?limit=501", /limit/],
    ["/api/v1/models?limit=%2B5", /limit/],
    ["/api/v1/models?limit=1e2", /limit/],
    ["/api/v1/models?limit=", /limit/],
    ["/api/v1/models?confidence=great", /confidence/],
    ["/api/v1/models?limit=5&limit=6", /limit/],
  ])("%s is a 400 naming the parameter", async (path, pattern) => {
    const body = await problemOf(path, 400);
    expect(body.detail).toMatch(pattern);
    expect(body.title).toBe("Bad Request");
  });

  it("05 is 5, and unknown parameters (limit[] too) are ignored (D13)", async () => {
    expect((await getJson<ApiModel[]>("/api/v1/models?limit=05")).data).toHaveLength(5);
    expect((await getJson<ApiModel[]>("/api/v1/models?limit[]=3&foo=bar")).data).toHaveLength(50);
  });

  it("an unknown path is a 404 problem; another method a 405 with Allow (D14)", async () => {
    await problemOf("/api/v1/nothing-here", 404);
    const res = await fetch(`${server.base}/api/v1/models`, { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    const body = (await res.json()) as { title: string };
    expect(body.title).toBe("Method Not Allowed");
  });
});
