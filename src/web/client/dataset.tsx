import { createContext } from "preact";
import { useContext, useEffect } from "preact/hooks";
import type { DatasetSummary } from "./types.js";

/** The dataset summary of `/meta` (version, channels), read once by the shell. */
export const DatasetContext = createContext<DatasetSummary | null>(null);

/** The current dataset summary, or null while `/meta` loads. */
export function useDataset(): DatasetSummary | null {
  return useContext(DatasetContext);
}

/** The document's default description (index.html's). */
export const DEFAULT_DESCRIPTION =
  "Tariff: open catalogue of AI-model prices, every channel, every source, with history.";

/**
 * Sets the document title ("<page> · Tariff") and its description, Open Graph title and
 * description with it (T207): the server writes the same tags into the HTML of a model page, so a
 * shared link previews its price; this keeps them right after in-page navigation.
 */
export function useTitle(title: string, description: string = DEFAULT_DESCRIPTION): void {
  useEffect(() => {
    document.title = `${title} · Tariff`;
    setMeta("name", "description", description);
    setMeta("property", "og:title", `${title} · Tariff`);
    setMeta("property", "og:description", description);
  }, [title, description]);
}

function setMeta(attribute: "name" | "property", key: string, content: string): void {
  let tag = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (!tag) {
    tag = document.createElement("meta");
    tag.setAttribute(attribute, key);
    document.head.append(tag);
  }
  tag.content = content;
}
