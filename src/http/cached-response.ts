import type { RateLimiterRes } from "rate-limiter-flexible";
import { CORS_HEADERS } from "./cors.js";
import { type ContentCoding, encodeBody, MIN_COMPRESS_BYTES } from "./encoding.js";
import { RateLimit } from "./rate-limit.js";

/** What a route answered for one (dataset version, path, raw query): status, bytes and validators. */
export interface ResponseFields {
  readonly status: number;
  readonly body: Buffer;
  readonly contentType: string;
  readonly cacheControl: string;
  /** D21 weak ETag; the same for every coding of the body (weak validators allow it). */
  readonly etag: string;
  readonly version: string;
  /** For a 308 (an alias, T67): where the model answers. */
  readonly location?: string;
}

/** One coding of a body, with every header of its response in Fastify's order (node adds Date and Connection). */
export interface ResponseVariant {
  readonly coding: ContentCoding;
  readonly body: Buffer;
  /** Flat `[name, value, …]` list for `writeHead`. */
  readonly headers: readonly string[];
}

const CORS_PAIRS = Object.entries(CORS_HEADERS).flat();

/** Where the `RateLimit-*` slots of a counted header list start: after the CORS pairs, as on the Fastify path. */
const RATE_SLOTS = CORS_PAIRS.length;
const RATE_PAIRS = ["ratelimit-limit", "", "ratelimit-remaining", "", "ratelimit-reset", ""];

/**
 * The header list of one answer of a {@link CachedResponse} with its D24 count (T131). A counted
 * list has three `RateLimit-*` slots, filled here in place: `writeHead` reads the list before it
 * returns and requests run one at a time, so no list is built per request. A request the limit
 * could not count (`count` null: Redis down, T30) gets the list without the slots (a copy, only then).
 */
export function countedHeaders(
  list: readonly string[],
  counted: boolean,
  limit: RateLimit | null,
  count: RateLimiterRes | null,
): string[] {
  const headers = list as string[];
  if (!counted) return headers;
  if (limit === null || count === null)
    return headers.filter((_, i) => i < RATE_SLOTS || i >= RATE_SLOTS + RATE_PAIRS.length);
  headers[RATE_SLOTS + 1] = limit.limitHeader;
  headers[RATE_SLOTS + 3] = RateLimit.remaining(count);
  headers[RATE_SLOTS + 5] = RateLimit.reset(count);
  return headers;
}

/**
 * A response built once per dataset version (issue 6 §1) and served as bytes: the identity body,
 * its gzip and brotli variants made on first demand and then kept (T51), and the complete header
 * lists of the 200/400/404 and of its 304. With `vary` (compression on) every variant and the 304
 * carry `Vary: Accept-Encoding`.
 */
export class CachedResponse implements ResponseFields {
  readonly status: number;
  readonly body: Buffer;
  readonly contentType: string;
  readonly cacheControl: string;
  readonly etag: string;
  readonly version: string;
  readonly location: string | undefined;
  readonly vary: boolean;
  /** The header lists have `RateLimit-*` slots (the limit is on): fill them with {@link countedHeaders}. */
  readonly counted: boolean;
  /** Headers of the 304 answering a matching If-None-Match (D21): validators, Cache-Control, CORS. */
  readonly notModifiedHeaders: readonly string[];
  readonly #variants: Partial<Record<ContentCoding, ResponseVariant>> = {};

  /**
   * @param vary compression is on: every answer says `Vary: Accept-Encoding`
   * @param counted the D24 limit is on: every header list gets the `RateLimit-*` slots
   */
  constructor(fields: ResponseFields, vary: boolean, counted = false) {
    this.status = fields.status;
    this.body = fields.body;
    this.contentType = fields.contentType;
    this.cacheControl = fields.cacheControl;
    this.etag = fields.etag;
    this.version = fields.version;
    this.location = fields.location;
    this.vary = vary;
    this.counted = counted;
    this.notModifiedHeaders = [...this.#common(), ...(vary ? ["vary", "accept-encoding"] : [])];
  }

  /** Bytes held (identity and the variants built so far). */
  get bytes(): number {
    let n = this.body.length;
    for (const v of Object.values(this.#variants)) if (v.coding !== "identity") n += v.body.length;
    return n;
  }

  /**
   * The variant for a negotiated coding; the body as is when it is too small to gain from
   * compression or the coded form is not smaller.
   */
  variant(coding: ContentCoding): ResponseVariant {
    const known = this.#variants[coding];
    if (known) return known;
    let made: ResponseVariant;
    if (coding === "identity" || this.body.length < MIN_COMPRESS_BYTES) made = this.#identity();
    else {
      const coded = encodeBody(this.body, coding);
      made = coded.length < this.body.length ? this.#make(coding, coded) : this.#identity();
    }
    this.#variants[coding] = made;
    return made;
  }

  #identity(): ResponseVariant {
    const known = this.#variants.identity;
    if (known) return known;
    const made = this.#make("identity", this.body);
    this.#variants.identity = made;
    return made;
  }

  #make(coding: ContentCoding, body: Buffer): ResponseVariant {
    const headers = [
      ...this.#common(),
      ...(this.vary ? ["vary", "accept-encoding"] : []),
      ...(coding === "identity" ? [] : ["content-encoding", coding]),
      "content-type",
      this.contentType,
      "content-length",
      String(body.length),
    ];
    return { coding, body, headers };
  }

  #common(): string[] {
    return [
      ...CORS_PAIRS,
      ...(this.counted ? RATE_PAIRS : []),
      ...(this.location ? ["location", this.location] : []),
      "etag",
      this.etag,
      "cache-control",
      this.cacheControl,
      "x-dataset-version",
      this.version,
    ];
  }
}
