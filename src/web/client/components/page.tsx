import type { ComponentChildren } from "preact";
import { useTitle } from "../dataset.js";

/**
 * One page of the catalogue: the document title "<title> · Tariff", a section named by its `h1`
 * (the heading that takes the focus after an in-page navigation, T125), the page's lead paragraph
 * and its content.
 */
export function Page(props: {
  /** The heading's id is `<id>-title`. */
  readonly id: string;
  readonly title: string;
  readonly lead?: ComponentChildren;
  readonly children: ComponentChildren;
}) {
  useTitle(props.title);
  const headingId = `${props.id}-title`;
  return (
    <section aria-labelledby={headingId}>
      <h1 id={headingId} tabIndex={-1}>
        {props.title}
      </h1>
      {props.lead ? <p class="lead">{props.lead}</p> : null}
      {props.children}
    </section>
  );
}
