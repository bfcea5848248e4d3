import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { RateLimiterMemory } from "rate-limiter-flexible";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CatalogueView } from "../src/catalogue/view.js";
import { loadConfig } from "../src/cli/config.js";
import { createRateLimitRedis } from "../src/cli/redis.js";
import { precomputed } from "../src/http/create-app.js";
import { loadReplay, SAMPLE_MODEL, startServer, type TestServer } from "./harness.js";

// D24 over real HTTP, on both paths (issue 16, T130): the fast path answers the responses built
// for the version (e.g. /meta, /providers, a model), the Fastify path everything else; each suite
// runs once with the fast path on and once with it off, so every assertion holds on both. Limits
// are small; the window is moved by a fake clock (T231), never by sleeping, and every
// window-dependent assertion is on counts and headers, never on elapsed time.
let view: CatalogueView;
beforeAll(async () => {
  const replay = await loadReplay();
  await replay.store.close();
  view = replay.view;
});

async function withServer<T>(options: Parameters<typeof startServer>[1], run: (s: TestServer) => Promise<T>) {
  const server = await startServer(view, { precompute: true, ...options });
  try {
    // The fast path answers only what is built: wait for the version's responses.
    await precomputed(server.app);
    return await run(server);
  } finally {
    await server.close();
  }
}

const rateHeaders = (res: Response) => ({
  limit: res.headers.get("ratelimit-limit"),
  remaining: res.headers.get("ratelimit-remaining"),
  reset: res.headers.get("ratelimit-reset"),
});

const MODEL = `/api/v1/models/${SAMPLE_MODEL.provider}/${SAMPLE_MODEL.model}`;
const PATHS = [
  { path: "fast path", fastPath: true },
  { path: "Fastify path", fastPath: false },
] as const;

