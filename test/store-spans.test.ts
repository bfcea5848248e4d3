import { describe, expect, it } from "vitest";
import { backoffMs } from "../src/catalogue/backoff.js";
import { StoreUnavailableError } from "../src/catalogue/errors.js";
import { StoreSpans } from "../src/catalogue/load-view.js";
import { nextRestart, WORKER_BACKOFF, WORKER_STABLE_MS } from "../src/cli/workers.js";
import type { CatalogueStore, StoredSpans } from "../src/store/catalogue-store.js";

// Issue 26 §4 (T199, T243): the backoff between attempts on a store that cannot be read, and
// between replacements of `--workers` processes that die, as pure policies and on a fake store.

describe("backoffMs", () => {
  const policy = { baseMs: 1000, capMs: 60_000 };
  it("none before a failure, then doubling from the base, capped", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8].map((n) => backoffMs(n, policy))).toEqual([
      0, 1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000,
    ]);
    expect(backoffMs(10_000, policy)).toBe(60_000);
  });
});

describe("nextRestart (workers)", () => {
  it("workers dying young wait 0.5 s, 1 s, 2 s … at most 30 s; one that served a minute starts over", () => {
    let state = { failures: 0 };
    const waits: number[] = [];
    for (let i = 0; i < 9; i++) {
      const next = nextRestart(state, 2000);
      state = next.state;
      waits.push(next.delayMs);
    }
    expect(waits).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
    expect(WORKER_BACKOFF.capMs).toBe(30_000);
    const healthy = nextRestart(state, WORKER_STABLE_MS);
    expect(healthy).toEqual({ state: { failures: 1 }, delayMs: 500 });
  });
});

/** A store that serves two versions' spans and counts reads. */
function fakeStore(reads: string[]): CatalogueStore {
  const none: StoredSpans = { prices: [], models: [] };
  return {
    listRuns: async () => {
      reads.push("runs");
      return [{ datasetVersion: "2025-09-01T00:00:00.000Z" }, { datasetVersion: "2025-10-01T00:00:00.000Z" }];
    },
    loadSpansAt: async (v: string) => {
      reads.push(v);
      return none;
    },
    loadSpans: async () => none,
    close: async () => {},
  } as unknown as CatalogueStore;
}

describe("StoreSpans (point-in-time reads)", () => {
  it("a store that cannot be opened fails at once during the backoff, is tried again after it, and then kept open", async () => {
    let now = 0;
    let down = true;
    let opens = 0;
    const reads: string[] = [];
    const failures: number[] = [];
    const spans = new StoreSpans(
      async () => {
        opens++;
        if (down) throw new Error("connect ECONNREFUSED 127.0.0.1:5499");
        return { store: fakeStore(reads), release: async () => {} };
      },
      { now: () => now, onFailure: (_e, wait) => failures.push(wait), idleMs: 60_000 },
    );
    const unavailable = async () => {
      const error = await spans.versions().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StoreUnavailableError);
      return error as StoreUnavailableError;
    };
    expect((await unavailable()).retryAfterSeconds).toBe(1);
    expect(opens).toBe(1);
    // Within the backoff: no attempt at all, the wait left is said.
    now = 500;
    expect((await unavailable()).retryAfterSeconds).toBe(1);
    expect(opens).toBe(1);
    // After it: one attempt, which fails again; the wait doubles.
    now = 1000;
    expect((await unavailable()).retryAfterSeconds).toBe(2);
    expect(opens).toBe(2);
    now = 2500;
    expect((await unavailable()).retryAfterSeconds).toBe(1);
    expect(opens).toBe(2);
    expect(failures).toEqual([1000, 2000]);
    // The store comes back: the next attempt after the wait answers, and the store stays open.
    down = false;
    now = 3000;
    expect(await spans.versions()).toEqual(["2025-09-01T00:00:00.000Z", "2025-10-01T00:00:00.000Z"]);
    await spans.spansAt("2025-09-01T00:00:00.000Z");
    await spans.spansAt("2025-10-01T00:00:00.000Z");
    expect(opens).toBe(3);
    expect(reads).toEqual(["runs", "2025-09-01T00:00:00.000Z", "2025-10-01T00:00:00.000Z"]);
    // A success ended the backoff: the next failure waits the base again.
    down = true;
    await spans.close();
    expect((await unavailable()).retryAfterSeconds).toBe(1);
    await spans.close();
  });
});
