import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { propertyRuns } from "../../test/property-runs.js";
import { confidenceRank } from "../domain/confidence.js";
import { type SourceId, sourceTable } from "../domain/observation.js";
import { adapterOf } from "../sources/registry.js";
import { atLeastAsConfident, reconcile, type SourceObservation } from "./reconcile.js";

// Invented observations: reconciliation is pure, so its rules are pinned on small hand-made sets.
// The real-data disagreements are pinned in test/catalogue-replay.test.ts.
const RUN = "2026-06-01T00:00:00.000Z";
const ctx = { runTime: RUN, prior: null };
// The registered sources and their weights, read from the registry (issue 48 §4, T475: a new source
// is its folder and one registry line, no table here to extend).
const WEIGHTS: Record<SourceId, number> = sourceTable((id) => adapterOf(id).info.weight);
const SOURCE_IDS = Object.keys(WEIGHTS) as SourceId[];

function obs(source: SourceId, amount: number, extra: Partial<SourceObservation> = {}): SourceObservation {
  return {
    source,
    amount,
    unit: "mtok",
    denomination: "currency",
    currency: "USD",
    weight: WEIGHTS[source]!,
    authoritative: source === "official-anthropic",
    fresh: true,
    ...extra,
  };
}

describe("reconcile (D8)", () => {
  it("an authoritative source agreeing makes the price verified", () => {
    const r = reconcile([obs("models-dev", 15), obs("official-anthropic", 15)], ctx);
    expect(r.confidence).toBe("verified");
    expect(r.sources).toEqual(["official-anthropic", "models-dev"]);
    expect(r.disputed).toBe(false);
  });

  it("a fresh authoritative source wins over a majority, and the majority is named dissenting", () => {
    const r = reconcile([obs("models-dev", 3), obs("litellm", 3), obs("official-anthropic", 2.5)], ctx);
    expect(r.amount).toBe(2.5);
    expect(r.confidence).toBe("verified");
    expect(r.dissenting).toEqual(["models-dev", "litellm"]);
    expect(r.disputed).toBe(true);
    expect(r.fallbackAmount).toBe(3);
  });

  it("two independent non-authoritative sources agreeing with no dissent are high", () => {
    const r = reconcile([obs("models-dev", 2), obs("genai-prices", 2)], ctx);
    expect(r.confidence).toBe("high");
    expect(r.fallbackAmount).toBe(2);
  });

  it("amounts within 0.5 % relative agree; 0.6 % apart they do not", () => {
    expect(reconcile([obs("models-dev", 1), obs("litellm", 1.004)], ctx).dissenting).toEqual([]);
    expect(reconcile([obs("models-dev", 1), obs("litellm", 1.006)], ctx).dissenting).toEqual(["litellm"]);
  });

  it("agreement with a minority dissenting is medium and disputed", () => {
    const r = reconcile([obs("models-dev", 0.14), obs("portkey", 0.14), obs("llm-prices", 0.27)], ctx);
    expect(r.amount).toBe(0.14);
    expect(r.confidence).toBe("medium");
    expect(r.disputed).toBe(true);
    expect(r.dissenting).toEqual(["llm-prices"]);
  });

  it("one reliable source alone is medium; a light one alone is low; a very light one unverified", () => {
    expect(reconcile([obs("models-dev", 1)], ctx).confidence).toBe("medium");
    expect(reconcile([obs("portkey", 1)], ctx).confidence).toBe("low");
    expect(reconcile([obs("portkey", 1, { weight: 0.4 })], ctx).confidence).toBe("unverified");
  });
});

