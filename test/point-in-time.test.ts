import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, vi } from "vitest";
import { toApiPrice } from "../src/catalogue/api-shapes.js";
import { loadView, StoreSpans } from "../src/catalogue/load-view.js";
import type { ApiCostEstimate, ApiModel, ApiPrice, ApiRate } from "../src/catalogue/schemas.js";
import { buildView, type CatalogueView } from "../src/catalogue/view.js";
import { ViewHolder } from "../src/catalogue/view-holder.js";
import { CHANNELS } from "../src/domain/channel.js";
import type { Dataset } from "../src/domain/dataset.js";
import { createMcpServer } from "../src/mcp/server.js";
import { SOURCES } from "../src/sources/registry.js";
import { openPostgresStore } from "../src/store/open-store.js";
import { bindShared } from "./fixtures.js";
import { judgedNow, openReplayStore, readReplayStore, startServer, type TestServer } from "./harness.js";
import { textOf } from "./mcp-support.js";

// Point-in-time prices (issue 17 §2, T146–T148): `at=YYYY-MM-DD` answers what the newest dataset
// version dated on or before that day published, read from the store's price spans.
let server: TestServer;
let view: CatalogueView;
let september: Dataset;
let versions: string[];

// The worker's shared API on a loopback port (test/fixtures.ts, T274), bound before the file's first
// test, with the September version and the run list read once from the replay's store.
const it = bindShared("apiServer", async (boundView, boundServer) => {
  view = boundView;
  server = boundServer;
  [september, versions] = await readReplayStore(async (store) => [
    (await store.loadDataset("2025-09-01T00:00:00.000Z"))!,
    (await store.listRuns()).map((r) => r.datasetVersion),
  ]);
});

interface Body<T> {
  data: T;
  meta: Record<string, unknown> & { datasetVersion: string };
}

async function get<T>(path: string, status = 200): Promise<{ body: Body<T>; headers: Headers }> {
  const res = await server.get(`/api/v1${path}`);
  expect(res.status, path).toBe(status);
  return { body: (await res.json()) as Body<T>, headers: res.headers };
}

