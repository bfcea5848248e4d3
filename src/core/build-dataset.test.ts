import { describe, expect, it } from "vitest";
import type { Dataset } from "../domain/dataset.js";
import { type Direction, dimension } from "../domain/dimension.js";
import { EMPTY_LISTING_META, type Listing } from "../domain/observation.js";
import { type BuildInput, buildDataset } from "./build-dataset.js";
import { detectChanges } from "./detect-changes.js";
import { priorFromDataset } from "./prior-state.js";

// Invented listings: lifecycle (D3), the plan-credit rule (T5) and the removal grace and jump rules
// (issue 24) on the smallest cases.
const RUN = "2026-06-01T00:00:00.000Z";

/** A USD price per 1M tokens of one dimension, as an adapter states it. */
const usdPerMtok = (kind: Direction, amount: number): Listing["prices"][number] => ({
  dimension: dimension(kind),
  amount,
  unit: "mtok",
  denomination: "currency",
  currency: "USD",
});

function listing(extra: Partial<Listing>): Listing {
  return {
    ...EMPTY_LISTING_META,
    seller: "anthropic",
    model: "claude-test-1",
    name: "Claude Test 1",
    prices: [usdPerMtok("input", 1), usdPerMtok("output", 5)],
    ...extra,
  };
}

function input(listings: Listing[], prior: BuildInput["prior"] = null): BuildInput {
  return {
    runId: "run-test",
    runTime: RUN,
    finishedAt: RUN,
    sources: [
      {
        source: "models-dev",
        weight: 0.8,
        makerSpellings: true,
        authoritativeFor: [],
        listings,
        fresh: true,
        error: null,
        ran: true,
      },
    ],
    prior,
  };
}

describe("lifecycle (D3)", () => {
  it("is active by default, preview for previews, deprecated once deprecatedOn ≤ the dataset date, retired once retiresOn ≤ it", () => {
    const state = (extra: Partial<Listing>) => buildDataset(input([listing(extra)])).models[0]?.lifecycle.state;
    expect(state({})).toBe("active");
    expect(state({ status: "preview" })).toBe("preview");
    expect(state({ deprecatedOn: "2026-06-01" })).toBe("deprecated");
    expect(state({ deprecatedOn: "2026-07-01" })).toBe("active");
    expect(state({ retiresOn: "2026-05-31" })).toBe("retired");
  });

  it("only moves forward: a deprecated model stays deprecated when a source calls it active again", () => {
    const prior = {
      prices: new Map(),
      models: new Map([
        ["anthropic/claude-test-1", { firstSeenAt: "2025-01-01T00:00:00.000Z", state: "deprecated" as const }],
      ]),
      sources: new Map(),
    };
    const model = buildDataset(input([listing({ status: "active" })], prior)).models[0];
    expect(model?.lifecycle.state).toBe("deprecated");
    expect(model?.firstSeenAt).toBe("2025-01-01T00:00:00.000Z");
  });
});

describe("plan credit (T5)", () => {
  it("a $0 coding-plan listing is credit in XXX, a non-zero one stays money", () => {
    const plan = listing({
      seller: "zai-coding-plan",
      model: "glm-4.6",
      makerHint: "zai",
      prices: [usdPerMtok("input", 0), usdPerMtok("output", 0.9)],
    });
    // The maker's own listing founds the model; the plan's listing attaches to it (issue 12: a
    // reseller's listing never founds a model). Invented maker row: only the plan's shape matters.
    const maker = listing({
      seller: "zai",
      model: "glm-4.6",
      makerHint: "zai",
      prices: [usdPerMtok("input", 0.6)],
    });
    const prices = buildDataset(input([maker, plan])).prices.filter((p) => p.channel === "coding_plan");
    expect(prices.find((p) => p.direction === "input")).toMatchObject({
      channel: "coding_plan",
      amount: 0,
      denomination: "credit",
      currency: "XXX",
      displayUnit: "credits per 1M tokens (included in plan)",
      qualifiers: { seller: "zai-coding-plan" },
    });
    expect(prices.find((p) => p.direction === "output")).toMatchObject({ denomination: "currency", currency: "USD" });
  });
});

