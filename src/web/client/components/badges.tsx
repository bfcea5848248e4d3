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
