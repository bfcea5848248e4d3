import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { LRUCache } from "lru-cache";
import Negotiator from "negotiator";

/** A content coding Tariff serves (issue 6 §2): brotli, gzip, or the body as is. */
export type ContentCoding = "br" | "gzip" | "identity";

/** Offered codings, in the server's order of preference on a tie of q-values. */
const OFFERED: readonly ContentCoding[] = ["br", "gzip", "identity"];

/** Bodies smaller than this (bytes) are always sent as is: compressing them gains next to nothing. */
export const MIN_COMPRESS_BYTES = 1024;

/**
 * Brotli quality of the lazily built variants (T51): 5 compresses a 400 KB JSON body in a few ms,
 * within a few % of quality 9; quality 11 takes ~100× longer for ~25 % fewer bytes.
 */
export const BROTLI_QUALITY = 5;

/** gzip level of the lazily built variants (zlib's default). */
export const GZIP_LEVEL = 6;

// Clients send a handful of distinct Accept-Encoding values; each is negotiated once.
const decided = new LRUCache<string, ContentCoding>({ max: 512 });

type EncodingsWithOptions = (available: readonly string[], options: { preferred: readonly string[] }) => string[];

/**
 * The coding to answer with for an `Accept-Encoding` header (RFC 9110 §12.5.3, with q-values) as
 * the `negotiator` package reads it; br before gzip on a tie. No header, an empty one, or nothing
 * acceptable (e.g. `identity;q=0` alone) is answered with the body as is.
 */
export function negotiateEncoding(header: string | undefined): ContentCoding {
  if (header === undefined || header === "") return "identity";
  let coding = decided.get(header);
  if (coding === undefined) {
    const negotiator = new Negotiator({ headers: { "accept-encoding": header } });
    // negotiator 1.x takes a `preferred` order; its published typings predate the option.
    const encodings = negotiator.encodings.bind(negotiator) as unknown as EncodingsWithOptions;
    const best = encodings(OFFERED, { preferred: OFFERED })[0];
    coding = best === "br" || best === "gzip" ? best : "identity";
    decided.set(header, coding);
  }
  return coding;
}

/** Compresses a body with one coding (synchronously: once per body and coding, T51). */
export function encodeBody(body: Buffer, coding: "br" | "gzip"): Buffer {
  if (coding === "gzip") return gzipSync(body, { level: GZIP_LEVEL });
  return brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
}