// Invented listings: two sources of one maker's model, run after run.
const RUNS = ["2026-04-01T00:00:00.000Z", "2026-05-01T00:00:00.000Z", "2026-06-01T00:00:00.000Z"];
const price = (direction: "input" | "output", amount: number, extra: Partial<ReturnType<typeof dimension>> = {}) => ({
  dimension: dimension(direction, extra),
  amount,
  unit: "mtok" as const,
  denomination: "currency" as const,
  currency: "USD",
});
const build = (
  runTime: string,
  bySource: Record<"models-dev" | "litellm" | "portkey", Listing[]>,
  prior: Dataset | null,
) =>
  buildDataset({
    runId: `run-${runTime}`,
    runTime,
    finishedAt: runTime,
    sources: (["models-dev", "litellm", "portkey"] as const).map((source) => ({
      source,
      weight: source === "models-dev" ? 0.8 : source === "litellm" ? 0.7 : 0.6,
      makerSpellings: source === "models-dev",
      authoritativeFor: [],
      listings: bySource[source],
      fresh: true,
      error: null,
      ran: true,
    })),
    prior: prior ? priorFromDataset(prior) : null,
  });
const find = (d: Dataset, direction: string, contextMin = 0) =>
  d.prices.find((p) => p.direction === direction && p.contextMin === contextMin && p.cache === "none");

describe("removal grace and jumps (issue 24, T85 amended, T173–T176)", () => {
  it("a price gone from every payload is served once, marked with the run its listings went; a bracket goes at once", () => {
    const withBracket = listing({
      prices: [price("input", 1), price("output", 5), price("input", 2, { contextMin: 200_000 })],
    });
    const first = build(RUNS[0]!, { "models-dev": [withBracket], litellm: [listing({})], portkey: [] }, null);
    expect(find(first, "input", 200_000)?.amount).toBe(2);
    const inputOnly = listing({ prices: [price("input", 1)] });
    const second = build(RUNS[1]!, { "models-dev": [inputOnly], litellm: [inputOnly], portkey: [] }, first);
    expect(find(second, "input", 200_000)).toBeUndefined();
    const output = find(second, "output")!;
    expect(output.staleSince).toBe(RUNS[1]);
    expect(output.observations.map((o) => [o.source, o.fresh, o.absentSince])).toEqual([
      ["litellm", false, RUNS[1]],
      ["models-dev", false, RUNS[1]],
    ]);
  });

  it("a price a source still lists but the guards quarantine is not served on from the last run", () => {
    const first = build(RUNS[0]!, { "models-dev": [listing({})], litellm: [], portkey: [] }, null);
    expect(find(first, "output")?.amount).toBe(5);
    // models.dev's output now a hundredth of its input: a lone inversion (T73), quarantined.
    const inverted = listing({ prices: [price("input", 1), price("output", 0.01)] });
    const second = build(RUNS[1]!, { "models-dev": [inverted], litellm: [], portkey: [] }, first);
    expect(find(second, "output")).toBeUndefined();
  });

  it("a 5× jump without a market move does not replace an amount a source still states (T176)", () => {
    const at = (input: number) => listing({ prices: [price("input", input), price("output", input * 5)] });
    const first = build(RUNS[0]!, { "models-dev": [at(1)], litellm: [at(1)], portkey: [] }, null);
    // models.dev rewrites its entry sixfold, alone (no other model moved, nobody corroborates): heads
    // tie 1 – 1, and its weight would carry it over LiteLLM's unchanged amount.
    const second = build(RUNS[1]!, { "models-dev": [at(6)], litellm: [at(1)], portkey: [] }, first);
    expect(find(second, "input")).toMatchObject({ amount: 1, sources: ["litellm"] });
    expect(find(second, "output")).toMatchObject({ amount: 5, sources: ["litellm"] });
    expect(second.sources.find((s) => s.source === "models-dev")?.rejectedByReason).toEqual({ unexplained_jump: 2 });
    expect(detectChanges(first, second).filter((c) => c.kind !== "reference_changed")).toEqual([]);
    // Better supported, it is the correction of an error and is published (shown among market moves).
    // Portkey states 6 / 30 too: two sources against one.
    const third = build(RUNS[2]!, { "models-dev": [at(6)], litellm: [at(1)], portkey: [at(6)] }, second);
    expect(find(third, "input")).toMatchObject({ amount: 6, sources: ["models-dev", "portkey"] });
    expect(detectChanges(second, third).map((c) => [c.kind, c.label, c.oldAmount, c.newAmount])).toEqual([
      ["price_increase", "Input", 1, 6],
      ["price_increase", "Output", 5, 30],
    ]);
  });
});
