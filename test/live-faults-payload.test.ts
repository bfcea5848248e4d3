import { appendFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SourceId } from "../src/domain/observation.js";
import { SOURCES } from "../src/sources/registry.js";
import { makeSeed, runFaultCase, type Seed } from "./live-support.js";

// issue 7 Must show: payload misbehaviours of each source against the local fake upstream
// (truncated JSON, valid JSON of the wrong shape, an empty list, a 90 % row drop). The guards
// (issue 7 §5) make each a source failure, never a wave of price_removed.
const IDS: SourceId[] = SOURCES.map((a) => a.id);
let seed: Seed;
beforeAll(async () => {
  seed = await makeSeed();
});
afterAll(() => seed?.cleanup());

describe.each(["truncated", "wrong-shape", "empty", "row-drop-90"] as const)("%s", (fault) => {
  it.concurrent.each(IDS)("%s: run partial, lastError says so, others update, nothing lost", async (source) => {
    const message = await runFaultCase(seed, source, fault);
    expect(message.length).toBeGreaterThan(0);
    if (process.env.TARIFF_PRINT_ERRORS)
      appendFileSync(process.env.TARIFF_PRINT_ERRORS, `${fault} ${source}: ${message}\n`);
  });
});
