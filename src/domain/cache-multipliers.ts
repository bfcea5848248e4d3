import type { CacheKind } from "./dimension.js";

/**
 * A maker's prompt-caching multipliers (issue 38 §4, T346): the cache prices of an offer as
 * factors of its input price in the same tier and context bracket, where the maker states that rule
 * and no source lists the price itself. Reviewed data, one line per maker with its page; pure.
 */
export interface CacheMultipliers {
  /** Exact decimal factor of the input price per cache kind the rule states, e.g. `"0.1"` for cache reads. */
  readonly factors: Readonly<Partial<Record<Exclude<CacheKind, "none">, string>>>;
  /**
   * The rule is the price even where a source lists another (T483: "no extra charge" is the
   * maker's price; a row saying otherwise is a dissent); false: it prices only what no source lists.
   */
  readonly overrides: boolean;
  readonly decision: string;
  readonly source: string;
}

/** One rule: the maker and seller it covers, and the models by release day. */
interface CacheMultiplierRule extends CacheMultipliers {
  readonly provider: string;
  readonly seller: string;
  /** The last release day (YYYY-MM-DD) of the models it covers; null: every model. */
  readonly releasedUntil: string | null;
  /** Why the rule is as it is, from the maker's page. */
  readonly reason: string;
}

/** The rules, per maker and the seller it covers (the maker's own API only). */
export const CACHE_MULTIPLIER_RULES: readonly CacheMultiplierRule[] = [
  {
    provider: "anthropic",
    seller: "anthropic",
    factors: { read: "0.1", write: "1.25", write_1h: "2" },
    overrides: false,
    releasedUntil: null,
    decision: "T346",
    source:
      "https://docs.claude.com/en/docs/about-claude/pricing (prompt caching multipliers of the base input price; they apply on top of long context and batch prices)",
    reason:
      "data/upstream/official-anthropic/2025-12-01/pricing.md.gz: 5-minute cache writes 1.25×, 1-hour 2×, reads 0.1× the base " +
      "input price, on top of long context and batch prices; the sources list the standard tier's cache prices below 200K only",
  },
  {
    provider: "openai",
    seller: "openai",
    factors: { write: "1" },
    overrides: true,
    // GPT-5.5's release day: the guide's "GPT-5.5 and earlier".
    releasedUntil: "2026-04-23",
    decision: "T483",
    source:
      "https://developers.openai.com/api/docs/guides/prompt-caching (caching is automatic; writing the cache costs nothing beyond input on GPT-5.5 and earlier)",
    reason:
      "OpenAI's prompt-caching guide (not among the recorded pages; as issue 49 quotes it): a cache write is an input token " +
      "billed at the input price, so OpenAI publishes no cache-write price and /cost left those tokens unpriced",
  },
];

/**
 * The caching multipliers that price the cache lines of an offer (T346, T483), or null when its
 * maker states none for that seller and model. `provider` is the model's maker, `seller` the offer's.
 */
export function cacheMultipliers(
  model: { readonly provider: string; readonly lifecycle?: { readonly releasedOn: string | null } },
  seller: string,
): CacheMultipliers | null {
  const released = model.lifecycle?.releasedOn ?? null;
  const rule = CACHE_MULTIPLIER_RULES.find(
    (r) =>
      r.provider === model.provider &&
      r.seller === seller &&
      (r.releasedUntil === null || (released !== null && released <= r.releasedUntil)),
  );
  return rule
    ? { factors: rule.factors, overrides: rule.overrides, decision: rule.decision, source: rule.source }
    : null;
}
