import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";

/** The phone layout's breakpoint (styles.css uses the same width). */
const NARROW = "(max-width: 640px)";

/** True on a phone-sized screen, following the window as it resizes. */
export function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => typeof matchMedia === "function" && matchMedia(NARROW).matches);
  useEffect(() => {
    const query = matchMedia(NARROW);
    const onChange = () => setNarrow(query.matches);
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);
  return narrow;
}

/**
 * Secondary filters (issue 28 §8, T208): inline on a wide screen; on a phone folded under
 * "More filters (n set)", so the prices come first and are reached without scrolling past every
 * control. The fields are the same elements either way.
 */
export function FilterPanel(props: { readonly active: number; readonly children: ComponentChildren }) {
  const narrow = useNarrow();
  if (!narrow) return <>{props.children}</>;
  return (
    <details class="filter-panel">
      <summary>More filters{props.active > 0 ? ` (${props.active} set)` : ""}</summary>
      <div class="filter-grid">{props.children}</div>
    </details>
  );
}
