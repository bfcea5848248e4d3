import { CORS_HEADERS } from "./cors.js";
import { type ContentCoding, encodeBody, MIN_COMPRESS_BYTES, negotiateEncoding } from "./encoding.js";
import { ifNoneMatchMatches } from "./etag.js";
import type { Count, RateLimit } from "./rate-limit.js";

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
  /** Headers of a 200 its body determines (an endpoint's `headers`, T526), sent after `x-dataset-version`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * One answer of a {@link CachedResponse}, built once and sent as is: its status, the coding and
 * bytes of its body (null for the 304) and every header in the order both paths send them (node
 * adds Date and Connection).
 */
export interface Answer {
  readonly status: number;
  readonly coding: ContentCoding;
  readonly body: Buffer | null;
  /** Flat `[name, value, …]` list for `writeHead`. */
  readonly headers: readonly string[];
}

const CORS_PAIRS = Object.entries(CORS_HEADERS).flat();

/** Where the `RateLimit-*` slots of a counted header list start: after the CORS pairs, as on the Fastify path. */
const RATE_SLOTS = CORS_PAIRS.length;
const RATE_PAIRS = ["ratelimit-limit", "", "ratelimit-remaining", "", "ratelimit-reset", ""];

/**
 * The header list of one answer with its D24 count (T131). A counted list has three
 * `RateLimit-*` slots, filled here in place: `writeHead` reads the list before it returns and
 * requests run one at a time, so no list is built per request. A request the limit could not
 * count (`count` null: Redis down, T30) gets the list without the slots (a copy, only then).
 */
export function countedHeaders(
  list: readonly string[],
  counted: boolean,
  limit: RateLimit | null,
  count: Count | null,
): string[] {
  const headers = list as string[];
  if (!counted) return headers;
  if (limit === null || count === null)
    return headers.filter((_, i) => i < RATE_SLOTS || i >= RATE_SLOTS + RATE_PAIRS.length);
  headers[RATE_SLOTS + 1] = limit.limitHeader;
  headers[RATE_SLOTS + 3] = limit.remaining(count);
  headers[RATE_SLOTS + 5] = limit.reset(count);
  return headers;
}

/**
 * A body and its compressed forms, each made on first demand and then kept (T51). Every response
 * of one canonical query shares one (issue 26 §5, T198): a URL that differs only in parameters
 * the endpoint ignores never compresses the same body again.
 */
export class EncodedBody {
  readonly body: Buffer;
  readonly #coded: Partial<Record<"br" | "gzip", Buffer>>;

  /**
   * @param coded coded forms made elsewhere (a past-day answer's, compressed off the event loop by
   *   the renderer that made it, issue 47 §2, T470): each must be the body in that coding
   */
  constructor(body: Buffer, coded: Partial<Record<"br" | "gzip", Buffer>> = {}) {
    this.body = body;
    this.#coded = { ...coded };
  }

  /**
   * The bytes of a coding: the body as is for identity, for a body too small to gain from
   * compression, or when the coded form is not smaller.
   */
  coded(coding: ContentCoding): Buffer {
    if (coding === "identity" || this.body.length < MIN_COMPRESS_BYTES) return this.body;
    let made = this.#coded[coding];
    if (made === undefined) {
      const coded = encodeBody(this.body, coding);
      made = coded.length < this.body.length ? coded : this.body;
      this.#coded[coding] = made;
    }
    return made;
  }