describe("reconcile (D8): carried, tied and other-unit statements", () => {
  it("a carried statement keeps its weight: it is stale, not lighter (issue 26 §2, T178)", () => {
    // Portkey alone at 0.6 is low, fresh or carried; only freshness (staleSince, T75) tells them apart.
    const carried = reconcile([obs("portkey", 1, { fresh: false })], ctx);
    expect(carried.confidence).toBe("low");
    expect(carried.staleSince).toBe(RUN);
    // models.dev's 0.3 against Portkey's 300 (MiniMax M2.5 on Together, 2026-06-01): a failed models.dev
    // still outweighs the lone dissent.
    const prior = {
      amount: 0.3,
      unit: "mtok" as const,
      effectiveFrom: "2026-03-01T00:00:00.000Z",
      staleSince: null,
      observations: [
        { source: "models-dev" as const, amount: 0.3 },
        { source: "portkey" as const, amount: 300 },
      ],
    };
    const failed = reconcile([obs("models-dev", 0.3, { fresh: false }), obs("portkey", 300)], { runTime: RUN, prior });
    expect(failed.amount).toBe(0.3);
    expect(failed.dissenting).toEqual(["portkey"]);
  });

  it("an unresolved tie is unverified", () => {
    const r = reconcile([obs("models-dev", 1), obs("genai-prices", 2)], ctx);
    expect(r.confidence).toBe("unverified");
    expect(r.disputed).toBe(true);
  });

  it("fallbackAmount is what would be published without the primary source, null when alone", () => {
    expect(reconcile([obs("openrouter", 5), obs("portkey", 4)], ctx).fallbackAmount).toBe(4);
    expect(reconcile([obs("openrouter", 5)], ctx).fallbackAmount).toBeNull();
  });

  it("observations in another unit never agree with the winner", () => {
    const r = reconcile([obs("models-dev", 10), obs("litellm", 10, { unit: "image" })], ctx);
    expect(r.dissenting).toEqual(["litellm"]);
  });
});

describe("reconcile (D8): staleSince and effectiveFrom across runs", () => {
  it("staleSince is set in the first run where no source re-confirms and kept after; cleared on re-confirmation", () => {
    const carried = [obs("models-dev", 1, { fresh: false })];
    const first = reconcile(carried, {
      runTime: RUN,
      prior: { amount: 1, unit: "mtok", effectiveFrom: "2026-01-01T00:00:00.000Z", staleSince: null },
    });
    expect(first.staleSince).toBe(RUN);
    expect(first.effectiveFrom).toBe("2026-01-01T00:00:00.000Z");
    const later = reconcile(carried, {
      runTime: "2026-07-01T00:00:00.000Z",
      prior: { amount: 1, unit: "mtok", effectiveFrom: "2026-01-01T00:00:00.000Z", staleSince: RUN },
    });
    expect(later.staleSince).toBe(RUN);
    const fresh = reconcile([obs("models-dev", 1)], {
      runTime: "2026-08-01T00:00:00.000Z",
      prior: { amount: 1, unit: "mtok", effectiveFrom: "2026-01-01T00:00:00.000Z", staleSince: RUN },
    });
    expect(fresh.staleSince).toBeNull();
  });

  it("effectiveFrom moves to the run time when the amount changes", () => {
    const r = reconcile([obs("models-dev", 2)], {
      runTime: RUN,
      prior: { amount: 1, unit: "mtok", effectiveFrom: "2026-01-01T00:00:00.000Z", staleSince: null },
    });
    expect(r.effectiveFrom).toBe(RUN);
  });

  it("rejects an empty observation list", () => {
    expect(() => reconcile([], ctx)).toThrow(RangeError);
  });
});

const amountArb = fc.constantFrom(0, 0.028, 0.14, 0.27, 1, 1.25, 2.5, 3, 15, 75);
const observationsArb = fc
  .uniqueArray(fc.constantFrom(...SOURCE_IDS), { minLength: 1, maxLength: SOURCE_IDS.length })
  .chain((ids) =>
    fc.tuple(
      fc.constant(ids),
      fc.array(amountArb, { minLength: ids.length, maxLength: ids.length }),
      fc.array(fc.boolean(), { minLength: ids.length, maxLength: ids.length }),
    ),
  )
  .map(([ids, amounts, fresh]) => ids.map((id, i) => obs(id, amounts[i]!, { fresh: fresh[i]! })));