describe("at= on /models/{provider}/{model}", () => {
  it("at=2025-09-15 on deepseek/deepseek-chat answers what the 2025-09-01 run published, in every channel", async () => {
    for (const channel of CHANNELS) {
      const { body, headers } = await get<ApiModel>(`/models/deepseek/deepseek-chat?at=2025-09-15&channel=${channel}`);
      const published = september.prices
        .filter((p) => p.modelId === "deepseek/deepseek-chat" && p.channel === channel)
        .map(toApiPrice);
      expect(body.data.prices, channel).toEqual(published);
      expect(body.meta).toMatchObject({ datasetVersion: "2025-09-01T00:00:00.000Z", at: "2025-09-15", channel });
      expect(headers.get("x-dataset-version")).toBe("2025-09-01T00:00:00.000Z");
    }
    const direct = await get<ApiModel>("/models/deepseek/deepseek-chat?at=2025-09-15");
    // The maker's prices then: 0.27 input, 1.1 output (2026-06 publishes 0.14 / 0.28).
    expect(direct.body.data.prices.find((p) => p.label === "Input")?.amount).toBe(0.27);
    expect(direct.body.data.prices.find((p) => p.label === "Output")?.amount).toBe(1.1);
    const record = september.models.find((m) => m.id === "deepseek/deepseek-chat")!;
    expect(direct.body.data).toMatchObject({
      name: record.name,
      lifecycle: record.lifecycle,
      firstSeenAt: record.firstSeenAt,
    });
  });

  it("at = the newest run's date answers exactly what /models/{provider}/{model} answers (deep-equal)", async () => {
    const day = view.version.slice(0, 10);
    const ids = [
      "deepseek/deepseek-chat",
      "anthropic/claude-sonnet-4-5",
      "openai/gpt-4o",
      "google/gemini-2.5-pro",
      "moonshotai/kimi-k2.5",
      ...view.models.filter((_, i) => i % 97 === 0).map((m) => m.model.id),
    ];
    let compared = 0;
    for (const id of ids)
      for (const channel of CHANNELS) {
        const now = await get<ApiModel>(`/models/${id}?channel=${channel}`);
        const at = await get<ApiModel>(`/models/${id}?channel=${channel}&at=${day}`);
        // `evidence` (T294) comes from the price's observations, which the spans do not keep: present
        // without `at` only, as `dissentingAmounts` (T201).
        const withoutEvidence = (m: ApiModel) => ({
          ...m,
          prices: m.prices.map(({ evidence: _, ...p }) => p),
        });
        expect(at.body.data.prices.some((p) => p.evidence !== undefined)).toBe(false);
        expect(at.body.data, `${id} ${channel}`).toStrictEqual(withoutEvidence(now.body.data));
        expect(at.body.meta.datasetVersion).toBe(now.body.meta.datasetVersion);
        compared += now.body.data.prices.length;
      }
    expect(compared).toBeGreaterThan(200);
  });

  it("every replayed version reads back from the spans as it was published", async () => {
    for (const version of versions) {
      const day = version.slice(0, 10);
      const { body } = await get<ApiModel>(`/models/openai/gpt-4o?at=${day}`);
      expect(body.meta.datasetVersion).toBe(version);
    }
    expect(versions.length).toBe(12);
  });

  it("a day before the first run is a 404 for the model; a malformed day is a 400; a future day the served prices (T336)", async () => {
    const before = await get<unknown>("/models/deepseek/deepseek-chat?at=2025-06-30", 404);
    expect(before.body).toMatchObject({ status: 404, detail: "deepseek/deepseek-chat" });
    // The replay announces nothing (test/announced-prices.test.ts): a future day answers as today.
    const future = await get<ApiModel>("/models/deepseek/deepseek-chat?at=2999-01-01");
    const today = await get<ApiModel>("/models/deepseek/deepseek-chat");
    expect(future.body.meta).toMatchObject({ at: "2999-01-01", datasetVersion: view.version });
    // An `at` answer carries no page evidence (the spans hold none, T147): DeepSeek's CNY list, which
    // its page alone states (T512), has `evidence` today only.
    const withoutEvidence = (prices: readonly ApiPrice[]) => prices.map(({ evidence: _, ...p }) => p);
    expect(withoutEvidence(future.body.data.prices)).toEqual(withoutEvidence(today.body.data.prices));
    expect(today.body.data.prices.some((p) => p.evidence !== undefined)).toBe(true);
    for (const bad of ["2025-02-30", "2025-9-1", "yesterday", ""]) {
      const res = await server.get(`/api/v1/models/deepseek/deepseek-chat?at=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/^at must/);
    }
  });

  it("a model first published later is a 404 on an earlier day", async () => {
    const late = view.models.find((m) => m.model.firstSeenAt === "2026-06-01T00:00:00.000Z" && m.model.listed)!;
    await get<unknown>(`/models/${late.model.id}?at=2026-05-15`, 404);
    await get<ApiModel>(`/models/${late.model.id}?at=2026-06-01`);
  });
});

describe("at= on the lists", () => {
  it("/rates?at= equals the rates of the version in force then", async () => {
    const { body } = await get<ApiRate[]>("/rates?at=2025-09-15");
    const then = buildView(september, SOURCES).rates;
    expect(body.data).toStrictEqual(then);
    expect(body.meta).toMatchObject({
      datasetVersion: "2025-09-01T00:00:00.000Z",
      at: "2025-09-15",
      count: then.length,
    });
    expect(body.data.length).toBeLessThan(view.rates.length);
  });

  it("/compare?at= gives each model's direct prices then and drops models not published yet", async () => {
    const late = view.models.find((m) => m.model.firstSeenAt > "2025-10-01" && m.model.listed)!.model.id;
    const { body } = await get<ApiModel[]>(`/compare?models=deepseek/deepseek-chat,${late}&at=2025-09-15`);
    expect(body.meta).toMatchObject({ found: 1, requested: 2, at: "2025-09-15" });
    expect(body.data[0]?.prices).toEqual(
      september.prices.filter((p) => p.modelId === "deepseek/deepseek-chat" && p.channel === "direct").map(toApiPrice),
    );
  });

  it("/cost?at= prices the workload at that day's prices", async () => {
    // 100 requests of 10,000 input tokens: one request of 1M would exceed DeepSeek's context window (T200).
    const q = "/cost?model=deepseek/deepseek-chat&inputTokens=1000000&outputTokens=1000000&requests=100";
    const then = await get<ApiCostEstimate[]>(`${q}&at=2025-09-15`);
    expect(then.body.data[0]?.totals).toEqual([{ denomination: "currency", currency: "USD", amount: 1.37 }]);
    const now = await get<ApiCostEstimate[]>(q);
    expect(now.body.data[0]?.totals).toEqual([{ denomination: "currency", currency: "USD", amount: 0.42 }]);
  });

  it("before the first run the lists are empty, not errors", async () => {
    expect((await get<ApiRate[]>("/rates?at=2024-01-01")).body.data).toEqual([]);
    expect(
      (await get<ApiModel[]>("/compare?models=openai/gpt-4o,deepseek/deepseek-chat&at=2024-01-01")).body.meta,
    ).toMatchObject({
      found: 0,
      requested: 2,
    });
    const cost = await get<ApiCostEstimate[]>(
      "/cost?models=openai/gpt-4o,deepseek/deepseek-chat&inputTokens=1&at=2024-01-01",
    );
    expect(cost.body.data).toEqual([]);
  });
});

describe("cache headers (issue 17 §4, T148)", () => {
  it.each([
    ["/compare?models=openai/gpt-4o,deepseek/deepseek-chat", 300],
    ["/cost?model=openai/gpt-4o&inputTokens=1", 300],
    ["/rates", 3600],
    ["/models/openai/gpt-4o", 3600],
  ])("%s: max-age 3600 for an at in the past, the route's own for the current day", async (path, own) => {
    const sep = path.includes("?") ? "&" : "?";
    const past = await server.get(`/api/v1${path}${sep}at=2025-09-15`);
    expect(past.headers.get("cache-control")).toBe("public, max-age=3600, s-maxage=3600, stale-while-revalidate=86400");
    const today = await server.get(`/api/v1${path}${sep}at=${view.version.slice(0, 10)}`);
    expect(today.headers.get("cache-control")).toBe(
      `public, max-age=${own}, s-maxage=3600, stale-while-revalidate=86400`,
    );
    const etag = past.headers.get("etag")!;
    const again = await server.get(`/api/v1${path}${sep}at=2025-09-15`, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("a day in the future (T147, amended by T336)", () => {
  it("answers from the served version (announced prices due by then); a price-file export is a 400 until that day", async () => {
    vi.useFakeTimers({ toFake: ["Date", "performance"], now: new Date("2026-11-23T23:59:00.000Z") });
    try {
      const path = "/api/v1/cost?model=openai/gpt-4o&inputTokens=1000&at=2026-11-24";
      const early = await server.get(path);
      expect(early.status).toBe(200);
      expect(((await early.json()) as Body<unknown>).meta).toMatchObject({
        at: "2026-11-24",
        datasetVersion: view.version,
      });
      const exportPath = "/api/v1/exports/models-dev/api.json?at=2026-11-24";
      const refused = await server.get(exportPath);
      expect(refused.status).toBe(400);
      expect(refused.headers.get("cache-control")).toBe("public, max-age=60");
      vi.setSystemTime(new Date("2026-11-24T00:01:00.000Z"));
      const later = await server.get(exportPath);
      expect(later.status).toBe(200);
      expect(later.headers.get("x-dataset-version")).toBe(view.version);
    } finally {
      vi.useRealTimers();
    }
  });
});

// Issue 26 §4 (T199): the at= index is read per question, one version at a time, through one
// store kept open; a store that cannot be read is a 503 problem with Retry-After (a tool error
// with the same problem over MCP), tried again only after a backoff, and answers again once back.
describe("the store behind at= (issue 26 §4)", () => {
  let lazy: TestServer;
  let client: Client;
  let down = true;
  let now = 0;
  let opens = 0;
  const reads: string[] = [];
  const faults: unknown[] = [];
  let spans: StoreSpans;

  beforeAll(async () => {
    spans = new StoreSpans(
      async () => {
        opens++;
        // Nothing listens on port 1: the connection is refused, as with PostgreSQL down.
        const store = down
          ? await openPostgresStore("postgres://tariff:tariff@127.0.0.1:1/tariff")
          : await openReplayStore();
        const counted = new Proxy(store, {
          get(target, key, receiver) {
            if (key === "loadSpansAt")
              return (v: string) => {
                reads.push(v);
                return target.loadSpansAt(v);
              };
            const value = Reflect.get(target, key, receiver);
            return typeof value === "function" ? value.bind(target) : value;
          },
        });
        return { store: counted, release: () => store.close() };
      },
      { now: () => now },
    );
    const store = await openReplayStore();
    // Judged as of the replay's last run, as the shared view it is compared with (T463).
    const lazyView = judgedNow((await loadView(store, SOURCES, undefined, spans))!, Date.parse(view.version));
    await store.close();
    lazy = await startServer(lazyView);
    const views = new ViewHolder(lazyView);
    const mcp = createMcpServer(views, (error) => faults.push(error));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: "test", version: "1" });
    await Promise.all([mcp.connect(serverSide), client.connect(clientSide)]);
  });
  afterAll(async () => {
    await client.close();
    await lazy.close();
  });

  const question = "/api/v1/models/deepseek/deepseek-chat?at=2025-09-15";

  it("with the store unreachable, at= is a 503 problem with Retry-After, not tried again before the backoff ends", async () => {
    const res = await lazy.get(question);
    expect(res.status).toBe(503);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await res.json()).toMatchObject({ status: 503, title: "Service Unavailable" });
    expect(opens).toBe(1);
    // Within the backoff no connection is tried: every at= question is answered 503 at once.
    now = 500;
    for (const path of [
      question,
      "/api/v1/rates?at=2025-10-15",
      "/api/v1/compare?models=openai/gpt-4o,deepseek/deepseek-chat&at=2025-10-15",
    ]) {
      const again = await lazy.get(path);
      expect(again.status, path).toBe(503);
      expect(again.headers.get("retry-after"), path).toBe("1");
    }
    expect(opens).toBe(1);
    // Questions without at= (and routes that ignore at=) do not need the store.
    expect((await lazy.get("/api/v1/meta?at=2025-09-15")).status).toBe(200);
    expect((await lazy.get("/api/v1/models/deepseek/deepseek-chat")).status).toBe(200);
  });

  it("over MCP the same problem is the tool error, with retryAfterSeconds", async () => {
    const result = (await client.callTool({
      name: "get_model",
      arguments: { provider: "deepseek", model: "deepseek-chat", at: "2025-09-15" },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result))).toMatchObject({ status: 503, retryAfterSeconds: 1 });
    expect(opens).toBe(1);
    expect(faults).toEqual([]);
  });

  it("once the store is back, the first question after the backoff answers as the whole index does", async () => {
    down = false;
    now = 60_000;
    const res = await lazy.get(question);
    expect(res.status).toBe(200);
    const whole = await server.get(question);
    const [lazyBody, wholeBody] = [(await res.json()) as Body<ApiModel>, (await whole.json()) as Body<ApiModel>];
    // The same answer; only generatedAt, the time each view was built, differs.
    expect(lazyBody.data).toStrictEqual(wholeBody.data);
    expect({ ...lazyBody.meta, generatedAt: null }).toStrictEqual({ ...wholeBody.meta, generatedAt: null });
    const tool = (await client.callTool({
      name: "get_model",
      arguments: { provider: "deepseek", model: "deepseek-chat", at: "2025-10-15" },
    })) as CallToolResult;
    expect(tool.isError).toBeFalsy();
    expect(tool.structuredContent).toMatchObject({
      meta: { at: "2025-10-15", datasetVersion: "2025-10-01T00:00:00.000Z" },
    });
    expect(opens).toBe(2);
  });

  it("reads one version per question from the store it keeps open, and keeps the last four versions asked", async () => {
    const days = versions.map((v) => v.slice(0, 10));
    const read = reads.length;
    for (const day of days.slice(0, 6)) expect((await lazy.get(`/api/v1/rates?at=${day}`)).status, day).toBe(200);
    // 2025-09-01's and 2025-10-01's versions are kept from the questions before; each other is read once.
    const kept = ["2025-09-01T00:00:00.000Z", "2025-10-01T00:00:00.000Z"];
    expect(reads.slice(read)).toEqual(versions.slice(0, 6).filter((v) => !kept.includes(v)));
    const after = reads.length;
    // The newest four are kept: asking the sixth again reads nothing, the first again reads it anew.
    expect((await lazy.get(`/api/v1/compare?models=openai/gpt-4o,deepseek/deepseek-chat&at=${days[5]}`)).status).toBe(
      200,
    );
    expect(reads.length).toBe(after);
    // `at` spelled with percent-encoding is the same question (the route decodes names): loaded too.
    expect((await lazy.get(`/api/v1/rates?%61t=${days[6]}&provider=openai`)).status).toBe(200);
    expect(reads.length).toBe(after + 1);
    expect((await lazy.get(`/api/v1/compare?models=openai/gpt-4o,deepseek/deepseek-chat&at=${days[0]}`)).status).toBe(
      200,
    );
    expect(reads.length).toBe(after + 2);
    expect(opens).toBe(2);
  });

  it("with the store gone again, built answers and days on or after the served version's need no store", async () => {
    down = true;
    await spans.close();
    now += 3_600_000;
    const before = opens;
    // A HEAD goes through the Fastify route (the fast path answers GETs): built, so no index needed.
    const head = await fetch(`${lazy.base}${question}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    const today = view.version.slice(0, 10);
    for (const path of [`/api/v1/models/openai/gpt-4o?at=${today}`, `/api/v1/rates?at=${today}`]) {
      const res = await lazy.get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("x-dataset-version"), path).toBe(view.version);
      // The same answer as the index of every span gives.
      const whole = (await (await server.get(path)).json()) as Body<unknown>;
      expect(((await res.json()) as Body<unknown>).data, path).toStrictEqual(whole.data);
    }
    expect(opens).toBe(before);
    // Anything else does need it, and it is down.
    expect((await lazy.get("/api/v1/rates?at=2026-02-15")).status).toBe(503);
    expect(opens).toBe(before + 1);
  });
});
