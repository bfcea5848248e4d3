/** Confidence as a coloured badge with its word (colour is never the only cue; T125). */
export function ConfidenceBadge(props: { readonly level: string | undefined; readonly score?: number }) {
  if (!props.level) return null;
  const title = props.score === undefined ? undefined : `confidence score ${Math.round(props.score * 100)} of 100`;
  return (
    <span class={`badge conf-${props.level}`} title={title}>
      {props.level}
    </span>
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
