import type { Tier } from "./dimension.js";

/**
 * Which models a maker sells a service tier for, where its own page names them (issue 49 §2, T481):
 * reviewed data, one line per rule with the maker's page and the reason. A price of that tier for
 * another model of the maker's own offer (an aggregator's row) contradicts the maker and prices
 * nothing: `/cost` refuses such a request, naming the rule. Pure.
 */
export interface TierOffer {
  /** The maker of the models, and the seller whose own offer the rule covers. */
  readonly provider: string;
  readonly seller: string;
  readonly tier: Tier;
  /** What the maker calls the tier, as a request or usage record names it. */
  readonly name: string;
  /** The only models (ids) the tier is sold for. */
  readonly models: readonly string[];
  readonly decision: string;
  /** The maker's page. */
  readonly source: string;
  /** Why, quoting the recorded copy of the page. */
  readonly reason: string;
}

export const TIER_OFFERS: readonly TierOffer[] = [
  {
    provider: "anthropic",
    seller: "anthropic",
    tier: "priority",
    name: 'fast mode (speed "fast")',
    models: ["anthropic/claude-opus-4-6"],
    decision: "T481",
    source: "https://platform.claude.com/docs/en/about-claude/pricing#fast-mode-pricing",
    reason:
      'data/upstream/official-anthropic/2026-05-01/pricing.md.gz, "Fast mode pricing": "Fast mode (beta: research ' +
      'preview) for Claude Opus 4.6 … Currently supported on Opus 4.6" (the copies from 2026-03-01, when the section ' +
      "appeared, to 2026-05-01 name Opus 4.6 alone)",
  },
];

/**
 * The rule under which a maker does not sell `tier` for `model` on its own offer (T481), or null
 * when the maker sells it, or states nothing about it.
 */
export function tierNotSold(model: { readonly id: string; readonly provider: string }, seller: string, tier: Tier) {
  return (
    TIER_OFFERS.find(
      (r) => r.provider === model.provider && r.seller === seller && r.tier === tier && !r.models.includes(model.id),
    ) ?? null
  );
}
