import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CatalogueView } from "../src/catalogue/view.js";
import { COLD_PAST_DAY_POINTS } from "../src/http/api-routes.js";
import { responsesOf } from "../src/http/create-app.js";
import { loadReplay, type MemoryServer, memoryServer } from "./harness.js";

// Issue 47 §2 (T470–T472): past days off the hot path, on the bundled replay (12 monthly versions).
// A price-file export of every day of one version is one computation; `?at=` in any parameter order
// is one render; a cold past day costs more against D24 (the worker thread answers the same bytes
// as the process: test/past-day-worker.test.ts, a spawn suite). No assertion on time.

const GENAI = "/api/v1/exports/genai-prices/data.json";
let view: CatalogueView;
let server: MemoryServer;

beforeAll(async () => {
  const replay = await loadReplay();
  await replay.store.close();
  view = replay.view;
  server = await memoryServer(view, { precompute: false });
});
afterAll(async () => {
  await server.close();
});

describe("one computation per version (T470)", () => {
  it("two days of one version share one export computation: the same body, each its own ETag", async () => {
    const pastDays = responsesOf(server.app)!.pastDays;
    const before = pastDays.computations;
    const first = await server.get(`${GENAI}?at=2025-10-05`);
    const second = await server.get(`${GENAI}?at=2025-10-28`);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(pastDays.computations).toBe(before + 1);
    expect(await second.text()).toBe(await first.text());
    expect(second.headers.get("x-dataset-version")).toBe("2025-10-01T00:00:00.000Z");
    expect(first.headers.get("x-dataset-version")).toBe("2025-10-01T00:00:00.000Z");
    expect(second.headers.get("etag")).not.toBe(first.headers.get("etag"));
    // A day of another version is another computation.
    expect((await server.get(`${GENAI}?at=2025-11-05`)).headers.get("x-dataset-version")).toBe(
      "2025-11-01T00:00:00.000Z",
    );
    expect(pastDays.computations).toBe(before + 2);
  });

  it("an impossible date and a future day share nothing: each is the export's own 400", async () => {
    for (const at of ["2025-10-32", "2025-02-30", "2999-01-01"]) {
      const res = await server.get(`${GENAI}?at=${at}`);
      expect(res.status, at).toBe(400);
    }
  });

  it("an answer that echoes the day (/models, meta.at) is computed per day", async () => {
    const pastDays = responsesOf(server.app)!.pastDays;
    const before = pastDays.computations;
    const a = (await (await server.get("/api/v1/models?limit=5&at=2025-10-05")).json()) as { meta: { at: string } };
    const b = (await (await server.get("/api/v1/models?limit=5&at=2025-10-06")).json()) as { meta: { at: string } };
    expect([a.meta.at, b.meta.at]).toEqual(["2025-10-05", "2025-10-06"]);
    expect(pastDays.computations).toBe(before + 2);
  });
});

describe("canonical keys (T198, T471)", () => {
  it("/models?limit=500&at=… in two parameter orders is one render, the same bytes", async () => {
    const responses = responsesOf(server.app)!;
    const before = responses.renders;
    const one = await server.get("/api/v1/models?limit=500&at=2026-01-09&channel=direct");
    const two = await server.get("/api/v1/models?channel=direct&at=2026-01-09&limit=500");
    expect(one.status).toBe(200);
    expect(await two.text()).toBe(await one.text());
    expect(responses.renders).toBe(before + 1);
  });
});

describe("the D24 limit charges a cold past day more (T472)", () => {
  let limited: MemoryServer;
  beforeAll(async () => {
    limited = await memoryServer(view, { precompute: false, rateLimitPerMinute: 25 });
  });
  afterAll(async () => {
    await limited.close();
  });

  it(`a cold past day counts ${COLD_PAST_DAY_POINTS}, the same day again 1; over the limit the 429 says why`, async () => {
    const path = "/api/v1/models/openai/gpt-4o";
    const cold = await limited.get(`${path}?at=2025-12-03`);
    expect(cold.status).toBe(200);
    expect(cold.headers.get("ratelimit-remaining")).toBe(String(25 - COLD_PAST_DAY_POINTS));
    const again = await limited.get(`${path}?at=2025-12-03`);
    expect(again.headers.get("ratelimit-remaining")).toBe(String(25 - COLD_PAST_DAY_POINTS - 1));
    // Today's answer, not a past day: one request.
    const today = await limited.get(path);
    expect(today.headers.get("ratelimit-remaining")).toBe(String(25 - COLD_PAST_DAY_POINTS - 2));
    const second = await limited.get(`${path}?at=2025-12-04`);
    expect(second.headers.get("ratelimit-remaining")).toBe(String(25 - 2 * COLD_PAST_DAY_POINTS - 2));
    const refused = await limited.get(`${path}?at=2025-12-05`);
    expect(refused.status).toBe(429);
    const problem = (await refused.json()) as { detail: string };
    expect(problem.detail).toContain("rate limit of 25 requests per minute exceeded");
    expect(problem.detail).toContain(`counts as ${COLD_PAST_DAY_POINTS} requests`);
  });
});
