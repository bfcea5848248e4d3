import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect } from "vitest";
import { ChangesResponse, ModelResponse, ModelsResponse } from "../src/catalogue/response-schemas.js";
import type { ApiChange, ApiCostEstimate, ApiModel, ApiPrice } from "../src/catalogue/schemas.js";
import type { CatalogueView } from "../src/catalogue/view.js";
import { CHANNELS } from "../src/domain/channel.js";
import { CONFIDENCE_LEVELS } from "../src/domain/confidence.js";
import { DOCUMENTED_CONTEXT_WINDOWS } from "../src/domain/cost.js";
import type { Dataset } from "../src/domain/dataset.js";
import { isHeadlinePrice, listedPrice } from "../src/domain/listed-price.js";
import { bindShared } from "./fixtures.js";
import { readReplayStore, type TestServer } from "./harness.js";
import { type CursorPage, walkItems, walkPages } from "./paging.js";

/**
 * The API additions of issue 28 (T200–T206) over real HTTP on the replayed catalogue: the context
 * window rule of /cost, every channel of a model in one answer, the listed price with its sorts and
 * filters, backward cursors, `/changes` counts, channels and cursor, RSS links to the web pages, and
 * suggestions for a misspelled id. Amounts are read from the replay, never written here, except
 * Anthropic's list price of Claude Sonnet 4.5 ($3 / $15 per 1M tokens, its pricing page in
 * data/upstream/official-anthropic/2025-12-01/pricing.md.gz).
 */

const SONNET = "anthropic/claude-sonnet-4-5";
let server: TestServer;
let view: CatalogueView;
let september: Dataset;

// The worker's shared API on a loopback port (test/fixtures.ts, T274), bound before the file's first
// test, with the September version read once from the replay's store.
const it = bindShared("apiServer", async (boundView, boundServer) => {
  view = boundView;
  server = boundServer;
  september = (await readReplayStore((store) => store.loadDataset("2025-09-01T00:00:00.000Z")))!;
});

interface Body<T> {
  data: T;
  meta: Record<string, unknown> & { datasetVersion: string };
}

async function get<T>(path: string): Promise<Body<T>> {
  const res = await server.get(`/api/v1${path}`);
  expect(res.status, `${path}: ${res.status}`).toBe(200);
  return (await res.json()) as Body<T>;
}

async function problem(path: string, status = 400): Promise<string> {
  const res = await server.get(`/api/v1${path}`);
  expect(res.status, path).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  return ((await res.json()) as { detail: string }).detail;
}

const usd = (e: ApiCostEstimate) =>
  e.totals?.find((t) => t.denomination === "currency" && t.currency === "USD")?.amount;

