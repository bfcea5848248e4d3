import { createContext } from "preact";
import { useContext, useEffect } from "preact/hooks";
import type { DatasetSummary } from "./types.js";

/** The dataset summary of `/meta` (version, channels), read once by the shell. */
export const DatasetContext = createContext<DatasetSummary | null>(null);

/** The current dataset summary, or null while `/meta` loads. */
export function useDataset(): DatasetSummary | null {
  return useContext(DatasetContext);
}

/** Sets the document title: "<page> · Tariff". */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Tariff`;
  }, [title]);
}
