import { describe, expect, it } from "vitest";
import { recordedReport } from "../../test/recorded-payloads.js";
import type { Dataset } from "../domain/dataset.js";
import type { Listing, SourceId } from "../domain/observation.js";
import { SOURCES } from "../sources/registry.js";
import { listSnapshots } from "../sources/snapshot-reader.js";
import { buildDatasetWithIdentity } from "./build-dataset.js";
import { priorFromDataset } from "./prior-state.js";

// Issue 33 §5, T262: "one rejected amount on the maker's own gpt-4o listing silently moved 10
// reseller prices to gpt-4o-2024-11-20". The real 2026-06-01 payloads of every source, parsed by
// the adapters; the one change is invented: the maker's own `gpt-4o` listing of one source loses
// one price row, as when its adapter rejects that amount (a non-finite or negative number). The
// builds read every source's GPT-4o family listings only (the ids identity weighs against each
// other here), so that a build takes milliseconds, not the seconds of the whole June catalogue that
// kept a test worker's event loop busy (issue 34 §2).

const DATE = "2026-06-01";
const present = listSnapshots("data/upstream").get(DATE) ?? [];
const adapters = SOURCES.filter((a) => present.includes(a.id));

function build(runTime: string, listings: (source: SourceId) => readonly Listing[], prior: Dataset | null): Dataset {
  return buildDatasetWithIdentity({
    runId: `run-${runTime}`,
    runTime,
    finishedAt: runTime,
    sources: adapters.map((a) => ({
      source: a.id,
      weight: a.info.weight,
      makerSpellings: a.info.makerSpellings ?? false,
      authoritativeFor: a.info.authoritativeFor,
      listings: listings(a.id),
      fresh: true,
      error: null,
      ran: true,
    })),
    prior: prior ? priorFromDataset(prior) : null,
  }).dataset;
}

const real = (source: SourceId) =>
  recordedReport(SOURCES.find((a) => a.id === source)!, DATE).listings.filter((l) =>
    l.model.toLowerCase().includes("gpt-4o"),
  );
/** Where each price of gpt-4o and its dated snapshots is published: model, seller, label. */
const placed = (d: Dataset) =>
  d.prices
    .filter((p) => p.modelId.startsWith("openai/gpt-4o"))
    .map((p) => `${p.modelId} | ${p.seller} | ${p.label}`)
    .sort();

describe("a rejected amount never reattaches a model's other prices (issue 33 §5, T262)", () => {
  const before = build(`${DATE}T00:00:00.000Z`, real, null);

  // LiteLLM's, models.dev's and Portkey's listings each moved the same 10 prices before the fix.
  it.each(["litellm", "models-dev", "portkey"] as const)(
    "%s: the maker's gpt-4o listing losing its base input price moves nothing else",
    (source) => {
      const own = real(source).findIndex((l) => l.seller === "openai" && l.model === "gpt-4o");
      expect(own).toBeGreaterThanOrEqual(0);
      const listing = real(source)[own]!;
      const base = listing.prices.findIndex(
        (p) =>
          p.dimension.direction === "input" &&
          p.dimension.cache === "none" &&
          p.dimension.tier === "standard" &&
          p.dimension.modality === "text" &&
          p.dimension.contextMin === 0,
      );
      expect(base).toBeGreaterThanOrEqual(0);
      const rejected = { ...listing, prices: listing.prices.filter((_, i) => i !== base) };
      const after = build(
        `${DATE}T01:00:00.000Z`,
        (s) => (s === source ? real(s).map((l, i) => (i === own ? rejected : l)) : real(s)),
        before,
      );
      // The reseller prices of gpt-4o stay where they were; no snapshot model splits off.
      const models = (d: Dataset) => d.models.filter((m) => m.id.startsWith("openai/gpt-4o")).map((m) => m.id);
      expect(models(after)).toEqual(models(before));
      const moved = placed(before).filter((p) => !placed(after).includes(p));
      // Only the rejected row's own price may change: the maker's own input, if no other source states it.
      expect(moved.every((p) => p.startsWith("openai/gpt-4o | openai | Input"))).toBe(true);
      expect(placed(after).filter((p) => !placed(before).includes(p))).toEqual([]);
    },
  );
});
