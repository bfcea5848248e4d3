import { describe, expect, it } from "vitest";
import { dimension } from "../domain/dimension.js";
import { EMPTY_LISTING_META, type Listing } from "../domain/observation.js";
import { type BuildInput, buildDataset } from "./build-dataset.js";

// Invented listings: lifecycle (D3) and the plan-credit rule (T5) on the smallest cases.
const RUN = "2026-06-01T00:00:00.000Z";

function listing(extra: Partial<Listing>): Listing {
  return {
    ...EMPTY_LISTING_META,
    seller: "anthropic",
    model: "claude-test-1",
    name: "Claude Test 1",
    prices: [
      { dimension: dimension("input"), amount: 1, unit: "mtok", denomination: "currency", currency: "USD" },
      { dimension: dimension("output"), amount: 5, unit: "mtok", denomination: "currency", currency: "USD" },
    ],
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
      prices: [
        { dimension: dimension("input"), amount: 0, unit: "mtok", denomination: "currency", currency: "USD" },
        { dimension: dimension("output"), amount: 0.9, unit: "mtok", denomination: "currency", currency: "USD" },
      ],
    });
    // The maker's own listing founds the model; the plan's listing attaches to it (issue 12: a
    // reseller's listing never founds a model). Invented maker row: only the plan's shape matters.
    const maker = listing({
      seller: "zai",
      model: "glm-4.6",
      makerHint: "zai",
      prices: [{ dimension: dimension("input"), amount: 0.6, unit: "mtok", denomination: "currency", currency: "USD" }],
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