describe("/cost: the bracket is chosen per request, and no request exceeds the context window (T200)", () => {
  it("Sonnet 4.5, 10M input + 2M output as one request: a 400 that says so and names the requests that fit", async () => {
    const detail = await problem(`/cost?model=${SONNET}&inputTokens=10000000&outputTokens=2000000`);
    expect(detail).toBe(
      "one request's prompt would be 10,000,000 tokens (inputTokens + cachedInputTokens + cacheWriteTokens over " +
        "requests=1), more than the context window of anthropic/claude-sonnet-4-5 (1,000,000 tokens with its " +
        "long-context window; 200,000 listed): no request can " +
        "be that long. Give requests, the number of requests the tokens are spread over (at least 10); the context " +
        "bracket is chosen per request",
    );
  });

  it("the same month as 1,000 requests of 10,000 + 2,000 tokens: $60.00 at the maker's list price, standard bracket", async () => {
    const body = await get<ApiCostEstimate[]>(
      `/cost?model=${SONNET}&inputTokens=10000000&outputTokens=2000000&requests=1000`,
    );
    const direct = body.data.find((e) => e.channel === "direct")!;
    expect(direct.bracket).toEqual({ contextMin: 0, contextMax: null, promptTokensPerRequest: 10000 });
    expect(direct.lines.map((l) => [l.label, l.amount, l.cost])).toEqual([
      ["Input", 3, 30],
      ["Output", 15, 30],
    ]);
    expect(usd(direct)).toBe(60);
  });

  it("up to the window a request is priced (long context above 200K); one token more is refused", async () => {
    const at = await get<ApiCostEstimate[]>(`/cost?model=${SONNET}&inputTokens=1000000`);
    expect(at.data[0]?.bracket.contextMin).toBe(200000);
    expect(await problem(`/cost?model=${SONNET}&inputTokens=1000001`)).toMatch(/at least 2\)/);
    // A listed window binds as it is listed: gpt-4o's.
    const window = view.byId.get("openai/gpt-4o")!.model.contextWindow!;
    expect(window).toBeGreaterThan(0);
    await get(`/cost?model=openai/gpt-4o&inputTokens=${window}`);
    expect(await problem(`/cost?model=openai/gpt-4o&inputTokens=${window - 1}&cachedInputTokens=2`)).toContain(
      `openai/gpt-4o (${new Intl.NumberFormat("en").format(window)} tokens)`,
    );
  });

  it("with models=, one 400 names every model the request does not fit", async () => {
    const detail = await problem(`/cost?models=${SONNET},openai/gpt-4o,google/gemini-2.5-pro&inputTokens=1040000`);
    expect(detail).toContain(
      "anthropic/claude-sonnet-4-5 (1,000,000 tokens with its long-context window; 200,000 listed)",
    );
    expect(detail).toContain("openai/gpt-4o (");
    expect(detail).not.toContain("gemini-2.5-pro (");
  });

  it("each documented window is a model of the catalogue whose maker bills prompts beyond its listed window, as the maker's page says", () => {
    const page = gunzipSync(readFileSync("data/upstream/official-anthropic/2025-12-01/pricing.md.gz")).toString("utf8");
    expect(page).toContain("The 1M token context window is only available for Claude Sonnet 4 and Sonnet 4.5.");
    for (const [id, [tokens]] of Object.entries(DOCUMENTED_CONTEXT_WINDOWS)) {
      const entry = view.byId.get(id);
      expect(entry, id).toBeDefined();
      const listed = entry!.model.contextWindow ?? 0;
      expect(tokens, id).toBeGreaterThan(listed);
      const direct = (view.pricesByModel.get(id) ?? []).filter((p) => p.channel === "direct");
      expect(
        direct.some((p) => p.contextMin >= listed && p.contextMax === null && p.contextMin > 0),
        id,
      ).toBe(true);
    }
  });
});

/** A price of an answer that mixes channels (T201). */
type ChannelPrice = ApiPrice & { channel: string; seller: string };

describe("/models/{provider}/{model}?channel=all: every channel in one answer (T201)", () => {
  it("holds exactly each channel's prices, each with its channel and seller, and the dissenters' amounts", async () => {
    const all = await get<ApiModel>(`/models/${SONNET}?channel=all`);
    expect(ModelResponse.safeParse(all).success).toBe(true);
    expect(all.meta.channel).toBe("all");
    const prices = all.data.prices as ChannelPrice[];
    for (const channel of CHANNELS) {
      const one = await get<ApiModel>(`/models/${SONNET}?channel=${channel}`);
      const strip = ({ channel: _c, seller: _s, dissentingAmounts: _d, ...rest }: ChannelPrice) => rest;
      expect(prices.filter((p) => p.channel === channel).map(strip), channel).toEqual(one.data.prices);
    }
    const published = view.pricesByModel.get(SONNET)!;
    expect(prices.map((p) => `${p.channel}|${p.seller}`)).toEqual(published.map((p) => `${p.channel}|${p.seller}`));
    let dissenters = 0;
    for (const [i, p] of prices.entries()) {
      const own = published[i]!;
      const expected = own.dissenting.map((source) => ({
        source,
        amount: own.observations.find((o) => o.source === source)!.amount,
      }));
      expect(p.dissentingAmounts).toEqual(expected);
      dissenters += expected.length;
    }
    expect(dissenters).toBeGreaterThan(0);
  });

  it("with at=, what that day's version published in every channel, without evidence", async () => {
    const past = await get<ApiModel>("/models/deepseek/deepseek-chat?channel=all&at=2025-09-15");
    expect(past.meta).toMatchObject({ channel: "all", at: "2025-09-15", datasetVersion: "2025-09-01T00:00:00.000Z" });
    const published = september.prices.filter((p) => p.modelId === "deepseek/deepseek-chat");
    expect((past.data.prices as ChannelPrice[]).map((p) => [p.channel, p.seller, p.label, p.amount])).toEqual(
      published.map((p) => [p.channel, p.seller, p.label, p.amount]),
    );
    expect(past.data.prices.every((p) => p.dissentingAmounts === undefined)).toBe(true);
  });
});

