import type { ComponentChildren } from "preact";

/**
 * A page's main section: its heading (focused on navigation, so `tabIndex` -1) names the section
 * for assistive technology (`aria-labelledby`).
 */
export function PageSection(props: {
  readonly id: string;
  readonly title: string;
  readonly children: ComponentChildren;
}) {
  const titleId = `${props.id}-title`;
  return (
    <section aria-labelledby={titleId}>
      <h1 id={titleId} tabIndex={-1}>
        {props.title}
      </h1>
      {props.children}
    </section>
  );
}
