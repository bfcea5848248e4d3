import { useEffect } from "preact/hooks";
import { query, useApi } from "../api.js";
import { useTitle } from "../dataset.js";
import type { Suggestion } from "../types.js";

/** The last path segment of the address, when it looks like a model name (for suggestions). */
function lastSegment(): string {
  const last = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() ?? "");
  return /[a-z]/i.test(last) && last.length >= 3 ? last : "";
}

/**
 * The not-found page (T121, T207): for an unknown model it names the id asked for and offers the
 * nearest models of `/models/search` (misspellings included, `fuzzy`, T206); for any other path,
 * similar names and the way back. The server answers such an address with status 404 (T207); the
 * page also asks robots not to index it.
 */
export function NotFoundPage(props: { readonly modelId?: string }) {
  const id = props.modelId;
  useTitle(id ? `Model not found: ${id}` : "Page not found");
  useEffect(() => {
    // The server wrote it when it answered this address with 404 (T207); after an in-page navigation, the page does.
    let robots = document.head.querySelector<HTMLMetaElement>('meta[name="robots"]');
    if (!robots) {
      robots = document.createElement("meta");
      robots.name = "robots";
      robots.content = "noindex";
      document.head.append(robots);
    }
    const tag = robots;
    return () => tag.remove();
  }, []);
  // A model id's slug, or the last segment of an unknown path (`/pricing/claude-sonet`): what was meant.
  const slug = id?.split("/")[1] ?? lastSegment();
  const near = useApi<Suggestion[]>(
    slug ? `/models/search${query({ q: slug.slice(0, 40), limit: 5, fuzzy: "true" })}` : null,
  );
  return (
    <section class="not-found" aria-labelledby="nf-title">
      <h1 id="nf-title" tabIndex={-1}>
        {id ? "Model not found" : "Page not found"}
      </h1>
      {id ? (
        <p>
          The catalogue has no model <code>{id}</code>. It may never have been listed, or its maker's id is spelled
          differently.
        </p>
      ) : (
        <p>There is no page at this address.</p>
      )}
      {near.state === "ok" && near.data.data.length > 0 ? (
        <>
          <h2>Models with a similar name</h2>
          <ul>
            {near.data.data.map((s) => (
              <li key={s.id}>
                <a href={`/m/${s.id}`}>{s.label}</a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <p>
        <a href={slug ? `/?q=${encodeURIComponent(slug)}` : "/"}>Search the catalogue</a> ·{" "}
        <a href="/cost">Estimate a workload</a> · <a href="/changes">Latest price changes</a>
      </p>
    </section>
  );
}
