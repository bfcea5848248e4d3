import { GLOBAL, type RegionalUplift } from "./cost.js";

/**
 * Regional and data-residency prices stated as a rule, not as a price (issue 37 §2, T303): where
 * no source publishes the price of a region for an offer, the maker's own rule gives it as a factor
 * of the global price. A regional price a source does state always wins over a rule. Pure data and
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
