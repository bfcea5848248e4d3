import type { RecordedBuildSpec } from "./recorded-build.js";

/**
 * The invented previous catalogue of the recorded 2026-06-01 run that the data suites read (only
 * what real data lacks: the ids an earlier version published), and the one build of that run over
 * it (T382). Each list belongs to the suite that checks it; one catalogue holds both, so the run is
 * built once instead of once per suite. Its models are listed, active, first seen 2025-07-01, with no
 * prices (`recordedRunAfter`).
 */

/**
 * Ids the main branch published before issue 25 (its replay of the bundled data, dataset
 * 2026-06-01), each with the model it is now (`test/identity-former-ids.test.ts`).
 */
export const FORMER_IDS: readonly (readonly [old: string, now: string])[] = [
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

/**
 * Amazon's Nova models, whose Bedrock `-v1` spellings the bundled replay published as models of their
 * own before T326 (main 3b36df7, dataset 2026-06-01): [model, input, output, cache read] in USD per
 * 1M tokens, as Bedrock's listings state them (`test/maker-clouds.test.ts`).
 */
export const NOVA = [
  ["amazon/nova-lite", 0.06, 0.24, 0.015],
  ["amazon/nova-micro", 0.035, 0.14, 0.00875],
  ["amazon/nova-pro", 0.8, 3.2, 0.2],
  ["amazon/nova-premier", 2.5, 12.5, 0.625],
] as const;

/** The recorded 2026-06-01 run over the previous catalogue of {@link FORMER_IDS} and Nova's `-v1` ids. */
export const JUNE_AFTER_FORMER_IDS: RecordedBuildSpec = {
  date: "2026-06-01",
  previous: {
    ids: [...FORMER_IDS.map(([old]) => old), ...NOVA.map(([id]) => `${id}-v1`)],
    firstSeenAt: "2025-07-01T00:00:00.000Z",
  },
};
