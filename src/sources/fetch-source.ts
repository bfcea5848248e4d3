import pRetry from "p-retry";
import { Agent, type Dispatcher, fetch } from "undici";

/**
 * HTTP plumbing of live ingestion (issue 7 §1): one GET per upstream file through undici (gzip/br
 * decoded), a per-attempt timeout, bounded retries with exponential backoff and jitter (p-retry)
 * that honour `Retry-After` on 429/503, conditional requests (ETag / Last-Modified) and a size cap
 * on the decoded body.
 */

/** Validators of the last 200 answer for a URL, sent back as If-None-Match / If-Modified-Since. */
export interface Validators {
  readonly etag: string | null;
  readonly lastModified: string | null;
}

/** One fetched file: its decoded bytes, or `notModified` when the upstream answered 304. */
export type FetchedFile =
  | { readonly notModified: false; readonly bytes: Buffer; readonly validators: Validators; readonly attempts: number }
  | { readonly notModified: true; readonly attempts: number };

/** A failed fetch: `httpStatus` is the upstream's status when that status is the failure (D4). */
export class FetchError extends Error {
  override name = "FetchError";
  constructor(
    message: string,
    readonly httpStatus: number | null,
    readonly retryable: boolean,
    /** Delay the upstream asked for (Retry-After), ms. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/** Limits of one upstream request. */
export interface FetchLimits {
  /** Whole request, headers to last body byte, per attempt (ms). */
  readonly timeoutMs: number;
  /** Retries after the first attempt (network errors, timeouts, 429, 5xx). */
  readonly retries: number;
  /** First backoff delay (ms); doubles per retry, with jitter, up to 30 s. */
  readonly retryMinMs: number;
  /** Longest `Retry-After` honoured (ms); a longer one fails the source at once. */
  readonly maxRetryAfterMs: number;
  /** Size cap of a decoded body (bytes). */
  readonly maxBytes: number;
  readonly userAgent: string;
}

/** A dispatcher (connection pool) with the limits' timeouts; share one per run, close it after. */
export function createDispatcher(limits: FetchLimits): Dispatcher {
  return new Agent({
    connectTimeout: limits.timeoutMs,
    headersTimeout: limits.timeoutMs,
    bodyTimeout: limits.timeoutMs,
    connections: 8,
  });
}

/**
 * GETs `url` with retries.
 * @throws FetchError after the last attempt, its message saying what happened and how many attempts
 */
export async function fetchFile(
  url: string,
  validators: Validators | null,
  limits: FetchLimits,
  dispatcher: Dispatcher,
): Promise<FetchedFile> {
  let attempts = 0;
  try {
    return await pRetry(
      async () => {
        attempts += 1;
        const file = await fetchOnce(url, validators, limits, dispatcher);
        return { ...file, attempts };
      },
      {
        retries: limits.retries,
        minTimeout: limits.retryMinMs,
        maxTimeout: 30_000,
        factor: 2,
        randomize: true,
        shouldRetry: ({ error }) => error instanceof FetchError && error.retryable,
        onFailedAttempt: async ({ error, retriesLeft }) => {
          if (error instanceof FetchError && error.retryable && error.retryAfterMs && retriesLeft > 0)
            await new Promise((r) => setTimeout(r, error.retryAfterMs ?? 0));
        },
      },
    );
  } catch (error) {
    const tries = attempts === 1 ? "1 attempt" : `${attempts} attempts`;
    if (error instanceof FetchError)
      throw new FetchError(`GET ${url}: ${error.message} (${tries})`, error.httpStatus, false);
    throw new FetchError(
      `GET ${url}: ${error instanceof Error ? error.message : String(error)} (${tries})`,
      null,
      false,
    );
  }
}

async function fetchOnce(
  url: string,
  validators: Validators | null,
  limits: FetchLimits,
  dispatcher: Dispatcher,
): Promise<
  | { readonly notModified: true }
  | { readonly notModified: false; readonly bytes: Buffer; readonly validators: Validators }
> {
  const headers: Record<string, string> = {
    "user-agent": limits.userAgent,
    accept: "application/json, text/markdown;q=0.9, */*;q=0.8",
    "accept-encoding": "gzip, br",
  };
  if (validators?.etag) headers["if-none-match"] = validators.etag;
  if (validators?.lastModified) headers["if-modified-since"] = validators.lastModified;
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let response: Awaited<ReturnType<typeof fetch>>;
  try {
    response = await fetch(url, { headers, dispatcher, signal, redirect: "follow" });
  } catch (error) {
    throw transportError(error, limits);
  }
  if (response.status === 304) {
    await response.body?.cancel();
    return { notModified: true };
  }
  if (response.status < 200 || response.status > 299) {
    await response.body?.cancel().catch(() => {});
    const retryable = response.status === 429 || response.status >= 500;
    const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
    const text = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
    if (retryAfter !== null && retryAfter > limits.maxRetryAfterMs)
      throw new FetchError(
        `${text}, Retry-After ${Math.ceil(retryAfter / 1000)} s exceeds the ${limits.maxRetryAfterMs / 1000} s limit`,
        response.status,
        false,
      );
    const suffix = retryAfter !== null ? ` (Retry-After ${Math.ceil(retryAfter / 1000)} s)` : "";
    throw new FetchError(`${text}${suffix}`, response.status, retryable, retryAfter);
  }
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > limits.maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw new FetchError(
      `body of ${declared} bytes exceeds the size cap of ${formatBytes(limits.maxBytes)}`,
      null,
      false,
    );
  }
  const bytes = await readCapped(response, limits);
  if (bytes.length === 0) throw new FetchError("empty body (HTTP 200 with 0 bytes)", null, false);
  return {
    notModified: false,
    bytes,
    validators: { etag: response.headers.get("etag"), lastModified: response.headers.get("last-modified") },
  };
}

/** Reads the decoded body, failing as soon as it passes the size cap (a decompression bomb too). */
async function readCapped(response: Awaited<ReturnType<typeof fetch>>, limits: FetchLimits): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limits.maxBytes) {
        await reader.cancel().catch(() => {});
        throw new FetchError(`body exceeds the size cap of ${formatBytes(limits.maxBytes)}`, null, false);
      }
      chunks.push(Buffer.from(value));
    }
  } catch (error) {
    if (error instanceof FetchError) throw error;
    throw transportError(error, limits);
  }
  return Buffer.concat(chunks, total);
}

/** Maps undici / abort errors to a message saying what happened. */
function transportError(error: unknown, limits: FetchLimits): FetchError {
  const err = error instanceof Error ? error : new Error(String(error));
  const cause = err.cause instanceof Error ? (err.cause as Error & { code?: string }) : null;
  const code = cause?.code ?? (err as Error & { code?: string }).code;
  if (err.name === "TimeoutError" || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT")
    return new FetchError(`timeout: no complete answer within ${limits.timeoutMs} ms`, null, true);
  if (code === "UND_ERR_CONNECT_TIMEOUT")
    return new FetchError(`timeout: could not connect within ${limits.timeoutMs} ms`, null, true);
  const detail = cause ? `${cause.code ?? cause.name}: ${cause.message}` : err.message;
  return new FetchError(`network error (${detail})`, null, true);
}

/** `Retry-After` as ms: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MB` : `${n} bytes`;
}
