import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiChange, ApiHistorySeries } from "../src/catalogue/schemas.js";
import type { Dataset } from "../src/domain/dataset.js";
import { loadReplay, startServer, type TestServer } from "./harness.js";

// Issue 3 over real HTTP against the replay of the bundled monthly snapshots (2025-07 → 2026-06).
let server: TestServer;
let may: Dataset;

beforeAll(async () => {
  const { view, store } = await loadReplay();
  may = (await store.loadDataset("2026-05-01T00:00:00.000Z"))!;
  await store.close();
  server = await startServer(view);
});
afterAll(async () => {
  await server.close();
});

interface Body<T> {
  data: T;
  meta: Record<string, unknown>;
}

async function json<T>(path: string, status = 200): Promise<Body<T>> {
  const res = await server.get(path);
  expect(res.status, path).toBe(status);
  return (await res.json()) as Body<T>;
}

async function changesOf(query: string): Promise<ApiChange[]> {
  return (await json<ApiChange[]>(`/api/v1/changes?days=365&limit=500&${query}`)).data;
}

describe("GET /changes: real market moves of the last year (upstream README 'Facts worth knowing', issue 14)", () => {
  it.each([
    // [query, channel, label, old, new, deltaPct, occurredAt] — the sources that show each move in a comment
    // fact 4: models.dev deepseek and OpenRouter listings, Portkey with them
    ["provider=deepseek&model=deepseek-v4-pro", "direct", "Input", 1.74, 0.435, -75, "2026-06-01"],
    ["provider=deepseek&model=deepseek-v4-pro", "direct", "Output", 3.48, 0.87, -75, "2026-06-01"],
    ["provider=deepseek&model=deepseek-v4-pro", "direct", "Input (cache read)", 0.145, 0.003625, -97.5, "2026-06-01"],
    // fact 3: models.dev moved in 2026-05 (a maker-wide move: deepseek-chat and -reasoner together),
    // Portkey followed in 2026-06: the move is dated when models.dev's payload showed it (issue 24, T170/T174)
    ["provider=deepseek&model=deepseek-chat", "direct", "Input", 0.28, 0.14, -50, "2026-05-01"],
    ["provider=deepseek&model=deepseek-chat", "direct", "Output", 0.42, 0.28, -33.33, "2026-05-01"],
    ["provider=deepseek&model=deepseek-reasoner", "direct", "Input", 0.28, 0.14, -50, "2026-05-01"],
    // issue 24: DeepSeek's cache-hit cut to a tenth, shown first by Portkey (2026-06)
    ["provider=deepseek&model=deepseek-chat", "direct", "Input (cache read)", 0.028, 0.0028, -90, "2026-06-01"],
    // issue 24: Grok 4.20's cut to 1.25 / 2.50 (models.dev, maker-wide; LiteLLM and Portkey lag)
    ["provider=xai&model=grok-4.20-0309-reasoning", "direct", "Input", 2, 1.25, -37.5, "2026-06-01"],
    ["provider=xai&model=grok-4.20-0309-reasoning", "direct", "Output", 6, 2.5, -58.33, "2026-06-01"],
    // genai-prices' first-month fix of Sonar Pro (30 → 3), the other sources at 3.
    ["provider=perplexity&model=sonar-pro", "direct", "Input", 30, 3, -90, "2025-08-01"],
    // facts 5, 6: Gemini cache-price cuts (genai-prices and Portkey in 2025-12)
    ["provider=google&model=gemini-2.5-pro", "direct", "Input (cache read)", 0.31, 0.125, -59.68, "2025-12-01"],
    ["provider=google&model=gemini-2.5-flash-lite", "direct", "Input (cache read)", 0.025, 0.01, -60, "2025-12-01"],
    ["provider=google&model=gemini-2.5-flash", "direct", "Input (cache read)", 0.075, 0.03, -60, "2025-12-01"],
    // fact 11: Grok 4.20's cut of the >200K tier (models.dev and Portkey)
    ["provider=xai&model=grok-4.20-0309-reasoning", "direct", "Output (> 200K tokens)", 12, 5, -58.33, "2026-06-01"],
    ["provider=xai&model=grok-4.20-0309-reasoning", "direct", "Input (> 200K tokens)", 4, 2.5, -37.5, "2026-06-01"],
    // Devstral 2's launch price ending: OpenRouter's own API 0.05 → 0.4 (Portkey with it; a run
    // without OpenRouter had published the others' 0.15, T88), Kilo's models.dev listing 0.05 → 0.4
    ["provider=mistral&model=devstral-2512", "reseller_1", "Input", 0.15, 0.4, 166.67, "2026-04-01"],
    ["provider=mistral&model=devstral-2512", "other", "Input (seller: kilo)", 0.05, 0.4, 700, "2026-04-01"],
    // fact 12: Qwen3 Max on OpenRouter (OpenRouter's own API and Portkey)
    ["provider=alibaba&model=qwen3-max", "reseller_1", "Input", 1.2, 0.78, -35, "2026-04-01"],
  ])("%s %s %s: %d → %d (%d %%)", async (query, channel, label, oldAmount, newAmount, deltaPct, date) => {
    const found = (await changesOf(query)).filter((c) => c.channel === channel && c.label === label);
    const move = found.find((c) => c.occurredAt === `${date}T00:00:00.000Z`);
    expect(move, JSON.stringify(found)).toMatchObject({
      kind: newAmount > oldAmount ? "price_increase" : "price_decrease",
      oldAmount,
      newAmount,
      deltaPct,
    });
  });

  const MARKET = "kind=price_increase,price_decrease,price_removed,unit_change";
  // The artefacts below that the replay still publishes, as `reference_changed`; the others no
  // longer move the published amount at all (T80–T82).
  // (Issue 24: a failed or absent source's statement keeps its weight, T178, so Anthropic's carried page
  // no longer lets Claude 3 Haiku's 1-hour cache write flap back to LiteLLM's 6; a correction of 5× or
  // more is shown among market moves, T176 — see the list above.)
  const RECONCILED = new Set([
    "aihubmix's qwen3.6-flash listing standing in for qwen3.6-plus until its own listing came (T87)",
    "llmgateway's rounded 0.13 for gpt-5's cache read becoming OpenAI's exact 0.125 (T89)",
    "Cloudflare's 0.56 for Gemma SEA-LION output restated as 0.555 (T89)",
    "Anthropic's page (2025-11) correcting LiteLLM's 1-hour cache write of Claude 3 Opus (6 → 30, T293)",
    "Anthropic's page (2025-11) correcting LiteLLM's 1-hour cache write of Claude 3 Haiku (6 → 0.5, T293)",
  ]);
  it.each([
    // [what, query, channel, label, old, new] — artefacts the feed must not call market moves
    // The maker's page never showed LiteLLM's 6 (issue 35 §4, T293): a correction of ours, not a
    // market move, however large (it was a price_increase / decrease under T176 before).
    [
      "Anthropic's page (2025-11) correcting LiteLLM's 1-hour cache write of Claude 3 Opus (6 → 30, T293)",
      "provider=anthropic&model=claude-3-opus-20240229",
      "direct",
      "Input (cache write 1h)",
      6,
      30,
    ],
    [
      "Anthropic's page (2025-11) correcting LiteLLM's 1-hour cache write of Claude 3 Haiku (6 → 0.5, T293)",
      "provider=anthropic&model=claude-3-haiku-20240307",
      "direct",
      "Input (cache write 1h)",
      6,
      0.5,
    ],
    [
      "Claude 3 Haiku 1-hour cache write flapping 0.5 → 6",
      "provider=anthropic&model=claude-3-haiku-20240307",
      "direct",
      "Input (cache write 1h)",
      0.5,
      6,
    ],
    [
      "OpenRouter delisting qwen-turbo, a stale source taking over (0.13 → 0.2)",
      "provider=alibaba&model=qwen-turbo",
      "reseller_1",
      "Output",
      0.13,
      0.2,
    ],
    [
      "DeepSeek reasoner output back to an old price (0.55 → 2.19)",
      "provider=deepseek&model=deepseek-reasoner",
      "direct",
      "Output",
      0.55,
      2.19,
    ],
    [
      "DeepSeek chat's off-peak amount published by a tie (0.27 → 0.135)",
      "provider=deepseek&model=deepseek-chat",
      "direct",
      "Input",
      0.27,
      0.135,
    ],
    [
      "mistral-medium-2508 0.4 → 2.7 (a moving alias' stale price)",
      "provider=mistral&model=mistral-medium-2508",
      "direct",
      "Input",
      0.4,
      2.7,
    ],
    [
      "genai-prices' first-month fix of gpt-4o (5 → 2.5), other sources at 2.5 all along",
      "provider=openai&model=gpt-4o",
      "direct",
      "Input",
      5,
      2.5,
    ],
    ["Portkey's ×10 data-entry fix of GLM-4.7 (6 → 0.6)", "provider=zai&model=glm-4.7", "direct", "Input", 6, 0.6],
    [
      "aihubmix's qwen3.6-flash listing standing in for qwen3.6-plus until its own listing came (T87)",
      "provider=alibaba&model=qwen3.6-plus",
      "other",
      "Input (seller: aihubmix)",
      0.169,
      0.28,
    ],
    [
      "llmgateway's rounded 0.13 for gpt-5's cache read becoming OpenAI's exact 0.125 (T89)",
      "provider=openai&model=gpt-5",
      "other",
      "Input (cache read) (seller: llmgateway)",
      0.13,
      0.125,
    ],
    [
      "Cloudflare's 0.56 for Gemma SEA-LION output restated as 0.555 (T89)",
      "provider=aisingapore&model=gemma-sea-lion-v4-27b-it",
      "other",
      "Output (seller: cloudflare-workers-ai)",
      0.56,
      0.555,
    ],
    [
      "a merge of spellings (claude-sonnet-4-5-20250929 is claude-sonnet-4-5)",
      "provider=anthropic&model=claude-sonnet-4-5-20250929",
      "direct",
      "Input",
      3,
      null,
    ],
  ])("not a market move: %s", async (what, query, channel, label, oldAmount, newAmount) => {
    const same = (c: ApiChange) =>
      c.channel === channel && c.label === label && c.oldAmount === oldAmount && c.newAmount === newAmount;
    expect((await changesOf(`${MARKET}&${query}`)).filter(same)).toEqual([]);
    // Where the published amount still changes this way, the feed says so as reconciliation (T83),
    // and only there: in the other cases nothing changed at all.
    const reconciled = (await changesOf(`kind=reference_changed&${query}`)).filter(same);
    expect(reconciled.length > 0, `${what}: reference_changed`).toBe(RECONCILED.has(what));
  });

  it("no $0 key that stops appearing is a removal (1,909 of them before issue 14)", async () => {
    const removed = await changesOf("kind=price_removed");
    expect(removed.length).toBeGreaterThan(0);
    expect(removed.filter((c) => c.oldAmount === 0)).toEqual([]);
  });

  it("listings that moved to another model are no removals and are not served stale meanwhile (T87)", async () => {
    // 2026-05: Alibaba lists qwen3-vl-30b-a3b-instruct; nine resellers' Qwen3-VL-30B-A3B-Instruct
    // listings land there instead of on qwen3-vl-30b-a3b (18 removals in 2026-06 before T87).
    const moved = await changesOf("provider=alibaba&model=qwen3-vl-30b-a3b-instruct&kind=price_added");
    expect(new Set(moved.map((c) => c.occurredAt))).toEqual(new Set(["2026-05-01T00:00:00.000Z"]));
    expect(moved.filter((c) => c.channel === "other").length).toBeGreaterThanOrEqual(12);
    const removed = await changesOf("provider=alibaba&model=qwen3-vl-30b-a3b&kind=price_removed");
    expect(removed.filter((c) => c.occurredAt >= "2026-05")).toEqual([]);
    const old = may.prices.filter((p) => p.modelId === "alibaba/qwen3-vl-30b-a3b");
    expect(old.length).toBeGreaterThan(0); // Alibaba's own listing of it stays
    expect(old.filter((p) => p.staleSince !== null)).toEqual([]);
  });

  it("the default feed of a year reaches past the last run (it held the last run only before issue 14)", async () => {
    const feed = (await json<ApiChange[]>("/api/v1/changes?days=400&limit=500")).data;
    expect(feed.length).toBe(500);
    expect(new Set(feed.map((c) => c.occurredAt)).size).toBeGreaterThan(1);
    // Price moves alone reach further back.
    const moves = (await json<ApiChange[]>("/api/v1/changes?days=400&limit=500&kind=price_increase,price_decrease"))
      .data;
    expect(new Set(moves.map((c) => c.occurredAt)).size).toBeGreaterThan(2);
  });

  it("shows the four market kinds by default, newest first, with model and provider names", async () => {
    const data = await changesOf("");
    expect(data.length).toBe(500);
    for (const c of data)
      expect(["price_increase", "price_decrease", "price_removed", "unit_change"]).toContain(c.kind);
    const times = data.map((c) => c.occurredAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(data[0]).toMatchObject({ modelName: expect.any(String), providerName: expect.any(String) });
  });

  it("follows D5 amounts per kind", async () => {
    const added = (await changesOf("kind=price_added,coverage_added")).slice(0, 50);
    expect(added.length).toBeGreaterThan(0);
    for (const c of added) expect([c.oldAmount, c.deltaPct, typeof c.newAmount]).toEqual([null, null, "number"]);
    const removed = await changesOf("kind=price_removed");
    for (const c of removed.slice(0, 50))
      expect([typeof c.oldAmount, c.newAmount, c.deltaPct]).toEqual(["number", null, null]);
    // T83: a switch of the backing source keeps the amount (D5); an amount moved by reconciliation,
    // not by the market, is reference_changed with both amounts.
    const refs = await changesOf("kind=reference_changed");
    expect(refs.some((c) => c.newAmount === c.oldAmount && c.deltaPct === 0)).toBe(true);
    // Equal amounts: delta 0; moved amounts: a delta, unless from 0 (no percentage of 0).
    const badDelta = refs
      .slice(0, 50)
      .filter((c) =>
        c.newAmount === c.oldAmount ? c.deltaPct !== 0 : typeof c.deltaPct !== "number" && c.oldAmount !== 0,
      );
    expect(badDelta).toEqual([]);
  });

  it("days counts back from the dataset version (D18); limit caps at 500; q matches provider names (D11)", async () => {
    const month = (await json<ApiChange[]>("/api/v1/changes?days=30&limit=500")).data;
    expect(month.length).toBeGreaterThan(0);
    for (const c of month) expect(c.occurredAt).toBe("2026-06-01T00:00:00.000Z");
    expect((await json<ApiChange[]>("/api/v1/changes?days=365&limit=9999")).data.length).toBe(500);
    const q = (await json<ApiChange[]>("/api/v1/changes?days=365&q=DeepSeek&limit=500")).data;
    expect(q.length).toBeGreaterThan(0);
    for (const c of q) expect(`${c.model} ${c.providerName} ${c.modelName}`.toLowerCase()).toContain("deepseek");
  });

  it.each([
    ["/api/v1/changes?kind=price_cut", /kind/],
    ["/api/v1/changes?days=0", /days/],
    ["/api/v1/changes?days=3651", /days/],
    ["/api/v1/changes?limit=0", /limit/],
    ["/api/v1/changes?days=7&days=8", /days/],
    ["/api/v1/changes.xml?kind=nope", /kind/],
  ])("%s is a 400 naming the parameter", async (path, pattern) => {
    const res = await server.get(path);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/problem\+json/);
    expect(((await res.json()) as { detail: string }).detail).toMatch(pattern);
  });
});

