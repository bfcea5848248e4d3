import { CHANNEL_NAMES, CHANNELS } from "../../domain/channel.js";
import { VERIFIED_PAGE_MAX_AGE_DAYS } from "../../domain/freshness.js";

/** The channels with their names, for descriptions: `direct (Maker's own price list), …`. */
export const CHANNEL_LIST = CHANNELS.map((c) => `${c} (${CHANNEL_NAMES[c]})`).join(", ");

/** How model ids are spelled, appended to tool descriptions. */
export const MODEL_ID = "Model ids are `<provider>/<model>`, e.g. `anthropic/claude-opus-4-0`.";

/** Shared vocabulary, appended to the tool descriptions of endpoints that return prices. */
export const PRICE_NOTES =
  "Amounts are in display units, never base units: each price names its `displayUnit`, e.g. " +
  "`USD per 1M tokens`, `USD per image`, `USD per request`. `denomination` is `currency` for money, or " +
  "`credit` for usage included in a subscription plan (currency `XXX`, unit `credits per 1M tokens " +
  "(included in plan)`): credits are never converted to money and cannot be compared with money prices. " +
  `\`confidence\`: verified = confirmed on the maker's own pricing page, read within the last ${VERIFIED_PAGE_MAX_AGE_DAYS} days ` +
  "(`pageStale` says when a page that states a price was read longer ago); high = strong agreement across " +
  "independent sources; medium = some agreement, or one reasonably reliable source; low = weak or partial " +
  "evidence; unverified = not corroborated, treat with caution. `confidenceScore` is 0–1 on prices. " +
  "`sources` agree with the amount, `dissenting` disagree, `disputed` is true when a source actively " +
  "disagrees; `staleSince` is set when no fresh source confirmed the price.";
