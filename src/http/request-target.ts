import type { IncomingMessage } from "node:http";

/**
 * The request line and `Host` as RFC 9112 §3.2 wants them (issue 26 §3, T196), checked before the
 * fast path and Fastify see a request. An absolute-form target (`GET http://host/path`) is made
 * origin-form (`/path`), its authority taking the place of `Host` (§3.2.2), so nothing downstream
 * ever builds a URL from it. What cannot be served is remembered as a fault and answered by
 * {@link protocolFaultOf}'s reader, a 400 problem with CORS (`fallbacks.ts`):
 *
 * - an HTTP/1.1 request without `Host`, or any request with more than one;
 * - the asterisk-form target (`*`) of any method but OPTIONS (it names the server, not a page);
 * - an authority-form or otherwise unreadable target (CONNECT never gets here: node hands it over).
 */
const faults = new WeakMap<IncomingMessage, string>();

/** A scheme and `//`: the absolute form of a request target. */
const ABSOLUTE_FORM = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//;

/**
 * Checks `req`'s target and `Host`, rewriting an absolute-form target in place.
 * @returns true when the request is fine; false when it carries a fault (left to Fastify's 400)
 */
export function admitRequest(req: IncomingMessage): boolean {
  const url = req.url ?? "";
  // The common case costs one character comparison and a short loop over the raw headers.
  if (url.charCodeAt(0) !== 47 /* "/" */) {
    const fault = retarget(req, url);
    if (fault !== null) {
      faults.set(req, fault);
      return false;
    }
  }
  const hosts = hostCount(req.rawHeaders);
  if (hosts === 1) return true;
  if (hosts > 1) faults.set(req, "the request carries more than one Host header");
  else if (req.httpVersion === "1.1") faults.set(req, "the request has no Host header (HTTP/1.1 requires one)");
  else return true; // HTTP/1.0 may omit Host (RFC 9112 §3.2)
  return false;
}

/** The protocol fault {@link admitRequest} found in `req`, or undefined. */
export function protocolFaultOf(req: IncomingMessage): string | undefined {
  return faults.get(req);
}

function retarget(req: IncomingMessage, url: string): string | null {
  if (url === "*") return req.method === "OPTIONS" ? null : "the asterisk-form target (*) is for OPTIONS only";
  if (!ABSOLUTE_FORM.test(url)) return "the request target is neither a path nor an absolute URL";
  const authorityStart = url.indexOf("//") + 2;
  const pathStart = firstOf(url, authorityStart);
  const authority = url.slice(authorityStart, pathStart);
  if (authority.length === 0 || authority.includes("@")) return "the request target's authority is not a host";
  const rest = url.slice(pathStart);
  // The path as sent, percent-encoding and all (so ETags and routes see what an origin-form target would).
  req.url = rest.startsWith("/") ? rest : `/${rest.startsWith("#") ? "" : rest}`;
  if (req.url.includes("#")) req.url = req.url.slice(0, req.url.indexOf("#"));
  // §3.2.2: the target's authority replaces the Host header (there must still be exactly one).
  if (hostCount(req.rawHeaders) <= 1) req.headers.host = authority;
  return null;
}

/** Index of the first `/`, `?` or `#` at or after `from`, else the string's length. */
function firstOf(url: string, from: number): number {
  for (let i = from; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 47 || c === 63 || c === 35) return i;
  }
  return url.length;
}

/** How many `Host` fields the raw header list holds (any letter case). */
function hostCount(raw: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) if (isHost(raw[i] as string)) n++;
  return n;
}

/**
 * True for the field name `Host` in any letter case. Compared by character code (T501): no
 * lower-cased copy of every 4-letter name per request. `| 0x20` lower-cases an ASCII letter and
 * maps no other byte a field name may hold (RFC 9110 §5.1 tchar) onto `h`, `o`, `s` or `t`.
 */
function isHost(name: string): boolean {
  return (
    name.length === 4 &&
    (name.charCodeAt(0) | 0x20) === 104 &&
    (name.charCodeAt(1) | 0x20) === 111 &&
    (name.charCodeAt(2) | 0x20) === 115 &&
    (name.charCodeAt(3) | 0x20) === 116
  );
}