describe("GET /changes.xml (D19)", () => {
  it("has the same items in the same order as /changes and parses as RSS 2.0", async () => {
    const query = "days=365&limit=60&provider=deepseek";
    const data = (await json<ApiChange[]>(`/api/v1/changes?${query}`)).data;
    const res = await server.get(`/api/v1/changes.xml?${query}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    const xml = await res.text();
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml) as {
      rss: { "@_version": string; channel: { item: Record<string, unknown>[] | Record<string, unknown> } };
    };
    expect(parsed.rss["@_version"]).toBe("2.0");
    const items = [parsed.rss.channel.item].flat();
    expect(items.length).toBe(data.length);
    items.forEach((item, i) => {
      const c = data[i]!;
      const amount = (a: number | null) => (a === null ? "—" : String(a));
      expect(item.title).toBe(
        `${c.modelName} (${c.providerName}): ${c.label} ${amount(c.oldAmount)} → ${amount(c.newAmount)}`,
      );
      expect(item.category).toBe(c.kind);
      expect(item.link).toBe(`${server.base}/api/v1/models/${c.model}`);
      expect(new Date(item.pubDate as string).toISOString()).toBe(c.occurredAt);
      expect((item.guid as Record<string, string>)["@_isPermaLink"]).toBe("false");
    });
  });
});

describe("GET /models/{provider}/{model}/history (D17)", () => {
  it("shows a real price change as two points with the right dates and amounts", async () => {
    const { data, meta } = await json<ApiHistorySeries[]>("/api/v1/models/deepseek/deepseek-v4-pro/history");
    expect(meta).toMatchObject({ model: "deepseek/deepseek-v4-pro", granularity: "change" });
    const input = data.find((s) => s.label === "Input");
    expect(input).toEqual({
      label: "Input",
      displayUnit: "USD per 1M tokens",
      points: [
        ["2026-05-01", 1.74],
        ["2026-06-01", 0.435],
      ],
      // Additions (T456): still published, never away.
      endedOn: null,
      gaps: [],
    });
  });

  it("from/to keep the points inside the inclusive range and drop emptied series", async () => {
    const later = await json<ApiHistorySeries[]>("/api/v1/models/deepseek/deepseek-v4-pro/history?from=2026-06-01");
    expect(later.data.find((s) => s.label === "Input")?.points).toEqual([["2026-06-01", 0.435]]);
    const earlier = await json<ApiHistorySeries[]>("/api/v1/models/deepseek/deepseek-v4-pro/history?to=2026-05-31");
    expect(earlier.data.find((s) => s.label === "Input")?.points).toEqual([["2026-05-01", 1.74]]);
    const none = await json<ApiHistorySeries[]>("/api/v1/models/deepseek/deepseek-v4-pro/history?to=2025-01-01");
    expect(none.data).toEqual([]);
  });

  it("starts before our first run where the upstream dates its own history (llm-prices), folding equal amounts", async () => {
    const { data } = await json<ApiHistorySeries[]>("/api/v1/models/deepseek/deepseek-chat/history");
    const input = data.find((s) => s.label === "Input");
    // llm-prices historical-v1.json: 0.27 from 2025-02-08; our first run (2025-07-01) also saw 0.27 (folded).
    expect(input?.points[0]).toEqual(["2025-02-08", 0.27]);
    expect(input?.points.map((p) => p[0])).not.toContain("2025-07-01");
    // models.dev's maker-wide cut of 2026-05 is published when it shows (issue 24, T170)
    expect(input?.points.at(-1)).toEqual(["2026-05-01", 0.14]);
  });

  it("unknown models are a 404 with the id; bad dates a 400 before the lookup (D14)", async () => {
    const missing = await server.get("/api/v1/models/deepseek/nothing/history");
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { detail: string }).detail).toBe("deepseek/nothing");
    for (const q of ["from=2026-02-30", "to=20260101", "from=2026-06-01&to=2026-05-01"]) {
      const res = await server.get(`/api/v1/models/nobody/nothing/history?${q}`);
      expect(res.status, q).toBe(400);
    }
  });
});
