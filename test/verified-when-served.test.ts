import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CatalogueView } from "../src/catalogue/view.js";
import { ViewHolder } from "../src/catalogue/view-holder.js";
import { DAY_MS, VERIFIED_PAGE_MAX_AGE_DAYS } from "../src/domain/freshness.js";
import { createApp } from "../src/http/create-app.js";
import { weakEtag } from "../src/http/etag.js";
import { renderModel, renderRates } from "../src/mcp/render.js";
import { judgedNow, loadReplay, type MemoryServer, memoryServer } from "./harness.js";

// issue 46 §5 Must show (T460–T463): `verified` means fresh, judged when the answer is served. The
// bundled replay's last run is 2026-06-01; served today (the real clock) its makers' pages were last
// read months ago, so no price is `verified` anywhere and each says why; served as of the last run,
// the pages' prices are `verified` as the version built them.

interface Price {
  confidence: string;
  sources: string[];
  pageStale?: { source: string; lastReadAt: string | null; maxAgeDays: number };
}
interface Model {
  id: string;
  prices: Price[];
}
type Body<T> = { data: T; meta: { nextCursor?: string | null } };

async function json<T>(server: MemoryServer, path: string): Promise<Body<T>> {
  const res = await server.get(path);
  expect(res.status, path).toBe(200);
  return (await res.json()) as Body<T>;
}

