import { useApi } from "../api.js";
import { type Column, DataTable, numeric } from "../components/data-table.js";
import { HealthBadge } from "../components/freshness.js";
import { Page } from "../components/page.js";
import { WhenLoaded } from "../components/status.js";
import { formatCount, formatDate } from "../format.js";
import type { Source } from "../types.js";

const COLUMNS: readonly Column[] = [
  "Source",
  "Health",
  "Last attempt",
  "Last success",
  "Last error",
  numeric("Rows last run"),
  numeric("Unmatched"),
  numeric("Weight"),
  "Licence",
];

/** Sources (issue 18 §5): each source's health, last attempt and last error from `/sources` (T310). */
export function SourcesPage() {
  const sources = useApi<Source[]>("/sources");
  return (
    <Page
      id="sources"
      title="Sources"
      lead={
        <>
          Every price is reconciled from these sources; a source that fails keeps its last prices, marked stale. Health,
          judged now: fresh, stale (no success within the last week) or failing (its last attempt failed). The last
          attempt is the last time a live run tried the source, whether or not it published. Unmatched counts the
          listings of the last run that matched no model.
        </>
      }
    >
      <WhenLoaded what="sources" loaded={sources}>
        {({ data }) => (
          <DataTable label="Table of the sources' health" caption="Health of each source" columns={COLUMNS}>
            {data.map((s) => (
              <SourceRow key={s.source} source={s} />
            ))}
          </DataTable>
        )}
      </WhenLoaded>
    </Page>
  );
}

function SourceRow(props: { readonly source: Source }) {
  const s = props.source;
  return (
    <tr>
      <th scope="row">
        <a href={s.homepage}>{s.name}</a>
        <div class="muted">
          {s.source}
          {s.authoritative ? " · authoritative" : ""}
        </div>
      </th>
      <td>
        <HealthBadge health={s.health} />
      </td>
      <td>
        <LastAttempt attempt={s.lastAttempt} />
      </td>
      <td>{s.lastSuccessAt ? <time dateTime={s.lastSuccessAt}>{formatDate(s.lastSuccessAt)}</time> : "—"}</td>
      <td>
        {s.lastError ? (
          <>
            <time dateTime={s.lastError.at}>{formatDate(s.lastError.at)}</time>{" "}
            {s.lastError.httpStatus ? `HTTP ${s.lastError.httpStatus}: ` : ""}
            {s.lastError.message}
          </>
        ) : (
          "none"
        )}
      </td>
      <td class="num">{formatCount(s.rowsLastRun)}</td>
      <td class="num">{formatCount(s.unmatchedLastRun)}</td>
      <td class="num">{s.weight}</td>
      <td>{s.license ?? "—"}</td>
    </tr>
  );
}

/** The last live attempt (T310): when, and what came of it; "none" when no live run tried the source. */
function LastAttempt(props: { readonly attempt: Source["lastAttempt"] }) {
  const a = props.attempt;
  if (!a) return <>none (no live run yet)</>;
  return (
    <>
      <time dateTime={a.at}>{a.at.slice(0, 16).replace("T", " ")} UTC</time> {a.status}
    </>
  );
}