/** Every page of a /models query, following nextCursor. */
async function allPages(query: string): Promise<ApiModel[]> {
  return walkItems(`/models?${query}&limit=500`, (path) => get<ApiModel[]>(path) as Promise<CursorPage<ApiModel>>);
}

describe("/models: the listed price, its sorts and filters, and cursors both ways (T202, T203)", () => {
  it("prices=listed gives each model the one rule's input and output, naming channel and seller", async () => {
    const rows = await allPages("prices=listed");
    expect(rows.length).toBe(view.models.length);
    let resold = 0;
    for (const m of rows) {
      const expected = listedPrice(view.pricesByModel.get(m.id) ?? []);
      const shown = m.prices as ChannelPrice[];
      expect(
        shown.map((p) => [p.channel, p.seller, p.label]),
        m.id,
      ).toEqual([expected?.input, expected?.output].filter((p) => p).map((p) => [p!.channel, p!.seller, p!.label]));
      if (expected && expected.channel !== "direct") resold++;
    }
    // Models no maker prices still show a price (issue 28 §4): many are sold only by resellers.
    expect(resold).toBeGreaterThan(100);
  });

  it("sort=input puts the lowest listed input first and models without one last; -input the reverse", async () => {
    const up = await allPages("sort=input&prices=listed");
    const amounts = up.map((m) => m.prices.find((p) => p.direction === "input")?.amount ?? null);
    const priced = amounts.filter((a): a is number => a !== null);
    expect(priced.length).toBeGreaterThan(500);
    expect(amounts.slice(0, priced.length)).toEqual([...priced].sort((a, b) => a - b));
    expect(amounts.slice(priced.length).every((a) => a === null)).toBe(true);
    const down = await get<ApiModel[]>("/models?sort=-input&prices=listed&limit=5");
    expect(down.data[0]?.prices.find((p) => p.direction === "input")?.amount).toBe(Math.max(...priced));
  });

  it("sort=-context, sort=sellers and sort=recent order by their own value", async () => {
    const context = await allPages("sort=-context");
    const windows = context.map((m) => m.contextWindow).filter((w): w is number => w !== null);
    expect(windows).toEqual([...windows].sort((a, b) => b - a));
    const sellers = (await get<ApiModel[]>("/models?sort=sellers&limit=50")).data;
    const count = (id: string) =>
      new Set((view.pricesByModel.get(id) ?? []).map((p) => `${p.channel}|${p.seller}`)).size;
    const counts = sellers.map((m) => count(m.id));
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(sellers.map((m) => m.id)).toContain(SONNET);
    const recent = (await get<ApiModel[]>("/models?sort=recent&prices=listed&limit=100")).data;
    const dates = recent.map((m) => listedPrice(view.pricesByModel.get(m.id) ?? [])!.changedAt);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it("listedConfidence keeps exactly the models whose listed price has that level: every model in one level", async () => {
    let total = 0;
    for (const level of CONFIDENCE_LEVELS) {
      const rows = await allPages(`listedConfidence=${level}`);
      for (const m of rows) expect(listedPrice(view.pricesByModel.get(m.id) ?? [])?.confidence, m.id).toBe(level);
      total += rows.length;
    }
    const unpriced = view.models.filter((e) => listedPrice(view.pricesByModel.get(e.model.id) ?? []) === null);
    expect(total + unpriced.length).toBe(view.models.length);
    // Issue 28 §5: Anthropic + verified finds Claude Sonnet 4.5, whose listed price the maker's page
    // states (it was high before the page verified it through 2026-06, T292).
    const anthropic = await allPages("provider=anthropic&listedConfidence=verified");
    expect(anthropic.map((m) => m.id)).toContain(SONNET);
  });

  it("channel, modality, openWeights and minContext narrow the list to what they say", async () => {
    const openrouter = await allPages("channel=reseller_1&prices=listed");
    expect(openrouter.length).toBeGreaterThan(100);
    for (const m of openrouter) {
      expect(
        (view.pricesByModel.get(m.id) ?? []).some((p) => p.channel === "reseller_1"),
        m.id,
      ).toBe(true);
      expect(
        (m.prices as ChannelPrice[]).every((p) => p.channel === "reseller_1"),
        m.id,
      ).toBe(true);
    }
    const image = await allPages("modality=image");
    expect(image.length).toBeGreaterThan(0);
    for (const m of image) expect((view.pricesByModel.get(m.id) ?? []).some((p) => p.modality === "image")).toBe(true);
    const open = await allPages("openWeights=true");
    const closed = await allPages("openWeights=false");
    expect(open.every((m) => m.openWeights) && closed.every((m) => !m.openWeights)).toBe(true);
    expect(open.length + closed.length).toBe(view.models.length);
    const long = await allPages("minContext=1000000");
    expect(long.every((m) => (m.contextWindow ?? 0) >= 1000000)).toBe(true);
    expect(long.length).toBe(view.models.filter((e) => (e.model.contextWindow ?? 0) >= 1000000).length);
  });

  it("prevCursor goes back a page; null exactly on the first; cursors are bound to their sort", async () => {
    const q = "/models?sort=input&prices=listed&limit=20";
    const first = await get<ApiModel[]>(q);
    expect(ModelsResponse.safeParse(first).success).toBe(true);
    expect(first.meta.prevCursor).toBeNull();
    const second = await get<ApiModel[]>(`${q}&cursor=${first.meta.nextCursor}`);
    const third = await get<ApiModel[]>(`${q}&cursor=${second.meta.nextCursor}`);
    const back = await get<ApiModel[]>(`${q}&cursor=${third.meta.prevCursor}`);
    expect(back.data.map((m) => m.id)).toEqual(second.data.map((m) => m.id));
    const front = await get<ApiModel[]>(`${q}&cursor=${back.meta.prevCursor}`);
    expect(front.data.map((m) => m.id)).toEqual(first.data.map((m) => m.id));
    expect(front.meta.prevCursor).toBeNull();
    expect(await problem(`/models?sort=output&limit=20&cursor=${first.meta.nextCursor}`)).toMatch(/another sort/);
  });

  it("at= lists the models and listed prices that day's version published", async () => {
    const past = await get<ApiModel[]>("/models?at=2025-09-15&prices=listed&limit=500&provider=deepseek");
    expect(past.meta).toMatchObject({ at: "2025-09-15", datasetVersion: "2025-09-01T00:00:00.000Z" });
    const then = september.models.filter((m) => m.provider === "deepseek" && m.listed).map((m) => m.id);
    expect(past.data.map((m) => m.id)).toEqual(then);
    const chat = past.data.find((m) => m.id === "deepseek/deepseek-chat")!;
    const expected = listedPrice(september.prices.filter((p) => p.modelId === "deepseek/deepseek-chat"))!;
    expect(chat.prices.map((p) => p.amount)).toEqual([expected.input!.amount, expected.output!.amount]);
    expect(chat.prices.every((p) => isHeadlinePrice(p))).toBe(true);
  });
});

describe("/changes: channels, true counts and the cursor (T204); RSS links to the web (T205)", () => {
  type Feed = Body<ApiChange[]> & { meta: { total: number; nextCursor: string | null } };
  const feed = (q: string) => get<ApiChange[]>(`/changes?${q}`) as Promise<Feed>;

  it("meta.total counts the window; the cursor's pages are the unpaged list, in order", async () => {
    const whole = await feed("days=365&limit=500&channel=direct");
    expect(ChangesResponse.safeParse(whole).success).toBe(true);
    expect(whole.meta.total).toBe(whole.data.length);
    expect(whole.data.every((c) => c.channel === "direct")).toBe(true);
    const pages = await walkPages(
      "/changes?days=365&limit=37&channel=direct",
      (path) => get<ApiChange[]>(path) as Promise<Feed>,
    );
    for (const page of pages) expect(page.meta.total).toBe(whole.meta.total);
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.flatMap((p) => p.data)).toEqual(whole.data);
  });

  it("?days=7 says how many changes the window holds, not the page size (issue 28 §4)", async () => {
    const page = await feed("days=7");
    expect(page.data.length).toBe(100);
    expect(page.meta.total).toBeGreaterThan(100);
    const direct = await feed("days=7&channel=direct");
    const others = await feed(`days=7&channel=${CHANNELS.filter((c) => c !== "direct").join(",")}`);
    expect(direct.meta.total + others.meta.total).toBe(page.meta.total);
  });

  it("at= ends the window at that day's version", async () => {
    const past = await feed("at=2025-10-15&days=365&limit=500");
    expect(past.meta.datasetVersion).toBe("2025-10-01T00:00:00.000Z");
    expect(past.data.length).toBeGreaterThan(0);
    expect(past.data.every((c) => c.occurredAt <= "2025-10-01T00:00:00.000Z")).toBe(true);
  });

  it("a bad channel or cursor is a 400 naming it", async () => {
    expect(await problem("/changes?channel=direct,shop")).toContain('channel "shop" is not one of');
    expect(await problem("/changes?cursor=nope!")).toContain("cursor is not valid");
    const page = await feed("days=365&channel=direct&limit=5");
    expect(await problem(`/changes?days=365&limit=5&cursor=${page.meta.nextCursor}`)).toContain("other filters");
  });

  it("link=web links each RSS item to the model's page; the default stays the API (D19)", async () => {
    const web = await (await server.get("/api/v1/changes.xml?days=365&provider=deepseek&link=web")).text();
    const api = await (await server.get("/api/v1/changes.xml?days=365&provider=deepseek")).text();
    const links = (xml: string) => [...xml.matchAll(/<item>[\s\S]*?<link>([^<]+)<\/link>/g)].map((m) => m[1]!);
    expect(links(web).length).toBeGreaterThan(0);
    expect(links(web)).toEqual(links(api).map((l) => l.replace("/api/v1/models/", "/m/")));
    expect(links(api).every((l) => l.startsWith(`${server.base}/api/v1/models/`))).toBe(true);
  });
});

describe("/models/search?fuzzy=true (T206)", () => {
  it("a misspelled id finds the model meant; without fuzzy nothing is invented", async () => {
    const exact = await get<{ id: string }[]>("/models/search?q=claude-sonet-4-5");
    expect(exact.data).toEqual([]);
    const near = await get<{ id: string }[]>("/models/search?q=claude-sonet-4-5&fuzzy=true&limit=5");
    expect(near.data[0]?.id).toBe(SONNET);
    // A text that matches keeps D10's answer: fuzzy adds nothing to a real match.
    const real = await get<{ id: string }[]>("/models/search?q=sonnet&limit=5");
    expect((await get<{ id: string }[]>("/models/search?q=sonnet&limit=5&fuzzy=true")).data).toEqual(real.data);
  });
});