describe.each(PATHS)("D24 rate limit, $path", ({ fastPath }) => {
  it("RATE_LIMIT_PER_MINUTE defaults to 300, and 300 is what the headers say", async () => {
    expect(loadConfig({}).rateLimitPerMinute).toBe(300);
    expect(loadConfig({ RATE_LIMIT_PER_MINUTE: "20" }).rateLimitPerMinute).toBe(20);
    await withServer({ fastPath, rateLimitPerMinute: loadConfig({}).rateLimitPerMinute }, async (s) => {
      const res = await s.get("/api/v1/meta");
      expect(rateHeaders(res)).toEqual({ limit: "300", remaining: "299", reset: "60" });
    });
  });

  it("with a limit of 20 the 21st request within a minute is a 429 problem with Retry-After, no-store and CORS", async () => {
    await withServer({ fastPath, rateLimitPerMinute: 20 }, async (s) => {
      for (let i = 1; i <= 20; i++) {
        const res = await s.get("/api/v1/providers");
        expect(res.status).toBe(200);
        expect(rateHeaders(res).remaining).toBe(String(20 - i));
        await res.arrayBuffer();
      }
      const res = await s.get("/api/v1/providers");
      expect(res.status).toBe(429);
      const retryAfter = res.headers.get("retry-after")!;
      expect(retryAfter).toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(retryAfter)).toBeLessThanOrEqual(60);
      expect(rateHeaders(res)).toMatchObject({ limit: "20", remaining: "0" });
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("etag")).toBeNull();
      expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toEqual({
        type: "about:blank",
        title: "Too Many Requests",
        status: 429,
        detail: expect.stringMatching(/rate limit of 20 requests per minute/),
      });
    });
  });

  it("304, 400, 404, 405 and router-level 400 count and carry the RateLimit headers; preflights do not", async () => {
    await withServer({ fastPath, rateLimitPerMinute: 50 }, async (s) => {
      const etag = (await s.get("/api/v1/meta")).headers.get("etag")!;
      const seen: (string | null)[] = [];
      const counted = [
        await s.get("/api/v1/meta", { "if-none-match": etag }),
        await s.get("/api/v1/models?limit=0"),
        await s.get("/api/v1/models/anthropic/none"),
        await s.get("/api/v1/no-such-endpoint"),
        await fetch(`${s.base}/api/v1/meta`, { method: "PATCH" }),
        await s.get("/api/v1/models/%E0%A4%A/x"),
      ];
      expect(counted.map((r) => r.status)).toEqual([304, 400, 404, 404, 405, 400]);
      for (const res of counted) {
        expect(res.headers.get("ratelimit-limit")).toBe("50");
        seen.push(res.headers.get("ratelimit-remaining"));
      }
      expect(seen).toEqual(["48", "47", "46", "45", "44", "43"]);
      const preflight = await fetch(`${s.base}/api/v1/meta`, {
        method: "OPTIONS",
        headers: { origin: "https://a.test", "access-control-request-method": "GET" },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("ratelimit-remaining")).toBeNull();
      expect(rateHeaders(await s.get("/api/v1/meta")).remaining).toBe("42");
    });
  });

  it("with the limit at 0 there is no limit and no RateLimit header", async () => {
    await withServer({ fastPath, rateLimitPerMinute: 0 }, async (s) => {
      for (let i = 0; i < 5; i++) {
        const res = await s.get("/api/v1/models/anthropic/none");
        expect(res.status).toBe(404);
        expect(rateHeaders(res)).toEqual({ limit: null, remaining: null, reset: null });
        expect(res.headers.get("retry-after")).toBeNull();
      }
    });
  });

  it("the window resets: a client refused in one window is served in the next (a fake clock, T231)", async () => {
    let now = 1_000_000;
    await withServer({ fastPath, rateLimitPerMinute: 1, rateLimitClock: () => now }, async (s) => {
      expect(rateHeaders(await s.get("/api/v1/meta"))).toEqual({ limit: "1", remaining: "0", reset: "60" });
      now += 59_001;
      const refused = await s.get("/api/v1/meta");
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("1"); // 999 ms left still says 1 s (whole seconds ≥ 1)
      expect(rateHeaders(refused)).toEqual({ limit: "1", remaining: "0", reset: "1" });
      now += 998; // 1 ms before the window ends: still refused
      expect((await s.get("/api/v1/meta")).status).toBe(429);
      now += 1; // the window ends with its 60 000th ms: a new one starts with this request
      const next = await s.get("/api/v1/meta");
      expect(next.status).toBe(200);
      expect(rateHeaders(next)).toEqual({ limit: "1", remaining: "0", reset: "60" });
    });
  });
});