  /** Bytes held: the body and the coded forms made so far. */
  get bytes(): number {
    let n = this.body.length;
    for (const b of Object.values(this.#coded)) if (b !== this.body) n += b.length;
    return n;
  }
}

/**
 * A response built once per dataset version (issue 6 §1) and served as bytes: the identity body,
 * its gzip and brotli variants made on first demand and then kept (T51), and the complete header
 * lists of the 200/308/400/404 and of its 304. This class is the one place where validators (ETag,
 * `x-dataset-version`), Cache-Control, `Vary` and the 304 rule are written (issue 30 §1, T233):
 * the fast path and the Fastify route both send what {@link answer} picks, header for header.
 */
export class CachedResponse implements ResponseFields {
  readonly status: number;
  readonly body: Buffer;
  readonly contentType: string;
  readonly cacheControl: string;
  readonly etag: string;
  readonly version: string;
  readonly location: string | undefined;
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** Compression is on: every answer says `Vary: Accept-Encoding` and GETs are negotiated (T51). */
  readonly vary: boolean;
  /** The header lists have `RateLimit-*` slots (the limit is on): fill them with {@link countedHeaders}. */
  readonly counted: boolean;
  /**
   * Index in every header list of the first header that is the response's own: before it come
   * the CORS pairs and the `RateLimit-*` slots, which the Fastify path's hooks set themselves.
   */
  readonly ownHeadersFrom: number;
  /** The 304 answering a matching If-None-Match (D21): validators, Cache-Control, Vary, CORS, no body. */
  readonly notModified: Answer;
  readonly #encoded: EncodedBody;
  readonly #variants: Partial<Record<ContentCoding, Answer>> = {};

  /**
   * @param vary compression is on: every answer says `Vary: Accept-Encoding`
   * @param counted the D24 limit is on: every header list gets the `RateLimit-*` slots
   * @param encoded the body's coded forms, shared with the responses of the same canonical query
   *   (issue 26 §5); its body must be `fields.body`
   */
  constructor(fields: ResponseFields, vary: boolean, counted = false, encoded?: EncodedBody) {
    this.status = fields.status;
    this.body = fields.body;
    this.#encoded = encoded && encoded.body === fields.body ? encoded : new EncodedBody(fields.body);
    this.contentType = fields.contentType;
    this.cacheControl = fields.cacheControl;
    this.etag = fields.etag;
    this.version = fields.version;
    this.location = fields.location;
    this.headers = fields.headers;
    this.vary = vary;
    this.counted = counted;
    this.ownHeadersFrom = CORS_PAIRS.length + (counted ? RATE_PAIRS.length : 0);
    this.notModified = { status: 304, coding: "identity", body: null, headers: this.#headers("identity", null) };
  }

  /**
   * The answer to one request for this response (D21, T51), the same on both paths:
   * - a 200 whose ETag an `If-None-Match` matches (weakly, `*` included) is a 304; any other
   *   status is answered in full, never a 304 (RFC 9110 §13.2.1, D21 amended);
   * - a GET gets the coding its `Accept-Encoding` prefers when compression is on; a HEAD reports
   *   the identity body (a HEAD is not compressed).
   */
  answer(method: string | undefined, ifNoneMatch: string | undefined, acceptEncoding: string | undefined): Answer {
    if (
      this.status === 200 &&
      ifNoneMatch !== undefined &&
      (ifNoneMatch === this.etag || ifNoneMatchMatches(ifNoneMatch, this.etag))
    )
      return this.notModified;
    return this.variant(this.vary && method === "GET" ? negotiateEncoding(acceptEncoding) : "identity");
  }

  /** Bytes held (identity and the coded forms built so far, shared ones included). */
  get bytes(): number {
    return this.#encoded.bytes;
  }

  /**
   * The same answer for another exact query of the same canonical query (issue 26 §5, T198): its
   * own ETag (D21 covers the query as sent) and `Location` (a 308 keeps the rest of the URL), the
   * body and its coded forms shared, never rendered or compressed again.
   */
  derive(etag: string, location: string | undefined): CachedResponse {
    const fields: ResponseFields = {
      status: this.status,
      body: this.body,
      contentType: this.contentType,
      cacheControl: this.cacheControl,
      etag,
      version: this.version,
      ...(location === undefined ? {} : { location }),
      ...(this.headers === undefined ? {} : { headers: this.headers }),
    };
    return new CachedResponse(fields, this.vary, this.counted, this.#encoded);
  }

  /**
   * The variant for a negotiated coding; the body as is when it is too small to gain from
   * compression or the coded form is not smaller.
   */
  variant(coding: ContentCoding): Answer {
    const known = this.#variants[coding];
    if (known) return known;
    const bytes = this.#encoded.coded(coding);
    const made = bytes === this.body ? this.#identity() : this.#make(coding, bytes);
    this.#variants[coding] = made;
    return made;
  }

  #identity(): Answer {
    const known = this.#variants.identity;
    if (known) return known;
    const made = this.#make("identity", this.body);
    this.#variants.identity = made;
    return made;
  }

  #make(coding: ContentCoding, body: Buffer): Answer {
    return { status: this.status, coding, body, headers: this.#headers(coding, body) };
  }

  /** The header list of an answer: `body` null is the 304's (no content headers). */
  #headers(coding: ContentCoding, body: Buffer | null): string[] {
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
      ...Object.entries(this.headers ?? {}).flat(),
      ...(this.vary ? ["vary", "accept-encoding"] : []),
      ...(body === null
        ? []
        : [
            ...(coding === "identity" ? [] : ["content-encoding", coding]),
            "content-type",
            this.contentType,
            "content-length",
            String(body.length),
          ]),
    ];
  }
}
