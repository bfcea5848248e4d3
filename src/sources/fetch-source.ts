import { STATUS_CODES } from "node:http";
import { pipeline } from "node:stream/promises";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import pRetry from "p-retry";
import { Agent, type Dispatcher, request } from "undici";
import { lookupTable } from "../domain/lookup-table.js";
import { withoutAddresses } from "./failure-text.js";

/**
 * HTTP plumbing of live ingestion (issue 7 §1, issue 26 §1): one GET per upstream file through
 * undici, a per-attempt timeout, bounded retries with exponential backoff and jitter (p-retry)
 * that honour `Retry-After` on 429/503, conditional requests (ETag / Last-Modified) and a size cap
 * on the decoded body.
 *
 * Bodies are decoded strictly (T192): gzip, deflate and br through zlib's default (finishing)
 * decoders, so a cut stream is an error and not a shorter document (undici's `fetch` decodes
 * leniently, as browsers do, and is not used); the bytes received must match `Content-Length`;
 * the text must be UTF-8. Messages name the file, never its URL (T193).
 */

/** Validators of the last 200 answer for a URL, sent back as If-None-Match / If-Modified-Since. */
export interface Validators {
  readonly etag: string | null;
  readonly lastModified: string | null;
}

/** One fetched file: its decoded bytes and their UTF-8 text, or `notModified` when the upstream answered 304. */
export type FetchedFile =
  | {
      readonly notModified: false;
      readonly bytes: Buffer;
      readonly text: string;
      readonly validators: Validators;
      readonly attempts: number;
    }
  | { readonly notModified: true; readonly attempts: number };

/** The file to fetch: its URL, and the name messages use for it (never the URL, T193). */
export interface FileRequest {
  readonly url: string;
  readonly name: string;
  /**
   * Hosts (`host` or `host:port`) besides the URL's own that a redirect may lead to (T264): the
   * source's registry entry says which (`LiveUpstream.redirectHosts`). Any other is refused.
   */
  readonly redirectHosts?: readonly string[];
}

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

/** Redirects followed per request. */
const MAX_REDIRECTIONS = 5;

/**
 * A dispatcher (connection pool) with the limits' timeouts; share one per run, close it after.
 * Redirects are followed by {@link fetchFile} itself, which checks where each one leads (T264).
 */
export function createDispatcher(limits: FetchLimits): Dispatcher {
  return new Agent({
    connectTimeout: limits.timeoutMs,
    headersTimeout: limits.timeoutMs,
    bodyTimeout: limits.timeoutMs,
    connections: 8,
  });
}

/** Statuses whose `Location` is followed. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Where a redirect from `from` to `location` may go (issue 33 §5, T264): the same host, or one of
 * `allowed`; the same scheme, or http to https.
 * @throws FetchError naming the status and why, never the target (T193)
 */
function redirectTarget(from: URL, location: string, statusCode: number, allowed: readonly string[]): URL {
  let to: URL;
  try {
    to = new URL(location, from);
  } catch {
    throw new FetchError(`HTTP ${statusCode} redirect to an invalid Location refused`, statusCode, false);
  }
  const scheme = to.protocol === from.protocol || (from.protocol === "http:" && to.protocol === "https:");
  if (!scheme) throw new FetchError(`HTTP ${statusCode} redirect to another scheme refused`, statusCode, false);
  if (to.host !== from.host && !allowed.includes(to.host) && !allowed.includes(to.hostname))
    throw new FetchError(`HTTP ${statusCode} redirect to another host refused`, statusCode, false);
  return to;
}

/**
 * GETs `file.url` with retries. Credentials in the URL (`https://user:secret@host/`) are sent as
 * HTTP Basic authorization.
 * @throws FetchError after the last attempt: `<file name>: <what happened> (<n> attempts)`
 */
