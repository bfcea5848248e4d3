import { CURRENT_WITHIN_DAYS, daysBetween, describeDays, type SourceHealthState } from "../../../domain/freshness.js";
import { useDataset } from "../dataset.js";

/**
 * How fresh the catalogue is, as the page says it (issue 27 §4, T227): the date of the newest
 * successful evidence `/meta` reports, its age against the reader's clock, a notice when it is
 * older than a week, and each source's health as `/sources` judges it (one rule, T225).
 */

/**
 * The newest evidence's time: `/meta` freshness once loaded, before that the server's
 * `<meta name="tariff:data-as-of">` in the page's head, so the age shows on first paint and its
 * arrival moves nothing (T227).
 */
function useDataAsOf(): string | null {
  const loaded = useDataset()?.freshness.newestEvidenceAt;
  if (loaded !== undefined) return loaded;
  return document.querySelector<HTMLMetaElement>('meta[name="tariff:data-as-of"]')?.content || null;
}

/** "prices as of 2026-06-01 (12 days ago)", from `/meta` freshness; nothing while it loads. */
export function DataAge() {
  const asOf = useDataAsOf();
  if (!asOf) return null;
  const days = daysBetween(asOf, Date.now());
  return (
    <span class="data-age">
      prices as of <time dateTime={asOf}>{asOf.slice(0, 10)}</time> ({days < 1 ? "today" : `${describeDays(days)} ago`})
    </span>
  );
}

/** A visible notice when the newest evidence is older than {@link CURRENT_WITHIN_DAYS} days. */
export function StaleNotice() {
  const asOf = useDataAsOf();
  if (!asOf) return null;
  const days = daysBetween(asOf, Date.now());
  if (days <= CURRENT_WITHIN_DAYS) return null;
  return (
    <p class="stale-notice" role="note" style={{ background: "#fef3c7", color: "#78350f", padding: "0.5rem 0.75rem" }}>
      <strong>Not current:</strong> these prices are as of <time dateTime={asOf}>{asOf.slice(0, 10)}</time>,{" "}
      {describeDays(days)} ago, older than a week: no newer evidence has been published since. See{" "}
      <a href="/sources">Sources</a> for each source's last success.
    </p>
  );
}

const HEALTH_CLASS: Readonly<Record<SourceHealthState, string>> = {
  fresh: "health-ok",
  stale: "health-none",
  failing: "health-bad",
};

/** A source's health badge: the `health` of its `/sources` record, as given. */
export function HealthBadge(props: { readonly health: SourceHealthState }) {
  return <span class={`badge ${HEALTH_CLASS[props.health]}`}>{props.health}</span>;
}
