import { useEffect } from "preact/hooks";
import { useApi } from "../api.js";
import { useTitle } from "../dataset.js";
import type { Suggestion } from "../types.js";

/**
 * The not-found page (T121): for an unknown model it names the id asked for and offers the
 * nearest models of `/models/search`; for any other path, the way back. It asks robots not to
 * index it, since the document itself is served with 200 like every page route.
 */
export function NotFoundPage(props: { readonly modelId?: string }) {
  const id = props.modelId;
  useTitle(id ? `Model not found: ${id}` : "Page not found");
  useEffect(() => {
    const robots = document.createElement("meta");
    robots.name = "robots";
    robots.content = "noindex";
    document.head.append(robots);
    return () => robots.remove();
  }, []);
  const slug = id?.split("/")[1] ?? "";
  const near = useApi<Suggestion[]>(slug ? `/models/search?q=${encodeURIComponent(slug.slice(0, 20))}&limit=5` : null);
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
        <a href={slug ? `/?q=${encodeURIComponent(slug)}` : "/"}>Search the catalogue</a>
      </p>
    </section>
  );
}
