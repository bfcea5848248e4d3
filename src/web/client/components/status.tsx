import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
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

/** Seconds to wait before trying again when the API named none (no `Retry-After`). */
const DEFAULT_WAIT_S = 5;

/**
 * An API failure as a short alert. A transient one (429, no connection, 5xx) says nothing about
 * the data (T208): only that the answer did not come, "try again in N s" counting down, and a
 * button that tries at once; at 0 it tries by itself. Any other problem shows its `detail`.
 */
export function Failed(props: { readonly what: string; readonly error: ApiError; readonly retry?: () => void }) {
  const { error, retry } = props;
  if (!error.transient)
    return (
      <p class="error" role="alert">
        Could not load {props.what}: {error.detail}
      </p>
    );
  return <RetryNotice what={props.what} error={error} retry={retry} />;
}

function RetryNotice(props: {
  readonly what: string;
  readonly error: ApiError;
  readonly retry?: (() => void) | undefined;
}) {
  const { error, retry } = props;
  const [left, setLeft] = useState(error.retryAfter ?? DEFAULT_WAIT_S);
  useEffect(() => {
    setLeft(error.retryAfter ?? DEFAULT_WAIT_S);
  }, [error]);
  useEffect(() => {
    if (!retry) return;
    if (left <= 0) {
      retry();
      return;
    }
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left, retry]);
  const why =
    error.status === 429
      ? "The API is busy answering this address (too many requests)."
      : error.status === 0
        ? "The server could not be reached."
        : "The server could not answer just now.";
  return (
    <div class="retry" role="alert" data-testid="retry">
      <p>
        {props.what[0]!.toUpperCase() + props.what.slice(1)} did not load. {why}{" "}
        {retry ? <>Trying again in {left} s.</> : <>Try again in {left} s.</>}
      </p>
      {retry ? (
        <button type="button" onClick={() => retry()}>
          Try again now
        </button>
      ) : null}
    </div>
  );
}

/**
 * A request of `useApi` as the page shows it: {@link Loading} while it loads, {@link Failed}
 * (with its retry) when it fails, and `children` of its answer once it is there.
 */
export function WhenLoaded<T>(props: {
  readonly what: string;
  readonly loaded: Loaded<T>;
  readonly children: (data: T) => ComponentChildren;
}) {
  const { loaded } = props;
  if (loaded.state === "loading") return <Loading what={props.what} />;
  if (loaded.state === "error") return <Failed what={props.what} error={loaded.error} retry={loaded.retry} />;
  return <>{props.children(loaded.data)}</>;
}
