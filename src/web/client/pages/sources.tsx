import { useApi } from "../api.js";
import { PageSection } from "../components/page-section.js";
import { Await } from "../components/status.js";
import { ColumnHeads } from "../components/table-parts.js";
import { TableWrap } from "../components/table-wrap.js";
import { useTitle } from "../dataset.js";
import { formatCount, formatDate } from "../format.js";
import type { Source } from "../types.js";

/** Sources (issue 18 §5): each source's health from `/sources`. */
/** Columns of the table; the numeric ones are right-aligned. */
const SOURCE_COLUMNS = [
  "Source",
  "Health",
  "Last success",
  "Last error",
  "Rows last run",
  "Unmatched",
  "Weight",
  "Licence",
];
const SOURCE_COLUMNS_NUMERIC = ["Rows last run", "Unmatched", "Weight"];

export function SourcesPage() {
  useTitle("Sources");
  const sources = useApi<Source[]>("/sources");
  return (
    <PageSection id="sources" title="Sources">
      <p class="lead">
        Every price is reconciled from these sources; a source that fails keeps its last prices, marked stale. Unmatched
        counts the listings of the last run that matched no model.
      </p>
      <Await what="sources" answer={sources}>
        {(data) => (
          <TableWrap label="Sources">
            <table>
              <caption class="visually-hidden">Health of each source</caption>
              <ColumnHeads columns={SOURCE_COLUMNS} numeric={SOURCE_COLUMNS_NUMERIC} />
              <tbody>
                {data.data.map((s) => (
                  <tr key={s.source}>
                    <th scope="row">
                      <a href={s.homepage}>{s.name}</a>
                      <div class="muted">
                        {s.source}
                        {s.authoritative ? " · authoritative" : ""}
                      </div>
                    </th>
                    <td>
                      {s.lastError ? <span class="badge health-bad">failing</span> : null}
                      {!s.lastError && s.lastSuccessAt ? <span class="badge health-ok">healthy</span> : null}
                      {!s.lastError && !s.lastSuccessAt ? <span class="badge health-none">never ran</span> : null}
                    </td>
                    <td>
                      {s.lastSuccessAt ? <time dateTime={s.lastSuccessAt}>{formatDate(s.lastSuccessAt)}</time> : "—"}
                    </td>
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
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </Await>
    </PageSection>
  );
}
