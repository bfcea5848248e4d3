import { describe, expect, it } from "vitest";
import { JUNE_AFTER_FORMER_IDS } from "./previous-catalogue.js";
import { baseDirectPrice, useRecordedBuild } from "./recorded-payloads.js";

/**
 * Snapshots behind API aliases (issue 36 §5, T327) on the recorded runs: models.dev's zenmux lists
 * DeepSeek's `deepseek-chat` as "DeepSeek-V3.2 (Non-thinking Mode)" from 2026-02 to 2026-06. Where
 * that is DeepSeek's price for the alias (2026-04-01: 0.28 / 0.42), V3.2 is priced by the alias's
 * listings; where the alias moved on (2026-06-01: 0.14 / 0.28, V4 Flash) the stale name says nothing.
 */
const direct = baseDirectPrice;

describe("deepseek-chat serves DeepSeek-V3.2 in the 2026-04-01 run (T327)", () => {
  // The recorded run built with no prior version, awaited by the suite's `beforeAll` (T377).
  const run = useRecordedBuild({ date: "2026-04-01", previous: null });

  it("V3.2's direct price is the alias's: 0.28 / 0.42, cache read 0.028, with the alias as evidence", () => {
    for (const [direction, cache, amount] of [
      ["input", "none", 0.28],
      ["output", "none", 0.42],
      ["input", "read", 0.028],
    ] as const) {
      const p = direct(run.dataset.prices, "deepseek/deepseek-v3.2", direction, cache);
      const alias = direct(run.dataset.prices, "deepseek/deepseek-chat", direction, cache);
      expect(p?.amount, `${direction} ${cache}`).toBe(amount);
      expect(alias?.amount).toBe(amount);
      // models.dev and Portkey price V3.2 only as deepseek-chat: their evidence is the alias
      expect(p?.observations.find((o) => o.source === "models-dev")?.listing).toBe("deepseek-chat");
    }
    // LiteLLM's own listing of V3.2 keeps its vote (0.4), a dissent beside the alias's 0.42
    expect(direct(run.dataset.prices, "deepseek/deepseek-v3.2", "output")?.dissenting).toContain("litellm");
  });

  it("the snapshot keeps its own name: the alias lends prices, not metadata", () => {
    expect(run.dataset.models.find((m) => m.id === "deepseek/deepseek-v3.2")?.name).not.toBe("DeepSeek Chat");
  });
});

describe("a stale name at a stale price says nothing (2026-06-01, T327)", () => {
  // The June run the data suites share (T382): its invented previous catalogue holds ids only, no
  // price and no DeepSeek alias, so what this reads is the recorded payloads' alone.
  const run = useRecordedBuild(JUNE_AFTER_FORMER_IDS);

  it("deepseek-chat is 0.14 / 0.28 now; zenmux's V3.2 at 0.28 / 0.42 lends V3.2 nothing", () => {
    expect(direct(run.dataset.prices, "deepseek/deepseek-chat", "input")?.amount).toBe(0.14);
    const v32 = run.dataset.prices.filter((p) => p.modelId === "deepseek/deepseek-v3.2" && p.channel === "direct");
    expect(v32.length).toBeGreaterThan(0);
    expect(v32.flatMap((p) => p.observations.map((o) => o.listing))).not.toContain("deepseek-chat");
  });
});
