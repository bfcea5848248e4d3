import type { CacheKind } from "./dimension.js";

/**
 * A maker's prompt-caching multipliers (issue 38 §4, T346): the cache prices of an offer as
 * factors of its input price in the same tier and context bracket, where the maker states that rule
 * and no source lists the price itself. Reviewed data, one line per maker with its page; pure.
 */
export interface CacheMultipliers {
  /** Exact decimal factor of the input price per cache kind, e.g. `"0.1"` for cache reads. */
  readonly factors: Readonly<Record<Exclude<CacheKind, "none">, string>>;
  readonly decision: string;
  readonly source: string;
}

/** The rules, per maker and the seller it covers (the maker's own API only). */
const CACHE_MULTIPLIER_RULES: readonly (CacheMultipliers & { readonly provider: string; readonly seller: string })[] = [
  {
    // Anthropic's pricing page (data/upstream/official-anthropic/2025-12-01/pricing.md.gz): "5-minute
    // cache write tokens are 1.25 times the base input tokens price", "1-hour cache write tokens are 2
    // times", "Cache read tokens are 0.1 times"; "Prompt caching multipliers apply on top of long
    // context pricing"; "Batch API and prompt caching discounts can be combined". The sources list
    // the standard tier's cache prices below 200K only (and LiteLLM the 5-minute write above it), so
    // a batch request with caching or a long request writing the 1-hour cache had no price.
    provider: "anthropic",
    seller: "anthropic",
    factors: { read: "0.1", write: "1.25", write_1h: "2" },
    decision: "T346",
    source:
      "https://docs.claude.com/en/docs/about-claude/pricing (prompt caching multipliers of the base input price; they apply on top of long context and batch prices)",
  },
];

/**
 * The caching multipliers that price the cache lines of an offer (T346), or null when its maker
 * states none for that seller. `provider` is the model's maker, `seller` the offer's.
 */
export function cacheMultipliers(model: { readonly provider: string }, seller: string): CacheMultipliers | null {
  const rule = CACHE_MULTIPLIER_RULES.find((r) => r.provider === model.provider && r.seller === seller);
  return rule ? { factors: rule.factors, decision: rule.decision, source: rule.source } : null;
}
