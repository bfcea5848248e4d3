import { GLOBAL, type RegionalUplift } from "./cost.js";

/**
 * Regional and data-residency prices stated as a rule, not as a price (issue 37 §2, T303): where
 * no source publishes the price of a region for an offer, the maker's own rule gives it as a factor
 * of the global price. A regional price a source states wins over a rule only where it agrees with
 * it; one that does not (an aggregator copying the global price) is a dissent (T482). Pure data and
 * a lookup; no I/O. The makers' pages could not be read from where this was written (no network):
 * each rule is as issue 37 states it, with the page it cites; a source's regional price, where one
 * exists (Bedrock's `region: eu` 1.1× rows), agrees with it.
 */

/** One maker rule: which offers and models it covers, its factor, decision and page. */
interface UpliftRule extends RegionalUplift {
  /** The seller whose offers it covers (the maker in `direct`, a cloud in its reseller channel). */
  readonly seller: string;
  /** The maker of the models it covers. */
  readonly provider: string;
  /** Models released on or after this day (YYYY-MM-DD); a model with no known release day is not covered. */
  readonly releasedFrom: string;
  /** Why, from the maker's page (T482: the rule overrules a regional row that is not global × factor). */
  readonly reason: string;
}

/**
 * The rules, each with the maker's page. Every region other than `global` is a regional request
 * under them: the makers price all their regional or in-country endpoints alike.
 */
export const REGIONAL_UPLIFT_RULES: readonly UpliftRule[] = [
  {
    // OpenAI API pricing, "Data residency / regional processing": +10% for models released on or
    // after 2026-03-05 (GPT-5.4 onwards) served from a data-residency region.
    seller: "openai",
    provider: "openai",
    releasedFrom: "2026-03-05",
    factor: "1.1",
    decision: "T303",
    source: "https://openai.com/api/pricing/ (data residency: 1.1× for models released on or after 2026-03-05)",
    reason:
      'data/upstream/official-openai/2026-06-01/pricing.md.gz: "Regional processing (data residency) endpoints are ' +
      'charged a 10% uplift for models released on or after March 5, 2026"',
  },
  {
    // Anthropic pricing, "Data residency pricing": inference_geo "us" on Claude Opus 4.6 and newer
    // models costs 1.1× every token price; "global" is the standard price.
    seller: "anthropic",
    provider: "anthropic",
    releasedFrom: "2026-02-05",
    factor: "1.1",
    decision: "T303",
    source:
      "https://platform.claude.com/docs/en/about-claude/pricing#data-residency-pricing (inference_geo: 1.1× from Claude Opus 4.6)",
    reason:
      'data/upstream/official-anthropic/2026-05-01/pricing.md.gz, "Data residency pricing": "For Claude Opus 4.7, ' +
      'Claude Opus 4.6, and newer models, … inference_geo … incurs a 1.1x multiplier on all token pricing categories"',
  },
  {
    // Vertex AI pricing, Claude models: regional endpoints are 10% above the global endpoint from
    // Claude Sonnet 4.5 (released 2025-09-29) onwards.
    seller: "google-vertex",
    provider: "anthropic",
    releasedFrom: "2025-09-29",
    factor: "1.1",
    decision: "T303",
    source:
      "https://cloud.google.com/vertex-ai/generative-ai/pricing#claude-models (regional endpoints: +10% from Claude Sonnet 4.5)",
    reason:
      'data/upstream/official-anthropic/2026-05-01/pricing.md.gz: "Starting with Claude Sonnet 4.5 and Haiku 4.5 … ' +
      'Regional and multi-region endpoints include a 10% premium over global endpoints"; an aggregator row ' +
      "for a region at the global price is a dissent (issue 49: Bedrock us. Opus 4.6 at 5, T482)",
  },
  {
    // Amazon Bedrock pricing, Anthropic: geographic cross-region inference profiles (us., eu., jp.,
    // au.) are 10% above global cross-region inference from Claude Sonnet 4.5 onwards.
    seller: "amazon-bedrock",
    provider: "anthropic",
    releasedFrom: "2025-09-29",
    factor: "1.1",
    decision: "T303",
    source:
      "https://aws.amazon.com/bedrock/pricing/ (Anthropic: geographic inference profiles +10% over global from Claude Sonnet 4.5)",
    reason:
      'data/upstream/official-anthropic/2026-05-01/pricing.md.gz: "Starting with Claude Sonnet 4.5 and Haiku 4.5 … ' +
      'Regional and multi-region endpoints include a 10% premium over global endpoints"; an aggregator row ' +
      "for a region at the global price is a dissent (issue 49: Bedrock us. Opus 4.6 at 5, T482)",
  },
];

/**
 * The maker's rule for a regional request on one offer (T303), or null when the region is global
 * or no rule covers the offer and model.
 */
export function regionalUplift(
  model: { readonly provider: string; readonly lifecycle: { readonly releasedOn: string | null } },
  seller: string,
  region: string | null,
): RegionalUplift | null {
  if (region === null || region === GLOBAL) return null;
  const released = model.lifecycle.releasedOn;
  if (released === null) return null;
  const rule = REGIONAL_UPLIFT_RULES.find(
    (r) => r.seller === seller && r.provider === model.provider && released >= r.releasedFrom,
  );
  return rule ? { factor: rule.factor, decision: rule.decision, source: rule.source } : null;
}
