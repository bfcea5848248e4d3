import { billedThresholds, type CostPrice } from "./cost.js";
import type { Tier } from "./dimension.js";

/**
 * Tiers a maker prices at one rate across the whole context window (issue 37 §5, T371): in them the
 * long-context thresholds of the maker's standard tier do not bind (T141 otherwise carries them into
 * batch, flex and priority). Reviewed data, one line per maker and tier with its page; pure.
 */
export interface FullWindowTier {
  readonly provider: string;
  readonly tier: Tier;
  readonly decision: string;
  readonly source: string;
}

const FULL_WINDOW_TIERS: readonly FullWindowTier[] = [
  {
    // Anthropic's pricing page (data/upstream/official-anthropic/2026-03-01 … 2026-05-01/pricing.md.gz,
    // "Fast mode pricing"): "Fast mode pricing applies across the full context window, including
    // requests over 200K input tokens". On 2026-03-01 the same page still priced standard Opus 4.6
    // above 200K (10 / 37.5); a fast request of 272K is still billed at 30 / 150.
    provider: "anthropic",
    tier: "priority",
    decision: "T371",
    source:
      "https://platform.claude.com/docs/en/about-claude/pricing (Fast mode pricing: applies across the full context window, including requests over 200K input tokens)",
  },
];

/** The rule that a model's maker prices `tier` across the full context window (T371), or null. */
export function fullWindowTier(model: { readonly provider: string }, tier: Tier): FullWindowTier | null {
  return FULL_WINDOW_TIERS.find((r) => r.provider === model.provider && r.tier === tier) ?? null;
}

/**
 * The prompt-length thresholds the maker's own prices (`direct`, its direct channel) impose on every
 * offer of a model for a request in `tier` (T141): those of `tier` itself and, unless the maker
 * prices that tier across the full window ({@link fullWindowTier}, T371), those of its standard tier.
 */
export function makerThresholds(
  model: { readonly provider: string },
  direct: readonly CostPrice[],
  tier: Tier,
): number[] {
  const own = billedThresholds(direct, tier);
  if (tier === "standard" || fullWindowTier(model, tier)) return own;
  return [...new Set([...own, ...billedThresholds(direct, "standard")])];
}
