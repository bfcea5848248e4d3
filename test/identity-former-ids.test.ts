import { describe, expect, it } from "vitest";
import { useRecordedBuild } from "./recorded-payloads.js";

/**
 * Ids are permanent (T66) through issue 25's merges: every id the previous identity rules published
 * for one of a family's spellings, a host's resale or a fine-tuning price becomes a former id of the
 * model it is now — answering 308 — never a tombstone. The run is the recorded 2026-06-01 one; the
 * previous version's catalogue is invented (only what real data lacks): one row per id the main
 * branch published before issue 25 (its replay of the bundled data, dataset 2026-06-01).
 */
const OLD_IDS: readonly (readonly [old: string, now: string])[] = [
  ["meta/llama-4-maverick", "meta/llama-4-maverick-17b-128e-instruct"],
  ["meta/llama4-maverick-17b-instruct", "meta/llama-4-maverick-17b-128e-instruct"],
  ["meta/llama-4-maverick-17b-128e-instruct-fp8", "meta/llama-4-maverick-17b-128e-instruct"],
  ["anthropic/claude-4-opus-20250514", "anthropic/claude-opus-4-0"],
  ["anthropic/claude-4-sonnet-20250514", "anthropic/claude-sonnet-4-0"],
  ["mistral/mistral-small-3-2-2506", "mistral/mistral-small-2506"],
  ["mistral/ministral-3-8b-2512", "mistral/ministral-8b-2512"],
  ["mistral/mistral-large-3", "mistral/mistral-large-2512"],
  ["xai/grok-4.20-beta-0309-reasoning", "xai/grok-4.20-0309-reasoning"],
  ["xai/grok-4.20-reasoning-gv2", "xai/grok-4.20-0309-reasoning"],
  ["xai/grok-4.20-experimental-beta-0304-non-reasoning", "xai/grok-4.20-0309-non-reasoning"],
  ["openai/ft-gpt-4o", "openai/gpt-4o"],
  ["openai/ft-gpt-4o-mini", "openai/gpt-4o-mini"],
  ["openai/ft-gpt-4.1-nano-2025-04-14", "openai/gpt-4.1-nano"],
  ["togethercomputer/llama-2-7b", "meta/llama-2-7b"],
  ["togethercomputer/falcon-40b", "tii/falcon-40b"],
  ["togethercomputer/qwen-7b", "alibaba/qwen-7b"],
  ["nvidia/deepseek-v3.2", "deepseek/deepseek-v3.2"],
  ["nvidia/kimi-k2.5", "moonshotai/kimi-k2.5"],
];

describe("ids of the previous identity rules answer as the model they are now (T66, issue 25)", () => {
  const run = useRecordedBuild({
    date: "2026-06-01",
    previous: { ids: OLD_IDS.map(([old]) => old), firstSeenAt: "2025-07-01T00:00:00.000Z" },
  });

  it.each(OLD_IDS)("%s is a former id of %s", (old, now) => {
    expect(run.renames.get(old)).toBe(now);
    const model = run.dataset.models.find((m) => m.id === now);
    expect(model?.listed).toBe(true);
    expect(model?.formerIds).toContain(old);
    // a former id keeps its first sighting on the model it joined
    expect(model?.firstSeenAt).toBe("2025-07-01T00:00:00.000Z");
    expect(run.dataset.models.some((m) => m.id === old)).toBe(false);
  });
});
