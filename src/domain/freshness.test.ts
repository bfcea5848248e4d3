import { describe, expect, it } from "vitest";
import { sourceHealthNow } from "./freshness.js";

// T310: health against the clock, from the newest of the version's run and the last attempt.
const VERSION = {
  lastSuccessAt: "2026-06-01T00:00:00.000Z",
  lastRunStatus: "succeeded",
  lastRunAt: "2026-06-01T00:00:00.000Z",
} as const;

describe("a source's health now (T310)", () => {
  it("a version's success ages with the clock", () => {
    expect(sourceHealthNow(VERSION, null, "2026-06-03T00:00:00.000Z")).toBe("fresh");
    expect(sourceHealthNow(VERSION, null, "2026-11-28T00:00:00.000Z")).toBe("stale");
  });

  it("a failed attempt after the version's run fails the source; an unchanged answer keeps it fresh", () => {
    expect(
      sourceHealthNow(VERSION, { at: "2026-06-02T00:00:00.000Z", status: "failed" }, "2026-06-02T00:00:01.000Z"),
    ).toBe("failing");
    expect(
      sourceHealthNow(VERSION, { at: "2026-11-28T00:00:00.000Z", status: "unchanged" }, "2026-11-28T01:00:00.000Z"),
    ).toBe("fresh");
  });

  it("a version's failure is failing until a newer attempt answers", () => {
    const failed = { ...VERSION, lastRunStatus: "failed" } as const;
    expect(sourceHealthNow(failed, null, "2026-06-01T01:00:00.000Z")).toBe("failing");
    expect(
      sourceHealthNow(failed, { at: "2026-06-01T02:00:00.000Z", status: "succeeded" }, "2026-06-01T03:00:00.000Z"),
    ).toBe("fresh");
  });
});