export async function fetchFile(
  file: FileRequest,
  validators: Validators | null,
  limits: FetchLimits,
  dispatcher: Dispatcher,
): Promise<FetchedFile> {
  let attempts = 0;
  try {
    return await pRetry(
      async () => {
        attempts += 1;
        const got = await fetchOnce(file, validators, limits, dispatcher);
        return { ...got, attempts };
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
      throw new FetchError(`${file.name}: ${error.message} (${tries})`, error.httpStatus, false);
    throw new FetchError(`${file.name}: ${describeError(error)} (${tries})`, null, false);
  }
}

async function fetchOnce(
  file: FileRequest,
  validators: Validators | null,
  limits: FetchLimits,
  dispatcher: Dispatcher,
): Promise<
  | { readonly notModified: true }
  | { readonly notModified: false; readonly bytes: Buffer; readonly text: string; readonly validators: Validators }
> {
  const target = new URL(file.url);
  const headers: Record<string, string> = {
    "user-agent": limits.userAgent,
    accept: "application/json, text/markdown;q=0.9, */*;q=0.8",
    "accept-encoding": "gzip, br",
  };
  if (target.username || target.password) {
    const user = `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`;
    headers.authorization = `Basic ${Buffer.from(user).toString("base64")}`;
    target.username = "";
    target.password = "";
  }
  if (validators?.etag) headers["if-none-match"] = validators.etag;
  if (validators?.lastModified) headers["if-modified-since"] = validators.lastModified;
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let response: Dispatcher.ResponseData;
  const origin = target.host;
  for (let hops = 0; ; hops += 1) {
    try {
      response = await request(target, { method: "GET", headers, dispatcher, signal });
    } catch (error) {
      throw transportError(error, limits);
    }
    const location = header(response, "location");
    if (!REDIRECTS.has(response.statusCode) || location === null) break;
    await response.body.dump().catch(() => {});
    if (hops === MAX_REDIRECTIONS) throw new FetchError(`more than ${MAX_REDIRECTIONS} redirects`, null, false);
    const next = redirectTarget(target, location, response.statusCode, file.redirectHosts ?? []);
    // Credentials of the URL go to its own host only.
    if (next.host !== origin) delete headers.authorization;
    target.href = next.href;
  }
  const { statusCode } = response;
  if (statusCode === 304) {
    await response.body.dump().catch(() => {});
    return { notModified: true };
  }
  if (statusCode < 200 || statusCode > 299) {
    await response.body.dump().catch(() => {});
    const retryable = statusCode === 429 || statusCode >= 500;
    const retryAfter = parseRetryAfter(header(response, "retry-after"));
    const reason = STATUS_CODES[statusCode];
    const text = `HTTP ${statusCode}${reason ? ` ${reason}` : ""}`;
    if (retryAfter !== null && retryAfter > limits.maxRetryAfterMs)
      throw new FetchError(
        `${text}, Retry-After ${Math.ceil(retryAfter / 1000)} s exceeds the ${limits.maxRetryAfterMs / 1000} s limit`,
        statusCode,
        false,
      );
    const suffix = retryAfter !== null ? ` (Retry-After ${Math.ceil(retryAfter / 1000)} s)` : "";
    throw new FetchError(`${text}${suffix}`, statusCode, retryable, retryAfter);
  }
  const bytes = await readBody(response, limits, signal);
  if (bytes.length === 0) throw new FetchError("empty body (HTTP 200 with 0 bytes)", null, false);
  return {
    notModified: false,
    bytes,
    text: utf8(bytes),
    validators: { etag: header(response, "etag"), lastModified: header(response, "last-modified") },
  };
}

/** One response header as a single string (repeated lines joined with `, `), or null. */
function header(response: Dispatcher.ResponseData, name: string): string | null {
  const value = response.headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

/** Content codings decoded (strictly: a stream that ends early is an error), by name. */
const DECODERS = { gzip: createGunzip, "x-gzip": createGunzip, deflate: createInflate, br: createBrotliDecompress };

/**
 * Reads and decodes the body, strictly (T192): the bytes received must be those `Content-Length`
 * declared, a compressed stream must be complete and valid, and the decoded size stays under the cap
 * (a decompression bomb fails as soon as it passes it).
 */
async function readBody(response: Dispatcher.ResponseData, limits: FetchLimits, signal: AbortSignal): Promise<Buffer> {
  const declaredText = header(response, "content-length");
  const declared = declaredText === null ? null : Number(declaredText);
  if (declared !== null && declared > limits.maxBytes) {
    await response.body.dump().catch(() => {});
    throw new FetchError(
      `body of ${declared} bytes exceeds the size cap of ${formatBytes(limits.maxBytes)}`,
      null,
      false,
    );
  }
  const coding = (header(response, "content-encoding") ?? "identity").trim().toLowerCase();
  const makeDecoder = coding === "identity" ? null : DECODERS[coding as keyof typeof DECODERS];
  if (makeDecoder === undefined) {
    await response.body.dump().catch(() => {});
    throw new FetchError(`unsupported Content-Encoding ${JSON.stringify(coding)}`, null, false);
  }
  let received = 0;
  let decoded = 0;
  let decodeError: Error | null = null;
  const chunks: Buffer[] = [];
  const countReceived = async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      received += chunk.length;
      yield chunk;
    }
  };
  const collect = async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      decoded += chunk.length;
      if (decoded > limits.maxBytes)
        throw new FetchError(`body exceeds the size cap of ${formatBytes(limits.maxBytes)}`, null, false);
      chunks.push(chunk);
    }
  };
  try {
    if (makeDecoder) {
      const decoder = makeDecoder();
      decoder.once("error", (error) => {
        decodeError = error;
      });
      await pipeline(response.body, countReceived, decoder, collect, { signal });
    } else await pipeline(response.body, countReceived, collect, { signal });
  } catch (error) {
    if (error instanceof FetchError) throw error;
    if (declared !== null && received < declared && !isTimeout(error))
      throw new FetchError(`body ended after ${received} of the ${declared} bytes of its Content-Length`, null, true);
    if (decodeError !== null)
      throw new FetchError(`${coding} body is truncated or corrupt (${(decodeError as Error).message})`, null, true);
    throw transportError(error, limits);
  }
  if (declared !== null && received !== declared)
    throw new FetchError(`body of ${received} bytes differs from its Content-Length of ${declared}`, null, true);
  return Buffer.concat(chunks, decoded);
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The body as UTF-8 text (a byte-order mark kept, as the snapshot replay reads it). */
function utf8(bytes: Buffer): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new FetchError("body is not UTF-8 text", null, false);
  }
}

