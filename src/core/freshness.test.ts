import { describe, expect, it } from "vitest";
import type { PublishedPrice } from "../domain/dataset.js";
import { boundEvidenceAge, capForFreshness, evidenceTimes } from "./freshness.js";
import { SCORE_BANDS } from "./reconcile.js";

describe("confidence follows freshness (T75)", () => {
  it("caps a stale verified or high price at medium, keeping its place within the band", () => {
    const stale = "2026-01-01T00:00:00.000Z";
    const verified = capForFreshness({ confidence: "verified" as const, confidenceScore: 0.95, staleSince: stale });
    expect(verified.confidence).toBe("medium");
    expect(verified.confidenceScore).toBe(0.625);
    const high = capForFreshness({ confidence: "high" as const, confidenceScore: 0.75, staleSince: stale });
    expect(high).toMatchObject({ confidence: "medium", confidenceScore: SCORE_BANDS.medium[0] });
    const top = capForFreshness({ confidence: "verified" as const, confidenceScore: 1, staleSince: stale });
    expect(top.confidenceScore).toBeLessThan(SCORE_BANDS.medium[1]);
  });

  it("leaves fresh prices and stale prices already at or below medium alone", () => {
    const fresh = { confidence: "verified" as const, confidenceScore: 0.95, staleSince: null };
    expect(capForFreshness(fresh)).toBe(fresh);
    const low = { confidence: "low" as const, confidenceScore: 0.3, staleSince: "2026-01-01T00:00:00.000Z" };
    expect(capForFreshness(low)).toBe(low);
  });
});

// T224: the evidence bound. The prices below are invented shapes (only the fields the bound reads);
// the replay's own case (a Claude price `high` on Anthropic's page of 2025-12-01 and one fresh
// source) is checked through the API in test/freshness.test.ts.
describe("evidence older than the bound counts for nothing toward verified or high (T224)", () => {
  const run = "2026-06-01T00:00:00.000Z";
  const price = (over: Partial<PublishedPrice>): PublishedPrice =>
    ({
      confidence: "high",
      confidenceScore: 0.87,
      staleSince: null,
      sources: ["portkey", "official-anthropic"],
      observations: [
        { source: "official-anthropic", amount: 1.6, fresh: false },
        { source: "portkey", amount: 1.6, fresh: true },
      ],
      ...over,
    }) as PublishedPrice;
  const evidence = (anthropic: string | null) =>
    evidenceTimes(
      run,
      [
        { source: "portkey", fresh: true },
        { source: "official-anthropic", fresh: false },
      ],
      new Map([["official-anthropic", { lastSuccessAt: anthropic }]]),
    );

  it("the run time for a source that ran, its last success for one carried", () => {
    expect(evidence("2025-12-01T00:00:00.000Z")).toEqual(
      new Map([
        ["portkey", run],
        ["official-anthropic", "2025-12-01T00:00:00.000Z"],
      ]),
    );
  });

  it("caps `high` resting on a source last seen 182 days before; keeps it within 90 days", () => {
    const [old] = boundEvidenceAge([price({})], evidence("2025-12-01T00:00:00.000Z"), run);
    expect(old).toMatchObject({ confidence: "medium", staleSince: null });
    const recent = price({});
    expect(boundEvidenceAge([recent], evidence("2026-03-03T00:00:00.000Z"), run)[0]).toBe(recent);
  });

  it("a price whose newest evidence is older than the bound is stale since this run, and capped", () => {
    const carried = price({
      confidence: "verified",
      confidenceScore: 0.95,
      sources: ["official-anthropic"],
      observations: [{ source: "official-anthropic", amount: 1.6, fresh: false, authoritative: true }],
    });
    const [capped] = boundEvidenceAge([carried], evidence("2025-12-01T00:00:00.000Z"), run);
    expect(capped).toMatchObject({ confidence: "medium", staleSince: run });
    const alreadyStale = { ...carried, staleSince: "2026-01-01T00:00:00.000Z" };
    expect(boundEvidenceAge([alreadyStale], evidence("2025-12-01T00:00:00.000Z"), run)[0]?.staleSince).toBe(
      "2026-01-01T00:00:00.000Z",
    );
  });

  it("`verified` needs its authoritative source's evidence to be recent", () => {
    const verified = price({
      confidence: "verified",
      confidenceScore: 0.95,
      observations: [
        { source: "official-anthropic", amount: 1.6, fresh: false, authoritative: true },
        { source: "portkey", amount: 1.6, fresh: true },
      ],
    });
    expect(boundEvidenceAge([verified], evidence("2025-12-01T00:00:00.000Z"), run)[0]?.confidence).toBe("medium");
  });
});