describe.each(PATHS)("D24 client IP and TRUST_PROXY, $path", ({ fastPath }) => {
  const fromClient = (s: TestServer, xff: string) => s.get("/api/v1/meta", { "x-forwarded-for": xff });

  it("without TRUST_PROXY, X-Forwarded-For is ignored: every request counts against the socket address", async () => {
    await withServer({ fastPath, rateLimitPerMinute: 10 }, async (s) => {
      expect(rateHeaders(await fromClient(s, "203.0.113.1")).remaining).toBe("9");
      expect(rateHeaders(await fromClient(s, "203.0.113.2")).remaining).toBe("8");
    });
  });

  it("a hop count trusts that many proxies: the client is the address before them", async () => {
    expect(loadConfig({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
    await withServer({ fastPath, rateLimitPerMinute: 10, trustProxy: 1 }, async (s) => {
      expect(rateHeaders(await fromClient(s, "203.0.113.1")).remaining).toBe("9");
      expect(rateHeaders(await fromClient(s, "203.0.113.2")).remaining).toBe("9");
      expect(rateHeaders(await fromClient(s, "203.0.113.1")).remaining).toBe("8");
      // One hop: of "spoofed, real", only the address our proxy (the socket) saw is trusted.
      expect(rateHeaders(await fromClient(s, "198.51.100.7, 203.0.113.2")).remaining).toBe("8");
    });
  });

  it("an address/CIDR list trusts those proxies only", async () => {
    expect(loadConfig({ TRUST_PROXY: "127.0.0.0/8, 10.0.0.1" }).trustProxy).toEqual(["127.0.0.0/8", "10.0.0.1"]);
    await withServer({ fastPath, rateLimitPerMinute: 10, trustProxy: ["127.0.0.0/8", "10.0.0.1"] }, async (s) => {
      expect(rateHeaders(await fromClient(s, "203.0.113.1")).remaining).toBe("9");
      expect(rateHeaders(await fromClient(s, "203.0.113.2")).remaining).toBe("9");
      // 10.0.0.1 is a trusted proxy too, so the client is the address before it.
      expect(rateHeaders(await fromClient(s, "203.0.113.2, 10.0.0.1")).remaining).toBe("8");
    });
    await withServer({ fastPath, rateLimitPerMinute: 10, trustProxy: ["10.0.0.0/8"] }, async (s) => {
      // The loopback socket is not a trusted proxy: its X-Forwarded-For is ignored.
      expect(rateHeaders(await fromClient(s, "203.0.113.1")).remaining).toBe("9");
      expect(rateHeaders(await fromClient(s, "203.0.113.2")).remaining).toBe("8");
    });
  });
});

describe("D24 one limit for both paths (issue 16, T130)", () => {
  it("built answers (fast path) and rendered ones (Fastify path) draw on one count, and the 429 comes on either", async () => {
    await withServer({ rateLimitPerMinute: 6 }, async (s) => {
      const seen: [number, string | null][] = [];
      // A built response, then a query no one asked before (rendered by the Fastify path), alternating.
      for (const path of [MODEL, "/api/v1/models?limit=3", "/api/v1/meta", "/api/v1/models?limit=4", MODEL]) {
        const res = await s.get(path);
        seen.push([res.status, res.headers.get("ratelimit-remaining")]);
        await res.arrayBuffer();
      }
      const etag = (await s.get("/api/v1/meta")).headers.get("etag")!; // the 6th
      expect(seen).toEqual([
        [200, "5"],
        [200, "4"],
        [200, "3"],
        [200, "2"],
        [200, "1"],
      ]);
      for (const [path, headers] of [
        [MODEL, {}],
        ["/api/v1/meta", { "if-none-match": etag }],
        ["/api/v1/models?limit=5", {}],
      ] as const) {
        const refused = await s.get(path, headers);
        expect(refused.status, path).toBe(429);
        expect(rateHeaders(refused), path).toMatchObject({ limit: "6", remaining: "0" });
        expect(Number(refused.headers.get("retry-after")), path).toBeGreaterThanOrEqual(1);
        expect(refused.headers.get("etag"), path).toBeNull();
        expect(((await refused.json()) as { status: number }).status, path).toBe(429);
      }
    });
  });

  it("a fast-path 200 and 304 carry the same headers as the Fastify path's, the counts filled in per request", async () => {
    await withServer({ rateLimitPerMinute: 100 }, async (fast) => {
      await withServer({ rateLimitPerMinute: 100, fastPath: false }, async (slow) => {
        for (const path of [MODEL, "/api/v1/meta", "/api/v1/models/nobody/none"]) {
          const a = await fast.get(path);
          const b = await slow.get(path);
          expect(a.status, path).toBe(b.status);
          expect(
            [...a.headers].filter(([k]) => k !== "date"),
            path,
          ).toEqual([...b.headers].filter(([k]) => k !== "date"));
          expect(await a.text(), path).toBe(await b.text());
          const etag = { "if-none-match": a.headers.get("etag")! };
          const [a304, b304] = [await fast.get(path, etag), await slow.get(path, etag)];
          expect(a304.status, path).toBe(a.status === 200 ? 304 : a.status);
          expect(
            [...a304.headers].filter(([k]) => k !== "date"),
            path,
          ).toEqual([...b304.headers].filter(([k]) => k !== "date"));
        }
        // Three paths × two requests each on each server: the same counts on both.
        expect(rateHeaders(await fast.get(MODEL)).remaining).toBe("93");
        expect(rateHeaders(await slow.get(MODEL)).remaining).toBe("93");
      });
    });
  });

  it("a limiter passed in (any rate-limiter-flexible store) counts both paths, keyed by client IP", async () => {
    const limiter = new RateLimiterMemory({ points: 2, duration: 60, keyPrefix: "injected" });
    await withServer({ rateLimitPerMinute: 2, rateLimiter: limiter }, async (s) => {
      expect((await s.get("/api/v1/meta")).status).toBe(200);
      expect((await s.get("/api/v1/models?limit=2")).status).toBe(200);
      expect((await s.get("/api/v1/meta")).status).toBe(429);
    });
    expect((await limiter.get("127.0.0.1"))?.consumedPoints).toBe(3);
  });
});

describe("D24 shared through real Redis (127.0.0.1:6379; fails, never skips, without it)", () => {
  // Keys under a prefix of this run, so the sqlite and postgres projects never share counters.
  const prefix = `tariff-test-${randomUUID()}:`;
  const clients: Redis[] = [];
  const client = () => {
    const redis = new Redis("redis://127.0.0.1:6379/0", { keyPrefix: prefix, lazyConnect: false });
    clients.push(redis);
    return redis;
  };
  afterAll(async () => {
    const keys = await clients[0]?.keys(`${prefix}*`);
    if (keys?.length) await clients[0]?.del(...keys.map((k) => k.slice(prefix.length)));
    for (const c of clients) c.disconnect();
  });

  it("two apps (one answering on its fast path, one through Fastify) share one count per client", async () => {
    const [a, b] = [client(), client()];
    await Promise.all([a, b].map((r) => new Promise((resolve) => r.once("ready", resolve))));
    await withServer({ rateLimitPerMinute: 4, rateLimitRedis: a }, async (fast) => {
      await withServer({ rateLimitPerMinute: 4, rateLimitRedis: b, fastPath: false }, async (slow) => {
        const answers = [];
        const resets: number[] = [];
        for (const s of [fast, slow, fast, slow, fast, slow]) {
          const res = await s.get("/api/v1/providers");
          answers.push([res.status, res.headers.get("ratelimit-remaining")]);
          resets.push(Number(res.headers.get("ratelimit-reset")));
          await res.arrayBuffer();
        }
        expect(answers).toEqual([
          [200, "3"],
          [200, "2"],
          [200, "1"],
          [200, "0"],
          [429, "0"],
          [429, "0"],
        ]);
        // One window, started by the first request: every process says the same reset, within a minute.
        for (const reset of resets) expect(reset).toBeGreaterThanOrEqual(59);
        for (const reset of resets) expect(reset).toBeLessThanOrEqual(60);
      });
    });
  });

  it.each(PATHS)(
    "with Redis unreachable the $path serves uncounted, without RateLimit headers (T30)",
    async ({ fastPath }) => {
      const warnings: string[] = [];
      const log = { warn: (_o: unknown, m: string) => warnings.push(m), info: () => {} };
      const down = createRateLimitRedis("redis://127.0.0.1:6399", log as never);
      try {
        await withServer({ fastPath, rateLimitPerMinute: 1, rateLimitRedis: down }, async (s) => {
          for (let i = 0; i < 3; i++) {
            const res = await s.get("/api/v1/meta");
            expect(res.status).toBe(200);
            expect(rateHeaders(res)).toEqual({ limit: null, remaining: null, reset: null });
            expect(JSON.parse(await res.text()).data.datasetVersion).toBe(view.version);
          }
        });
        expect(warnings.length).toBe(1);
      } finally {
        down.disconnect();
      }
    },
  );
});
