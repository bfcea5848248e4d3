/** Confidence as a coloured badge with its word (colour is never the only cue; T125). */
export function ConfidenceBadge(props: { readonly level: string | undefined; readonly score?: number }) {
  if (!props.level) return null;
  const title = props.score === undefined ? undefined : `confidence score ${Math.round(props.score * 100)} of 100`;
  return (
    <span class={`badge conf-${props.level}`} title={title} data-confidence={props.level}>
      {props.level}
    </span>
  );
}

/** The link to the explanation of the confidence levels and of the one rule for badge and filter (T209). */
export function LevelsLink() {
  return (
    <a class="levels-link" href="/confidence">
      What the confidence levels mean
    </a>
  );
}

/** The disputed mark: a source actively disagrees with the published amount (api-v1.md Price). */
export function DisputedMark(props: { readonly disputed: boolean | undefined }) {
  if (!props.disputed) return null;
  return (
    <span class="badge disputed" title="at least one source disagrees with this amount">
      disputed
    </span>
  );
}

/** A warning beside an offer far from the maker's list price (T209): check it before relying on it. */
export function OutlierMark(props: { readonly ratio: string | null; readonly outlier: boolean }) {
  if (!props.outlier || !props.ratio) return null;
  return (
    <span class="badge outlier" title="far from the maker's own price: check the seller's page before relying on it">
      ⚠ {props.ratio} the maker's price
    </span>
  );
}

/**
 * The mark of an offer that may not lead a ranking (T340, T341): far below the maker on one source's
 * word ("unconfirmed"), named a suspected currency slip when the ratio is a CNY/USD rate. An offer
 * below `medium` confidence shows that through its confidence badge.
 */
export function UnconfirmedMark(props: { readonly flags: readonly string[] }) {
  if (!props.flags.includes("unconfirmed_below_maker")) return null;
  const slip = props.flags.includes("suspected_currency_slip");
  return (
    <span
      class="badge outlier"
      data-trust="unconfirmed"
      title="far below the maker's own price and stated by one source only: not ranked first until a second source agrees"
    >
      unconfirmed{slip ? ": suspected CNY/USD slip" : ""}
    </span>
  );
}
