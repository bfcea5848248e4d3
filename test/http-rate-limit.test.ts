import type { FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import { beforeAll, describe, expect, it } from "vitest";
import type { CatalogueView } from "../src/catalogue/view.js";
import { loadConfig } from "../src/config.js";
import { loadReplay, startServer, type TestServer } from "./harness.js";

// D24 over real HTTP. Limits are small and windows short so that no test sleeps longer than
// 250 ms; every window-dependent assertion is on counts and headers, never on elapsed time.
let view: CatalogueView;
beforeAll(async () => {
  const replay = await loadReplay();
  await replay.store.close();
  view = replay.view;
});

async function withServer<T>(options: Parameters<typeof startServer>[1], run: (s: TestServer) => Promise<T>) {
  const server = await startServer(view, options);
  try {
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

describe("D24 rate limit", () => {
  it("RATE_LIMIT_PER_MINUTE defaults to 300, and 300 is what the headers say", async () => {
    expect(loadConfig({}).rateLimitPerMinute).toBe(300);
    expect(loadConfig({ RATE_LIMIT_PER_MINUTE: "20" }).rateLimitPerMinute).toBe(20);
    await withServer({ rateLimitPerMinute: loadConfig({}).rateLimitPerMinute }, async (s) => {
      const res = await s.get("/api/v1/meta");
      expect(rateHeaders(res)).toEqual({ limit: "300", remaining: "299", reset: "60" });
    });
  });

  it("with a limit of 20 the 21st request within a minute is a 429 problem with Retry-After, no-store and CORS", async () => {
    await withServer({ rateLimitPerMinute: 20 }, async (s) => {
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
    await withServer({ rateLimitPerMinute: 50 }, async (s) => {
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
    await withServer({ rateLimitPerMinute: 0 }, async (s) => {
      for (let i = 0; i < 5; i++) {
        const res = await s.get("/api/v1/models/anthropic/none");
        expect(res.status).toBe(404);
        expect(rateHeaders(res)).toEqual({ limit: null, remaining: null, reset: null });
        expect(res.headers.get("retry-after")).toBeNull();
      }
    });
  });

  it("the window resets: a client refused in one window is served in the next", async () => {
    await withServer({ rateLimitPerMinute: 1, rateLimitWindowMs: 200 }, async (s) => {
      expect((await s.get("/api/v1/meta")).status).toBe(200);
      const refused = await s.get("/api/v1/meta");
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("1"); // a 200 ms window still says 1 s (whole seconds ≥ 1)
      await new Promise((r) => setTimeout(r, 250));
      expect((await s.get("/api/v1/meta")).status).toBe(200);
    });
  });
});

describe("D24 client IP and TRUST_PROXY", () => {
  const fromClient = (s: TestServer, xff: string) => s.get("/api/v1/meta", { "x-forwarded-for": xff });

  it("without TRUST_PROXY, X-Forwarded-For is ignored: every request counts against the socket address", async () => {
    await withServer({ rateLimitPerMinute: 10 }, async (s) => {
      expect(rateHeaders(await fromClient(s, "203.0.113.1")).remaining).toBe("9");
      expect(rateHeaders(await fromClient(s, "203.0.113.2")).remaining).toBe("8");
    });
  });

  it("a hop count trusts that many proxies: the client is the address before them", async () => {
    expect(loadConfig({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
    await withServer({ rateLimitPerMinute: 10, trustProxy: 1 }, async (s) => {
      expect(rateHeaders(await fromClient(s, "203.0.113.1")).remaining).toBe("9");
      expect(rateHeaders(await fromClient(s, "203.0.113.2")).remaining).toBe("9");
      expect(rateHeaders(await fromClient(s, "203.0.113.1")).remaining).toBe("8");
      // One hop: of "spoofed, real", only the address our proxy (the socket) saw is trusted.
      expect(rateHeaders(await fromClient(s, "198.51.100.7, 203.0.113.2")).remaining).toBe("8");
    });
  });

  it("an address/CIDR list trusts those proxies only", async () => {
    expect(loadConfig({ TRUST_PROXY: "127.0.0.0/8, 10.0.0.1" }).trustProxy).toEqual(["127.0.0.0/8", "10.0.0.1"]);
    await withServer({ rateLimitPerMinute: 10, trustProxy: ["127.0.0.0/8", "10.0.0.1"] }, async (s) => {
      expect(rateHeaders(await fromClient(s, "203.0.113.1")).remaining).toBe("9");
      expect(rateHeaders(await fromClient(s, "203.0.113.2")).remaining).toBe("9");
      // 10.0.0.1 is a trusted proxy too, so the client is the address before it.
      expect(rateHeaders(await fromClient(s, "203.0.113.2, 10.0.0.1")).remaining).toBe("8");
    });
    await withServer({ rateLimitPerMinute: 10, trustProxy: ["10.0.0.0/8"] }, async (s) => {
      // The loopback socket is not a trusted proxy: its X-Forwarded-For is ignored.
      expect(rateHeaders(await fromClient(s, "203.0.113.1")).remaining).toBe("9");
      expect(rateHeaders(await fromClient(s, "203.0.113.2")).remaining).toBe("8");
    });
  });
});

describe("D24 pluggable store", () => {
  it("a store passed in counts the requests, keyed by client IP (the seam a Redis store plugs into)", async () => {
    // Invented store honouring @fastify/rate-limit's store interface; records what it is asked.
    const calls: string[] = [];
    const counts = new Map<string, number>();
    class RecordingStore {
      incr(key: string, cb: (err: Error | null, res: { current: number; ttl: number }) => void, timeWindow: number) {
        calls.push(key);
        const current = (counts.get(key) ?? 0) + 1;
        counts.set(key, current);
        cb(null, { current, ttl: timeWindow });
      }
      child() {
        return this;
      }
    }
    await withServer(
      { rateLimitPerMinute: 2, rateLimitStore: RecordingStore as unknown as FastifyRateLimitStoreCtor },
      async (s) => {
        expect((await s.get("/api/v1/meta")).status).toBe(200);
        expect((await s.get("/api/v1/meta")).status).toBe(200);
        expect((await s.get("/api/v1/meta")).status).toBe(429);
      },
    );
    expect(calls).toEqual(["127.0.0.1", "127.0.0.1", "127.0.0.1"]);
  });
});
