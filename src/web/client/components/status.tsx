import type { ComponentChildren } from "preact";
import type { ApiError, Loaded } from "../api.js";

/** A polite live region (`role="status"`): what a part of the page is doing, or what it shows. */
export function Status(props: { readonly children: ComponentChildren }) {
  return (
    <p class="muted" role="status">
      {props.children}
    </p>
  );
}

/** A polite live region saying a part of the page is loading. */
export function Loading(props: { readonly what: string }) {
  return <Status>Loading {props.what}…</Status>;
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
 * A request of `useApi` as the page shows it: {@link Loading} while it loads, {@link Failed}
 * when it fails, and `children` of its answer once it is there.
 */
export function WhenLoaded<T>(props: {
  readonly what: string;
  readonly loaded: Loaded<T>;
  readonly children: (data: T) => ComponentChildren;
}) {
  const { loaded } = props;
  if (loaded.state === "loading") return <Loading what={props.what} />;
  if (loaded.state === "error") return <Failed what={props.what} error={loaded.error} />;
  return <>{props.children(loaded.data)}</>;
}
