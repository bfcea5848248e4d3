import type { Tier } from "./dimension.js";

/**
 * LiteLLM's price-key grammar, read by its adapter (`src/sources/litellm/`) and written by the
 * LiteLLM price file (`src/exports/litellm.ts`): one place, so the two cannot drift (issue 45 §4,
 * T398). A key is `<base>[_above_<N>k_tokens][<tier suffix>]`, e.g.
 * `input_cost_per_token_above_200k_tokens_flex`: the price of `<base>` above a prompt of N × 1000
 * tokens, in that service tier.
 */

/** Each service tier's key suffix as LiteLLM writes it (a new tier is a compile error here until spelled). */
export const LITELLM_TIER_SUFFIX: Readonly<Record<Tier, string>> = {
  standard: "",
  batch: "_batches",
  flex: "_flex",
  priority: "_priority",
};

/** Suffixes LiteLLM also reads for a tier: `_batch_requests`, an older spelling of batch. */
const READ_ALIASES: Readonly<Record<string, Tier>> = { _batch_requests: "batch" };

/** Every suffix read as a tier, the written ones and the aliases. */
const TIER_OF_SUFFIX: ReadonlyMap<string, Tier> = new Map([
  ...Object.entries(LITELLM_TIER_SUFFIX)
    .filter(([, suffix]) => suffix !== "")
    .map(([tier, suffix]): [string, Tier] => [suffix, tier as Tier]),
  ...Object.entries(READ_ALIASES),
]);

const TIER_SUFFIX = new RegExp(`(${[...TIER_OF_SUFFIX.keys()].join("|")})$`);
const ABOVE_SUFFIX = /_above_(\d+)k_tokens$/;

/** A LiteLLM price key split into its base field, service tier and prompt-length threshold (tokens). */
export interface LitellmKeyParts {
  readonly base: string;
  readonly tier: Tier;
  readonly threshold: number;
}

/**
 * Splits a LiteLLM price key (see above): the tier suffix, then the `_above_<N>k_tokens` bracket
 * (threshold N × 1000; 0 without one). A key without either is its own base, standard, from 0.
 */
export function splitLitellmKey(key: string): LitellmKeyParts {
  let rest = key;
  let tier: Tier = "standard";
  const t = TIER_SUFFIX.exec(rest);
  if (t) {
    tier = TIER_OF_SUFFIX.get(t[1]!)!;
    rest = rest.slice(0, t.index);
  }
  let threshold = 0;
  const a = ABOVE_SUFFIX.exec(rest);
  if (a) {
    threshold = Number(a[1]) * 1000;
    rest = rest.slice(0, a.index);
  }
  return { base: rest, tier, threshold };
}

/** The key of `base` above a prompt of `threshold` tokens (0: no bracket) in `tier`; null when LiteLLM has no spelling (a threshold not in whole thousands). */
export function litellmKey(base: string, tier: Tier, threshold: number): string | null {
  if (threshold % 1000 !== 0) return null;
  const above = threshold === 0 ? "" : `_above_${threshold / 1000}k_tokens`;
  return `${base}${above}${LITELLM_TIER_SUFFIX[tier]}`;
}