describe("reconcile properties", () => {
  it("the order of sources never changes the result", () => {
    fc.assert(
      fc.property(observationsArb, fc.nat(), (list, seed) => {
        const shuffled = [...list].sort(
          (a, b) => ((a.source.charCodeAt(0) * 31 + seed) % 7) - ((b.source.charCodeAt(0) * 31 + seed) % 7),
        );
        expect(reconcile(shuffled, ctx)).toEqual(reconcile(list, ctx));
        expect(reconcile([...list].reverse(), ctx)).toEqual(reconcile(list, ctx));
      }),
      { numRuns: propertyRuns({ local: 60, full: 300 }) },
    );
  });

  it("adding an agreeing source never lowers confidence", () => {
    fc.assert(
      fc.property(observationsArb, (list) => {
        const before = reconcile(list, ctx);
        const absent = SOURCE_IDS.filter((s) => !list.some((o) => o.source === s));
        for (const source of absent) {
          const after = reconcile([...list, obs(source, before.amount)], ctx);
          expect(after.amount).toBe(before.amount);
          expect(confidenceRank(after.confidence)).toBeGreaterThanOrEqual(confidenceRank(before.confidence));
          expect(atLeastAsConfident(after, before)).toBe(true);
        }
      }),
      { numRuns: propertyRuns({ local: 60, full: 300 }) },
    );
  });

  it("the published amount is always one a source stated, and agreeing and dissenting partition the sources", () => {
    fc.assert(
      fc.property(observationsArb, (list) => {
        const r = reconcile(list, ctx);
        expect(list.map((o) => o.amount)).toContain(r.amount);
        expect([...r.sources, ...r.dissenting].sort()).toEqual(list.map((o) => o.source).sort());
        expect(r.disputed).toBe(r.dissenting.length > 0);
        expect(r.confidenceScore).toBeGreaterThanOrEqual(0);
        expect(r.confidenceScore).toBeLessThanOrEqual(1);
      }),
      { numRuns: propertyRuns({ local: 60, full: 300 }) },
    );
  });
});

describe("stable by construction (issue 14, T80–T82)", () => {
  /** The prior a run leaves for the next: its published amount and each source's statement. */
  const priorOf = (list: readonly SourceObservation[], r: ReturnType<typeof reconcile>) => ({
    amount: r.amount,
    unit: r.unit,
    effectiveFrom: r.effectiveFrom,
    staleSince: r.staleSince,
    observations: list.map((o) => ({
      source: o.source,
      amount: o.amount,
      since: r.evidence.get(o.source)?.since,
      movedFrom: r.evidence.get(o.source)?.movedFrom,
    })),
  });
  const NEXT = "2026-07-01T00:00:00.000Z";

  it("the same evidence replayed publishes the same amount, in any order", () => {
    fc.assert(
      fc.property(observationsArb, (list) => {
        const first = reconcile(list, ctx);
        const again = reconcile([...list].reverse(), { runTime: NEXT, prior: priorOf(list, first) });
        expect(again.amount).toBe(first.amount);
        expect(again.effectiveFrom).toBe(first.effectiveFrom);
      }),
      { numRuns: propertyRuns({ local: 60, full: 300 }) },
    );
  });

  it("removing one non-authoritative source that agrees with the majority changes no published amount", () => {
    fc.assert(
      fc.property(observationsArb, (raw) => {
        const list = raw.map((o) => ({ ...o, fresh: true }));
        const first = reconcile(list, ctx);
        const count = (a: number) => list.filter((o) => o.amount === a).length;
        const majority = list.every((o) => o.amount === first.amount || count(o.amount) < count(first.amount));
        const removable = list.find((o) => o.amount === first.amount && !o.authoritative);
        if (!majority || !removable || count(first.amount) < 2) return;
        const next = list.filter((o) => o !== removable);
        expect(reconcile(next, { runTime: NEXT, prior: priorOf(list, first) }).amount).toBe(first.amount);
      }),
      { numRuns: propertyRuns({ local: 100, full: 500 }) },
    );
  });

  it("a tie keeps last run's amount (DeepSeek chat 2025-09: never an amount nobody backed last run)", () => {
    const before = [obs("models-dev", 0.27), obs("genai-prices", 0.27)];
    const first = reconcile(before, ctx);
    const tied = [obs("models-dev", 0.27), obs("genai-prices", 0.135)];
    expect(reconcile(tied, { runTime: NEXT, prior: priorOf(before, first) }).amount).toBe(0.27);
  });

  it("a source left behind by a move of two others lags: it dissents but cannot win nor dispute (T82)", () => {
    const may = [obs("models-dev", 1.74), obs("portkey", 1.74), obs("llm-prices", 1.74)];
    const first = reconcile(may, ctx);
    const june = [obs("models-dev", 0.435), obs("portkey", 0.435), obs("llm-prices", 1.74)];
    const r = reconcile(june, { runTime: NEXT, prior: priorOf(may, first) });
    expect(r.amount).toBe(0.435);
    expect(r.dissenting).toEqual(["llm-prices"]);
    expect(r.disputed).toBe(false);
    expect(r.evidence.get("llm-prices")?.lagging).toBe(true);
    // A lone source changing its mind leaves nobody lagging.
    const lone = [obs("models-dev", 0.5), obs("portkey", 1.74), obs("llm-prices", 1.74)];
    expect(reconcile(lone, { runTime: NEXT, prior: priorOf(may, first) }).disputed).toBe(true);
  });
});

