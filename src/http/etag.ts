import { createHash } from "node:crypto";

/**
 * D21: a weak ETag over the dataset version, the path and the raw query string as sent; bodies of
 * 200, 304, 400 and 404 responses are a function of exactly these.
 */
export function weakEtag(version: string, path: string, rawQuery: string): string {
  const hash = createHash("sha1").update(`${version}\n${path}\n${rawQuery}`).digest("base64url").slice(0, 22);
  return `W/"${hash}"`;
}

/**
 * The version part of a route's ETag (D21, amended by T310 and T462): the dataset version; for an
 * endpoint judged now (`/sources`) the digest of its records too; and when the sellers' pages stale
 * at the moment judged are not those of the version's own time, their digest
 * (`judgement.key`, T462), so a client's copy is replaced when a live attempt or the clock changes
 * the answer (a price's `verified`) while the version stays.
 */
export function etagVersion(
  view: {
    readonly version: string;
    readonly sourcesRevision: string;
    readonly judgement?: { readonly key: string };
  },
  endpoint: { readonly judgedNow?: boolean },
): string {
  const base = endpoint.judgedNow ? `${view.version}+${view.sourcesRevision}` : view.version;
  const key = view.judgement?.key ?? "";
  return key === "" ? base : `${base}~${key}`;
}

/**
 * D21 weak comparison of `If-None-Match` against an ETag: a list of tags, `*` matches anything,
 * the `W/` prefix is ignored on both sides.
 */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const target = opaque(etag);
  for (const part of header.split(",")) {
    const tag = part.trim();
    if (tag === "*") return true;
    if (tag.length > 0 && opaque(tag) === target) return true;
  }
  return false;
}

function opaque(tag: string): string {
  return tag.startsWith("W/") ? tag.slice(2) : tag;
}
