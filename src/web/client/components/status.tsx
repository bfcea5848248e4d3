import type { ComponentChildren } from "preact";
import type { ApiError, Loaded } from "../api.js";

/** A polite live region saying a part of the page is loading. */
export function Loading(props: { readonly what: string }) {
  return (
    <p class="muted" role="status">
      Loading {props.what}…
    </p>
  );
}

/** An API error as a short alert (the problem's detail, never a stack). */
export function Failed(props: { readonly what: string; readonly error: ApiError }) {
  return (
    <p class="error" role="alert">
      Could not load {props.what}: {props.error.detail}
    </p>
  );
}

/**
 * A part of the page fed by one API answer: "Loading …" while it loads, the problem's detail when it
 * failed, else `children` with the answer, after a polite status line when `status` gives one.
 */
export function Await<T>(props: {
  readonly what: string;
  readonly answer: Loaded<T>;
  readonly status?: (data: T) => ComponentChildren;
  readonly children: (data: T) => ComponentChildren;
}) {
  const { answer } = props;
  if (answer.state === "loading") return <Loading what={props.what} />;
  if (answer.state === "error") return <Failed what={props.what} error={answer.error} />;
  return (
    <>
      {props.status ? (
        <p role="status" class="muted">
          {props.status(answer.data)}
        </p>
      ) : null}
      {props.children(answer.data)}
    </>
  );
}
