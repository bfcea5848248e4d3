import type { ComponentChildren } from "preact";
import { useLayoutEffect, useRef, useState } from "preact/hooks";

/**
 * A wide table's horizontal scroller. When the table is wider than the page it becomes a named,
 * focusable region, so keyboard users can scroll it too (WCAG 2.1.1; axe scrollable-region-focusable),
 * and a line above it says that it scrolls. `label` names the region: unlike the page's own
 * landmarks (axe landmark-unique), e.g. "Sources table", not "Sources".
 */
export function TableWrap(props: { readonly label: string; readonly children: ComponentChildren }) {
  const box = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setScrolls(el.scrollWidth > el.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return (
    <>
      {/* Issue 50: on a phone, a table wider than the screen says that it scrolls (its last columns are off-screen). */}
      {scrolls ? (
        <p class="scroll-hint" data-testid="scroll-hint">
          Scroll the table sideways for more columns →
        </p>
      ) : null}
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the label is set exactly when the role is region */}
      <div
        class="table-wrap"
        ref={box}
        role={scrolls ? "region" : undefined}
        aria-label={scrolls ? props.label : undefined}
        // A scrolling region takes the focus, so it can be scrolled by keys.
        tabIndex={scrolls ? 0 : undefined}
      >
        {props.children}
      </div>
    </>
  );
}
