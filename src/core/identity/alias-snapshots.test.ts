import { describe, expect, it } from "vitest";
import { isSnapshotAlias, servedSnapshots } from "./passes/alias-snapshots.js";

/**
 * Which snapshot an API alias serves (issue 36 §5, T327), on the smallest cases. The statements are
 * invented where the recorded runs lack the case (two snapshots named at one price never occurs);
 * the amounts are DeepSeek's of 2026-04-01 (models.dev deepseek, zenmux).
 */
const base = {
  channel: "direct",
  modality: "text",
  tier: "standard",
  cache: "none",
  contextMin: 0,
  qualifiers: {},
} as const;
const alias = [
  { ...base, modelId: "deepseek/deepseek-chat", direction: "input", amount: 0.28 },
  { ...base, modelId: "deepseek/deepseek-chat", direction: "output", amount: 0.42 },
];

describe("servedSnapshots (T327)", () => {
  it("a statement at the alias's reconciled price names its snapshot", () => {
    const said = new Map([
      [
        "deepseek/deepseek-chat",
        [{ snapshot: "deepseek/deepseek-v3.2", source: "models-dev", signature: "input=0.28,output=0.42" }],
      ],
    ]);
    expect(servedSnapshots(said, alias)).toEqual(new Map([["deepseek/deepseek-chat", "deepseek/deepseek-v3.2"]]));
  });

  it("a statement at another price (zenmux's stale 0.56 / 1.68 of 2025-12-01) names nothing", () => {
    const said = new Map([
      [
        "deepseek/deepseek-chat",
        [{ snapshot: "deepseek/deepseek-v3.2-exp", source: "models-dev", signature: "input=0.56,output=1.68" }],
      ],
    ]);
    expect(servedSnapshots(said, alias).size).toBe(0);
  });

  it("two snapshots named at the alias's price cancel (invented)", () => {
    const said = new Map([
      [
        "deepseek/deepseek-chat",
        [
          { snapshot: "deepseek/deepseek-v3.2", source: "models-dev", signature: "input=0.28,output=0.42" },
          { snapshot: "deepseek/deepseek-v3.2-exp", source: "genai-prices", signature: "input=0.28,output=0.42" },
        ],
      ],
    ]);
    expect(servedSnapshots(said, alias).size).toBe(0);
  });

  it("an alias with no direct price serves nothing", () => {
    const said = new Map([
      [
        "deepseek/deepseek-chat",
        [{ snapshot: "deepseek/deepseek-v3.2", source: "models-dev", signature: "input=0.28,output=0.42" }],
      ],
    ]);
    expect(servedSnapshots(said, []).size).toBe(0);
  });
});

describe("isSnapshotAlias: the reviewed aliases only (T327)", () => {
  it.each([
    ["deepseek", "deepseek/deepseek-chat", true],
    ["deepseek", "deepseek/deepseek-reasoner", true],
    ["deepseek", "deepseek/deepseek-v3.2", false],
    // a -latest alias is pass 4's (T184), not this table's
    ["google", "google/gemini-flash-latest", false],
  ] as const)("%s %s → %s", (maker, id, yes) => {
    expect(isSnapshotAlias(maker, id)).toBe(yes);
  });
});
