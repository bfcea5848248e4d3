import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { afterEach, describe, expect, it, vi } from "vitest";
import { decimal, RateLimit } from "./rate-limit.js";
import { turnClock, WindowCounter } from "./window-counter.js";

// Issue 30 §2 (T231): the in-process D24 count is synchronous and keeps the rule of
// rate-limiter-flexible's memory store (T130): a fixed window per client from its first request.
// Every window here is moved by a fake clock; nothing sleeps.

afterEach(() => {
  vi.useRealTimers();
});

describe("WindowCounter", () => {
  it("counts per client in a fixed window that starts with the client's first request", () => {
    let now = 5_000;
    const counter = new WindowCounter(60_000, () => now);
    expect(counter.hit("a")).toMatchObject({ consumedPoints: 1, msBeforeNext: 60_000 });
    now += 10_000;
    expect(counter.hit("b")).toMatchObject({ consumedPoints: 1, msBeforeNext: 60_000 });
    expect(counter.hit("a")).toMatchObject({ consumedPoints: 2, msBeforeNext: 50_000 });
    now += 49_999;
    expect(counter.hit("a")).toMatchObject({ consumedPoints: 3, msBeforeNext: 1 });
    now += 1; // a's window ends: the next request starts a new one
    expect(counter.hit("a")).toMatchObject({ consumedPoints: 1, msBeforeNext: 60_000 });
    expect(counter.hit("b")).toMatchObject({ consumedPoints: 2, msBeforeNext: 10_000 });
  });

  it("drops ended windows on a sweep, never one still running", () => {
    let now = 0;
    const counter = new WindowCounter(1_000, () => now);
    counter.hit("a");
    now = 500;
    counter.hit("b");
    now = 1_000;
    counter.sweep();
    expect(counter.size).toBe(1);
    expect(counter.hit("b").consumedPoints).toBe(2);
    counter.clear();
    expect(counter.size).toBe(0);
  });

  it("gives the counts and windows of rate-limiter-flexible's memory store, request for request", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: 1_700_000_000_000 });
    const library = new RateLimiterMemory({ points: 3, duration: 2 });
    const ours = new RateLimit({ max: 3, windowMs: 2_000, now: () => Date.now() });
    // Steps (ms) between requests of two clients, crossing window ends and going over the limit.
    const steps = [0, 100, 0, 300, 0, 700, 899, 1, 0, 0, 1_999, 1, 5_000, 0, 0, 0, 0];
    for (const [i, step] of steps.entries()) {
      vi.advanceTimersByTime(step);
      const ip = i % 3 === 2 ? "10.0.0.2" : "10.0.0.1";
      const theirs = await library.consume(ip).catch((r: unknown) => {
        if (!(r instanceof RateLimiterRes)) throw r;
        return r;
      });
      const count = ours.count(ip);
      if (count instanceof Promise) throw new Error("the in-process count is synchronous");
      expect(
        { consumed: count.consumedPoints, ms: count.msBeforeNext, remaining: ours.remaining(count) },
        `request ${i}`,
      ).toEqual({
        consumed: theirs.consumedPoints,
        ms: theirs.msBeforeNext,
        remaining: String(theirs.remainingPoints),
      });
      expect(ours.isOver(count), `request ${i}`).toBe(theirs.consumedPoints > 3);
    }
  });
});

describe("RateLimit headers (D24)", () => {
  it("Remaining never goes below 0, Reset and Retry-After are whole seconds rounded up, Retry-After at least 1", () => {
    let now = 0;
    const limit = new RateLimit({ max: 2, now: () => now });
    expect(limit.synchronous).toBe(true);
    const first = limit.count("a") as { consumedPoints: number; msBeforeNext: number };
    expect([limit.limitHeader, limit.remaining(first), limit.reset(first)]).toEqual(["2", "1", "60"]);
    now = 59_500;
    limit.count("a");
    const over = limit.count("a") as { consumedPoints: number; msBeforeNext: number };
    expect(limit.isOver(over)).toBe(true);
    expect([limit.remaining(over), limit.reset(over), limit.retryAfter(over)]).toEqual(["0", "1", 1]);
    expect(limit.detail(over)).toBe("rate limit of 2 requests per minute exceeded; retry after 1 s");
    limit.close();
  });

  it("Remaining under a limit above the prebuilt table is the exact decimal, zeros inside kept (T544)", () => {
    // The bench's ceiling (issue 51): 10⁹ a minute, never reached; every count gives a new value.
    const limit = new RateLimit({ max: 1_000_000_000, now: () => 0 });
    const seen: string[] = [];
    for (let i = 0; i < 3; i++)
      seen.push(limit.remaining(limit.count("a") as { consumedPoints: number; msBeforeNext: number }));
    expect(seen).toEqual(["999999999", "999999998", "999999997"]);
    expect(limit.remaining({ consumedPoints: 999_999_000, msBeforeNext: 1 })).toBe("1000");
    expect(limit.remaining({ consumedPoints: 999_998_999, msBeforeNext: 1 })).toBe("1001");
    expect(limit.remaining({ consumedPoints: 999_999_993, msBeforeNext: 1 })).toBe("7");
    limit.close();
  });

  it("decimal(n) is String(n) for every non-negative integer, across each thousands boundary (T544)", () => {
    const cases = [0, 7, 10, 999, 1000, 1001, 1010, 1099, 1100, 9999, 10_000, 100_007, 999_999_999, 1_000_000_000];
    for (let n = 0; n < 3000; n++) cases.push(n * 337 + 1);
    cases.push(Number.MAX_SAFE_INTEGER);
    for (const n of cases) expect(decimal(n), String(n)).toBe(String(n));
  });

  it("a limiter passed in counts through its store: a promise, settled to the count even over the limit", async () => {
    const limit = new RateLimit({ max: 1, limiter: new RateLimiterMemory({ points: 1, duration: 60 }) });
    expect(limit.synchronous).toBe(false);
    const first = await limit.count("a");
    const second = await limit.count("a");
    expect([first?.consumedPoints, second?.consumedPoints]).toEqual([1, 2]);
    expect(second && limit.isOver(second)).toBe(true);
  });
});

describe("turnClock", () => {
  it("reads the wall clock once per event-loop turn", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: 1_000 });
    const first = turnClock();
    vi.setSystemTime(5_000);
    expect(turnClock()).toBe(first); // the same turn
    await new Promise((resolve) => setImmediate(resolve));
    expect(turnClock()).toBe(5_000); // the next turn reads it again
  });
});
