import { describe, expect, it } from "vitest";
import { FORMER_IDS, JUNE_AFTER_FORMER_IDS } from "./previous-catalogue.js";
import { useRecordedBuild } from "./recorded-payloads.js";

/**
 * Ids are permanent (T66) through issue 25's merges: every id the previous identity rules published
 * for one of a family's spellings, a host's resale or a fine-tuning price becomes a former id of the
 * model it is now — answering 308 — never a tombstone. The run is the recorded 2026-06-01 one; the
 * previous version's catalogue is invented (only what real data lacks): one row per id the main
 * branch published before issue 25 (its replay of the bundled data, dataset 2026-06-01), shared with
 * `test/maker-clouds.test.ts` (`test/previous-catalogue.ts`, T382).
 */

describe("ids of the previous identity rules answer as the model they are now (T66, issue 25)", () => {
  const run = useRecordedBuild(JUNE_AFTER_FORMER_IDS);

  it.each(FORMER_IDS)("%s is a former id of %s", (old, now) => {
    expect(run.renames.get(old)).toBe(now);
    const model = run.dataset.models.find((m) => m.id === now);
    expect(model?.listed).toBe(true);
    expect(model?.formerIds).toContain(old);
    // a former id keeps its first sighting on the model it joined
    expect(model?.firstSeenAt).toBe("2025-07-01T00:00:00.000Z");
    expect(run.dataset.models.some((m) => m.id === old)).toBe(false);
  });
});
