import { describe, expect, it } from "vitest";
import type { RunRecord } from "../domain/dataset.js";
import type { SourceId } from "../domain/observation.js";
import type { SourceAttempt } from "../domain/source-attempt.js";
import { lastRunNow, lastRunOfSource } from "./source-records.js";

// Issue 50 §4, T450: the last run, published or not, is what `/meta` and `/sources` say. Invented
// run records and attempts: the shapes only (real attempts come from live runs, test/fresh-live).

const VERSION = "2026-06-01T00:00:00.000Z";
const RUN: RunRecord = {
  id: `run-${VERSION}`,
  datasetVersion: VERSION,
  status: "succeeded",
  startedAt: VERSION,
  finishedAt: "2026-06-01T00:03:00.000Z",
  summary: { observations: {}, unresolved: {}, failed: {}, models: 0, prices: 0, disputed: 0 },
};
const LATER = "2026-12-07T10:00:00.000Z";
const failed = (source: SourceId, at = LATER): SourceAttempt => ({
  source,
  at,
  status: "failed",
  error: { message: "api.json: network error (ECONNREFUSED)", httpStatus: null },
});
const answered = (source: SourceId, at = LATER): SourceAttempt => ({ source, at, status: "unchanged", error: null });

describe("/meta lastRun is the last live run, published or not (T450)", () => {
  it("with no attempt, or only the version's own, it is the version's run", () => {
    const own = { id: RUN.id, status: "succeeded", finishedAt: RUN.finishedAt };
    expect(lastRunNow(RUN, [])).toEqual(own);
    expect(lastRunNow(RUN, [answered("models-dev", VERSION), failed("litellm", VERSION)])).toEqual(own);
  });

  it("a later run in which every source failed is a failed run, dated by its start", () => {
    expect(lastRunNow(RUN, [failed("models-dev"), failed("litellm")])).toEqual({
      id: `run-${LATER}`,
      status: "failed",
      finishedAt: LATER,
    });
  });

  it("a later run with some failures is partial; with none it succeeded; older attempts do not count", () => {
    const older = "2026-11-01T00:00:00.000Z";
    expect(lastRunNow(RUN, [failed("models-dev"), answered("litellm")]).status).toBe("partial");
    expect(lastRunNow(RUN, [failed("models-dev", older), answered("litellm")]).status).toBe("succeeded");
  });
});

describe("a source's lastRunStatus is its last attempt's when newer than the version's run (T450)", () => {
  const version = { lastRunStatus: "succeeded" as const, lastRunAt: VERSION };

  it("no attempt, or one not newer: the version's record", () => {
    expect(lastRunOfSource(version, null)).toEqual({ lastRunStatus: "succeeded", lastRunAt: VERSION });
    expect(lastRunOfSource(version, { at: VERSION, status: "failed" })).toEqual({
      lastRunStatus: "succeeded",
      lastRunAt: VERSION,
    });
  });

  it("a newer failed attempt is a failed run; a newer unchanged answer a run that succeeded", () => {
    expect(lastRunOfSource(version, { at: LATER, status: "failed" })).toEqual({
      lastRunStatus: "failed",
      lastRunAt: LATER,
    });
    expect(lastRunOfSource({ lastRunStatus: "not_run", lastRunAt: null }, { at: LATER, status: "unchanged" })).toEqual({
      lastRunStatus: "succeeded",
      lastRunAt: LATER,
    });
  });
});
