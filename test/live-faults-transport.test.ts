import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SourceId } from "../src/domain/observation.js";
import { runLiveIngest } from "../src/ingest/live-run.js";
import { SOURCES } from "../src/sources/registry.js";
import { openSqliteStore } from "../src/store/open-store.js";
import { startFakeUpstream } from "./fake-upstream.js";
import { cloneSeed, makeSeed, QUIET, runFaultCase, type Seed, testConfig } from "./live-support.js";

// issue 7 Must show: transport misbehaviours of each source against the local fake upstream
// (HTTP 500, 429 with Retry-After, a hang past the timeout, a 50 MB body). Each case runs one live
// run over a copy of a store seeded with the May payloads while the fake serves June's.
const IDS: SourceId[] = SOURCES.map((a) => a.id);
let seed: Seed;
beforeAll(async () => {
  seed = await makeSeed();
});
afterAll(() => seed?.cleanup());

describe.each(["http-500", "http-429", "huge-body"] as const)("%s", (fault) => {
  it.concurrent.each(IDS)("%s: run partial, lastError says so, others update, nothing lost", async (source) => {
    await runFaultCase(seed, source, fault);
  });
});

describe("hang past the timeout", () => {
  // Sequential: a 0.5 s timeout must not be eaten by another case's parsing in this process.
  it.each(IDS)("%s: run partial, lastError says timeout, others update, nothing lost", async (source) => {
    await runFaultCase(seed, source, "hang");
  });
});

describe("retries (p-retry) and Retry-After", () => {
  it("a 429 with Retry-After: 1 is retried no sooner than 1 s later, and the run succeeds when it clears", async () => {
    const { dir, cleanup } = cloneSeed(seed);
    const upstream = await startFakeUpstream();
    upstream.fault("models-dev", "http-429", 1);
    const store = await openSqliteStore(join(dir, "tariff.db"));
    try {
      const result = await runLiveIngest(store, SOURCES, testConfig(upstream, dir), QUIET);
      expect(result.dataset.run.status).toBe("succeeded");
      const tries = upstream.requests.filter((r) => r.source === "models-dev");
      expect(tries.length).toBe(2);
      expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(990);
      // Every request carries the descriptive User-Agent and asks for compressed bodies.
      expect(new Set(upstream.requests.map((r) => r.headers["user-agent"]))).toEqual(
        new Set(["Tariff/0.1 (open AI-model price catalogue; live ingester)"]),
      );
      expect(upstream.requests.every((r) => r.headers["accept-encoding"] === "gzip, br")).toBe(true);
    } finally {
      await store.close();
      await upstream.close();
      cleanup();
    }
  });
});
