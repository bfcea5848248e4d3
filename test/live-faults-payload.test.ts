import { appendFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { screenAtBoundary } from "../src/core/listing-boundary.js";
import { parseOutcome } from "../src/ingest/run-pipeline.js";
import { SOURCES } from "../src/sources/registry.js";
import { FAULTS, LIVE_DATES, PAYLOAD_FAULTS, SEED_DATES, servedPayload } from "./fake-upstream.js";
import { EXPECTED_ERROR, FAULT_PAIRS, liveFileFixtures, runFaultCase } from "./live-support.js";

// issue 7 Must show: payload misbehaviours (truncated JSON, valid JSON of the wrong shape, an empty
// list, a 90 % row drop). The guards (issue 7 §5) make each a source failure, never a wave of
// price_removed.
//
// Every source × every payload misbehaviour, at the step that judges a payload (parse and guards):
// the payload the fake upstream serves for it fails that source, saying why. Then whole live runs
// against the fake upstream for the sampled pairs (T153): the run is partial, the others update,
// nothing published is lost.
describe.each(PAYLOAD_FAULTS)("%s payload", (fault) => {
  it.each(SOURCES.map((a) => [a.id, a] as const))("%s: parse and guards fail that source, saying why", (id, a) => {
    // The last good run as the store carries it: through the adapter boundary, as every run's listings
    // are (a CNY list's prices carry their currency qualifier there, T508).
    const lastGood = screenAtBoundary(a.parse(servedPayload(id, SEED_DATES[id]!))).listings;
    expect(lastGood.length).toBeGreaterThan(0);
    const carried = { source: id, observedAt: `${SEED_DATES[id]!}T00:00:00.000Z`, listings: lastGood };
    const outcome = { kind: "payload", payload: servedPayload(id, LIVE_DATES[id]!, fault) } as const;
    expect(parseOutcome(a, outcome, carried, { maxRowDrop: 0.25 })).toEqual({
      failure: { message: expect.stringMatching(EXPECTED_ERROR[fault].message), httpStatus: null },
    });
    // The same payload without the misbehaviour passes.
    const good = { kind: "payload", payload: servedPayload(id, LIVE_DATES[id]!) } as const;
    expect(parseOutcome(a, good, carried, { maxRowDrop: 0.25 })).not.toHaveProperty("failure");
  });
});

const live = liveFileFixtures();

it("the sampled live runs take every misbehaviour once and every source at least once (T153)", () => {
  // Every misbehaviour once in order; with more sources than misbehaviours (issue 48), again in turn.
  expect(FAULT_PAIRS.slice(0, FAULTS.length).map((p) => p.fault)).toEqual([...FAULTS]);
  expect(FAULT_PAIRS.length).toBe(Math.max(FAULTS.length, SOURCES.length));
  expect(new Set(FAULT_PAIRS.map((p) => p.source))).toEqual(new Set(SOURCES.map((a) => a.id)));
});

describe("a live run with one source's payload misbehaving", () => {
  const pairs = FAULT_PAIRS.filter((p) => (PAYLOAD_FAULTS as readonly string[]).includes(p.fault));
  it.concurrent.each(pairs)(
    "$fault from $source: run partial, lastError says so, others update, nothing lost",
    async ({ fault, source }) => {
      const message = await runFaultCase(live.seed, source, fault);
      expect(message.length).toBeGreaterThan(0);
      if (process.env.TARIFF_PRINT_ERRORS)
        appendFileSync(process.env.TARIFF_PRINT_ERRORS, `${fault} ${source}: ${message}\n`);
    },
  );
});
