import { useApi } from "../api.js";
import { Failed, Loading } from "../components/status.js";
import { TableWrap } from "../components/table-wrap.js";
import { useTitle } from "../dataset.js";
import { formatCount, formatDate } from "../format.js";
import type { Source } from "../types.js";

/** Sources (issue 18 §5): each source's health from `/sources`. */
export function SourcesPage() {
  useTitle("Sources");
  const sources = useApi<Source[]>("/sources");
  return (
    <section aria-labelledby="sources-title">
      <h1 id="sources-title" tabIndex={-1}>
        Sources
      </h1>
      <p class="lead">
        Every price is reconciled from these sources; a source that fails keeps its last prices, marked stale. Unmatched
        counts the listings of the last run that matched no model.
      </p>
      {sources.state === "loading" ? <Loading what="sources" /> : null}
      {sources.state === "error" ? <Failed what="sources" error={sources.error} /> : null}
      {sources.state === "ok" ? (
        <TableWrap label="Sources">
          <table>
            <caption class="visually-hidden">Health of each source</caption>
            <thead>
              <tr>
                <th scope="col">Source</th>
                <th scope="col">Health</th>
                <th scope="col">Last success</th>
                <th scope="col">Last error</th>
                <th scope="col" class="num">
                  Rows last run
                </th>
                <th scope="col" class="num">
                  Unmatched
                </th>
                <th scope="col" class="num">
                  Weight
                </th>
                <th scope="col">Licence</th>
              </tr>
            </thead>
            <tbody>
              {sources.data.data.map((s) => (
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
      ) : null}
    </section>
  );
}
