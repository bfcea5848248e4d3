import { CONFIDENCE_LEVELS } from "../../../domain/confidence.js";
import { VERIFIED_PAGE_MAX_AGE_DAYS } from "../../../domain/freshness.js";
import { ConfidenceBadge } from "../components/badges.js";
import { Page } from "../components/page.js";

/** What each level means (api-v1.md "States and transitions", D8), in the API's own words. */
const MEANINGS: Readonly<Record<(typeof CONFIDENCE_LEVELS)[number], string>> = {
  verified: `Confirmed on the seller's own pricing page, read within the last ${VERIFIED_PAGE_MAX_AGE_DAYS} days.`,
  high: "Strong agreement across independent sources.",
  medium: "Some agreement, or one reasonably reliable source.",
  low: "Weak or partial evidence.",
  unverified: "Not corroborated: treat with caution.",
};

/**
 * The confidence levels explained (issue 28 §7, T209), one click from every badge and filter: what
 * each level means, and the one rule by which a row's badge and the confidence filter agree.
 */
export function ConfidencePage() {
  return (
    <Page
      id="confidence"
      title="What the confidence levels mean"
      lead={<>Every price carries a confidence level and a score from 0 to 100, from the sources behind it.</>}
    >
      <dl class="levels">
        {CONFIDENCE_LEVELS.map((level) => (
          <div key={level}>
            <dt>
              <ConfidenceBadge level={level} />
            </dt>
            <dd>{MEANINGS[level]}</dd>
          </div>
        ))}
      </dl>
      <h2>One rule for the badge and the filter</h2>
      <p>
        A row of the catalogue shows one price per direction: the maker's own input and output price per 1M tokens, or,
        where the maker publishes none, the cheapest channel's. The row's badge is the weaker confidence of those two
        prices, and the catalogue's confidence filter keeps exactly the rows whose badge is the level chosen (the API's
        <code> listedConfidence</code>). Tool, image and other prices have their own badges on the model's page.
      </p>
      <h2>Agreeing and dissenting sources</h2>
      <p>
        Beside each price the model page lists the sources that state the same amount and those that state another, with
        the amount each dissenting source states. A price is <span class="badge disputed">disputed</span> when a source
        actively disagrees, and <span class="badge stale">stale</span> when no fresh source confirmed it in the last
        run. An offer more than three times above or below the maker's own price is flagged: check the seller's page
        before relying on it.
      </p>
    </Page>
  );
}