function isTimeout(error: unknown): boolean {
  const err = error instanceof Error ? (error as Error & { code?: string }) : null;
  return (
    err?.name === "TimeoutError" ||
    (err?.name === "AbortError" && (err.cause as Error | undefined)?.name === "TimeoutError") ||
    err?.code === "UND_ERR_HEADERS_TIMEOUT" ||
    err?.code === "UND_ERR_BODY_TIMEOUT"
  );
}

/** What a network error code means, said without the host or address it names (T193). */
const NETWORK_CODES: Readonly<Record<string, string>> = lookupTable({
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  EPIPE: "connection closed while sending",
  ENOTFOUND: "host name not found",
  EAI_AGAIN: "host name lookup failed for now",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  UND_ERR_SOCKET: "connection closed before the answer was complete",
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: "body length differs from its Content-Length",
  UND_ERR_CLOSED: "connection closed",
  UND_ERR_INFO: "invalid answer",
  HPE_INVALID_CONSTANT: "invalid HTTP answer",
});

/** Maps undici / abort errors to a message saying what happened, never where (no host, no URL). */
function transportError(error: unknown, limits: FetchLimits): FetchError {
  const err = error instanceof Error ? error : new Error(String(error));
  const cause = err.cause instanceof Error ? (err.cause as Error & { code?: string }) : null;
  const code = (err as Error & { code?: string }).code ?? cause?.code;
  if (isTimeout(err) || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT")
    return new FetchError(`timeout: no complete answer within ${limits.timeoutMs} ms`, null, true);
  if (code === "UND_ERR_CONNECT_TIMEOUT")
    return new FetchError(`timeout: could not connect within ${limits.timeoutMs} ms`, null, true);
  if (code === "UND_ERR_MAX_REDIRECTIONS" || /redirect/i.test(err.message))
    return new FetchError(`more than ${MAX_REDIRECTIONS} redirects`, null, false);
  if (code?.startsWith("ERR_TLS") || code?.includes("CERT") || code === "UNABLE_TO_VERIFY_LEAF_SIGNATURE")
    return new FetchError(`network error (${code}: TLS handshake failed)`, null, true);
  if (code)
    return new FetchError(
      `network error (${code}${NETWORK_CODES[code] ? `: ${NETWORK_CODES[code]}` : ""})`,
      null,
      true,
    );
  return new FetchError(`network error (${describeError(err)})`, null, true);
}

/** An unexpected error's name and message, addresses removed (T193). */
function describeError(error: unknown): string {
  const err = error instanceof Error ? error : new Error(String(error));
  return withoutAddresses(`${err.name}: ${err.message}`);
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
