import { describe, expect, it } from "vitest";
import { capForFreshness } from "./freshness.js";
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
