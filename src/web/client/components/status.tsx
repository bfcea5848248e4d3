import type { ApiError } from "../api.js";

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