/** Every model of `/models` with `query`, page after page. */
async function allModels(server: MemoryServer, query = ""): Promise<Model[]> {
  const out: Model[] = [];
  let cursor: string | null | undefined = null;
  do {
    const page: Body<Model[]> = await json(
      server,
      `/api/v1/models?limit=500${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    out.push(...page.data);
    cursor = page.meta.nextCursor;
  } while (cursor);
  return out;
}

const prices = (models: readonly Model[]) => models.flatMap((m) => m.prices);
const verifiedOf = (list: readonly Price[]) => list.filter((p) => p.confidence === "verified");
const today = () => new Date().toISOString().slice(0, 10);

let view: CatalogueView;
/** The models with a direct `verified` price as of the replay's last run, and those prices' count. */
let verifiedModels: string[];
let verifiedDirect: number;

beforeAll(async () => {
  const replay = await loadReplay();
  await replay.store.close();
  view = replay.view;
  const direct = view.dataset.prices.filter((p) => p.channel === "direct" && p.confidence === "verified");
  verifiedDirect = direct.length;
  verifiedModels = [...new Set(direct.map((p) => p.modelId))].sort();
});

describe("offline today, with the bundled data: no price is verified, and each says why (T460, T461)", () => {
  let server: MemoryServer;
  beforeAll(async () => {
    server = await memoryServer(judgedNow(view));
  });
  afterAll(() => server.close());

  it("the models list: 0 verified; every price the pages made verified names its page and last read", async () => {
    const all = prices(await allModels(server));
    expect(verifiedOf(all)).toEqual([]);
    const lapsed = all.filter((p) => p.pageStale);
    // Every direct price the version built `verified` lost it for a stated reason, and nothing else did.
    expect(lapsed.length).toBe(verifiedDirect);
    const lastSuccess = new Map(view.sources.map((s) => [s.source, s.lastSuccessAt]));
    for (const p of lapsed) {
      expect(p.pageStale?.source).toMatch(/^official-/);
      expect(p.sources).toContain(p.pageStale?.source);
      expect(p.pageStale?.lastReadAt).toBe(lastSuccess.get(p.pageStale!.source));
      expect(p.pageStale?.maxAgeDays).toBe(VERIFIED_PAGE_MAX_AGE_DAYS);
      expect(["high", "medium", "low", "unverified"]).toContain(p.confidence);
    }
    expect(await allModels(server, "&confidence=verified")).toEqual([]);
  });

  it("the model pages, every channel: 0 verified", async () => {
    expect(verifiedModels.length).toBeGreaterThan(50);
    for (const id of verifiedModels) {
      const model = (await json<Model>(server, `/api/v1/models/${id}?channel=all`)).data;
      expect(verifiedOf(model.prices), id).toEqual([]);
      expect(
        model.prices.some((p) => p.pageStale),
        id,
      ).toBe(true);
    }
  });

  it("?at= today: 0 verified, the same reasons", async () => {
    const all = prices(await allModels(server, `&at=${today()}`));
    expect(verifiedOf(all)).toEqual([]);
    expect(all.filter((p) => p.pageStale).length).toBe(verifiedDirect);
  });

  it("/cost: no line and no estimate is verified", async () => {
    const estimates: { confidence: string | null; lines: { confidence: string | null; status: string }[] }[] = [];
    for (let i = 0; i < verifiedModels.length; i += 8) {
      const ids = verifiedModels.slice(i, i + 8);
      const param = ids.length === 1 ? `model=${ids[0]}` : `models=${encodeURIComponent(ids.join(","))}`;
      const body = await json<typeof estimates>(
        server,
        `/api/v1/cost?${param}&inputTokens=1000&outputTokens=100&channel=all`,
      );
      estimates.push(...body.data);
    }
    const lines = estimates.flatMap((e) => e.lines).filter((l) => l.status === "priced");
    expect(lines.length).toBeGreaterThan(100);
    expect(lines.filter((l) => l.confidence === "verified")).toEqual([]);
    expect(estimates.filter((e) => e.confidence === "verified")).toEqual([]);
  });

  it("/rates: none official and none verified; those a page agrees with name it", async () => {
    const rates = (
      await json<{ official: boolean; confidence: string; agreeingSources: string[]; pageStale?: unknown }[]>(
        server,
        "/api/v1/rates",
      )
    ).data;
    expect(rates.filter((r) => r.official)).toEqual([]);
    expect(rates.filter((r) => r.confidence === "verified")).toEqual([]);
    const onPage = rates.filter((r) => r.agreeingSources.some((s) => s.startsWith("official-")));
    expect(onPage.length).toBeGreaterThan(50);
    expect(onPage.filter((r) => !r.pageStale)).toEqual([]);
  });

  it("MCP's text says why: each lapsed price and rate names its page and last read (T514)", async () => {
    const opus = await server.get("/api/v1/models/anthropic/claude-opus-4-0");
    const text = renderModel((await opus.json()) as Parameters<typeof renderModel>[0]);
    const read = view.sources.find((s) => s.source === "official-anthropic")?.lastSuccessAt?.slice(0, 10);
    expect(text).toContain(
      `[high, not verified: official-anthropic last read ${read} (${VERIFIED_PAGE_MAX_AGE_DAYS} days at most)]`,
    );
    expect(text).not.toContain("[verified");
    const rates = renderRates(
      (await (await server.get("/api/v1/rates?provider=anthropic")).json()) as Parameters<typeof renderRates>[0],
    );
    // Anthropic's rates: every one its page agrees with names it.
    const pageRates = rates.split("\n").filter((l) => l.includes("official-"));
    expect(pageRates.length).toBeGreaterThan(0);
    for (const line of pageRates)
      expect(line).toMatch(/, not verified: official-\w+ last read \d{4}-\d{2}-\d{2} \(35 days at most\)\]$/);
  });

  it("the ETag is not the version's: a client's copy judged then is replaced (T462)", async () => {
    const res = await server.get("/api/v1/models");
    expect(res.headers.get("etag")).not.toBe(weakEtag(view.version, "/api/v1/models", ""));
  });
});

describe("as of the replay's last run: the pages' prices are verified as the version built them (T463)", () => {
  let server: MemoryServer;
  beforeAll(async () => {
    server = await memoryServer(view);
  });
  afterAll(() => server.close());

  it("every direct price the version built verified is served verified, and the ETag is the version's", async () => {
    const res = await server.get("/api/v1/models?limit=500");
    expect(res.headers.get("etag")).toBe(weakEtag(view.version, "/api/v1/models", "limit=500"));
    const all = prices(await allModels(server));
    expect(verifiedOf(all).length).toBe(verifiedDirect);
    expect(verifiedDirect).toBeGreaterThan(400);
    expect(all.filter((p) => p.pageStale)).toEqual([]);
  });

  it("MCP's text of a verified price has no stale-page clause", async () => {
    const opus = await server.get("/api/v1/models/anthropic/claude-opus-4-0");
    const text = renderModel((await opus.json()) as Parameters<typeof renderModel>[0]);
    expect(text).toContain("[verified]");
    expect(text).not.toContain("not verified");
  });

  it("/cost prices lines verified from the same pages (what the offline test finds none of)", async () => {
    const ids = verifiedModels.slice(0, 8).join(",");
    const body = await json<{ lines: { confidence: string | null }[] }[]>(
      server,
      `/api/v1/cost?models=${encodeURIComponent(ids)}&inputTokens=1000&outputTokens=100&channel=all`,
    );
    expect(body.data.flatMap((e) => e.lines).filter((l) => l.confidence === "verified").length).toBeGreaterThan(0);
  });
});

describe("a server's clock: the judgement flips when a page's window closes, and the ETag with it (T462)", () => {
  let app: FastifyInstance;
  let now: number;
  const get = async (url: string) => {
    const res = await app.inject({ method: "GET", url });
    return { etag: res.headers.etag, body: res.json() as Body<Model> };
  };
  beforeAll(async () => {
    now = Date.parse(view.version);
    app = await createApp({ views: new ViewHolder(view, () => now), rateLimitPerMinute: 0, logLevel: "silent" });
    await app.ready();
  });
  afterAll(() => app.close());

  it("Anthropic's page (read 2026-05-01) lapses 35 days later; OpenAI's (read 2026-06-01) does not yet", async () => {
    const anthropicRead = view.sources.find((s) => s.source === "official-anthropic")!.lastSuccessAt!;
    const opus = "/api/v1/models/anthropic/claude-opus-4-0";
    const gpt = "/api/v1/models/openai/gpt-4o";
    const before = await get(opus);
    expect(verifiedOf(before.body.data.prices).length).toBeGreaterThan(0);
    const gptBefore = await get(gpt);
    now = Date.parse(anthropicRead) + VERIFIED_PAGE_MAX_AGE_DAYS * DAY_MS + 1;
    const after = await get(opus);
    expect(after.etag).not.toBe(before.etag);
    expect(verifiedOf(after.body.data.prices)).toEqual([]);
    expect(after.body.data.prices.filter((p) => p.pageStale?.source === "official-anthropic").length).toBe(
      verifiedOf(before.body.data.prices).length,
    );
    const gptAfter = await get(gpt);
    expect(verifiedOf(gptAfter.body.data.prices).length).toBe(verifiedOf(gptBefore.body.data.prices).length);
    expect(gptAfter.etag).not.toBe(gptBefore.etag); // the stale pages changed: every judged answer's tag does
  });
});