// Amounts and sources of the bundled replay (2026-05-01 → 2026-06-01) for T170; the moves' coherence
// (`coherent`, computed across slots by coherent-moves.ts) is given in each test.
const MAY = "2026-05-01T00:00:00.000Z";
const JUNE = "2026-06-01T00:00:00.000Z";
/** The prior of a slot published at `published` on 2026-05-01 from `list` ([source, amount, since?]). */
const mayPrior = (published: number, list: [SourceId, number, string?][]) => ({
  amount: published,
  unit: "mtok" as const,
  effectiveFrom: "2026-04-01T00:00:00.000Z",
  staleSince: null,
  observations: list.map(([source, amount, since]) => ({ source, amount, ...(since ? { since } : {}) })),
});

describe("fresh evidence beats a stale majority (issue 24 §1, T170)", () => {
  it("Grok 4.20: models.dev's maker-wide cut to 1.25 beats LiteLLM's and Portkey's unchanged 2", () => {
    const prior = mayPrior(2, [
      ["models-dev", 2],
      ["litellm", 2],
      ["portkey", 2],
    ]);
    const june = [obs("models-dev", 1.25, { coherent: true }), obs("litellm", 2), obs("portkey", 2)];
    const r = reconcile(june, { runTime: JUNE, prior });
    expect(r.amount).toBe(1.25);
    expect(r.dissenting).toEqual(["litellm", "portkey"]);
    expect(r.disputed).toBe(false);
    expect(r.evidence.get("models-dev")).toEqual({ since: JUNE, lagging: false, movedFrom: 2 });
    expect(r.evidence.get("litellm")?.lagging).toBe(true);
    // A rewrite of one entry that nothing corroborates is no market move: heads decide.
    const lone = reconcile([obs("models-dev", 1.25), obs("litellm", 2), obs("portkey", 2)], { runTime: JUNE, prior });
    expect(lone.amount).toBe(2);
    expect(lone.evidence.get("models-dev")).toEqual({ since: JUNE, lagging: false });
  });

  it("the move keeps its evidence in later runs while the stale sources do not move", () => {
    const prior = mayPrior(1.25, [
      ["models-dev", 1.25, MAY],
      ["litellm", 2],
      ["portkey", 2],
    ]);
    const withMove = {
      ...prior,
      observations: prior.observations.map((o) => ({ ...o, movedFrom: o.source === "models-dev" ? 2 : undefined })),
    };
    const r = reconcile([obs("models-dev", 1.25), obs("litellm", 2), obs("portkey", 2)], {
      runTime: JUNE,
      prior: withMove,
    });
    expect(r.amount).toBe(1.25);
    expect(r.evidence.get("models-dev")).toEqual({ since: MAY, lagging: false, movedFrom: 2 });
    // A source whose own statement is as fresh as the move (it reviewed the entry after) does not lag.
    const reviewed = reconcile(
      [
        obs("models-dev", 1.25),
        obs("litellm", 2, { dated: { on: "2026-05-20", kind: "reviewed" } }),
        obs("portkey", 2),
      ],
      { runTime: JUNE, prior: withMove },
    );
    expect(reviewed.evidence.get("litellm")?.lagging).toBe(false);
    expect(reviewed.evidence.get("portkey")?.lagging).toBe(true);
  });
});

describe("fresh evidence beats a stale majority: effective dates and two moves (T170)", () => {
  it("a source's own effective date is a move: genai-prices' o3 at 2 / 8 from 2025-06-10 beats llm-prices' 10", () => {
    const r = reconcile(
      [obs("genai-prices", 2, { dated: { on: "2025-06-10", kind: "effective" } }), obs("llm-prices", 10)],
      ctx,
    );
    expect(r.amount).toBe(2);
    expect(r.evidence.get("llm-prices")?.lagging).toBe(true);
  });

  it("two fresh moves to different amounts leave heads to decide", () => {
    const prior = mayPrior(2, [
      ["models-dev", 2],
      ["litellm", 2],
      ["portkey", 2],
    ]);
    const r = reconcile(
      [obs("models-dev", 1.25, { coherent: true }), obs("litellm", 3, { coherent: true }), obs("portkey", 3)],
      { runTime: JUNE, prior },
    );
    expect(r.amount).toBe(3);
    expect([...r.evidence.values()].some((e) => e.lagging)).toBe(false);
  });
});
