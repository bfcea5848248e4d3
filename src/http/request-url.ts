import type { FastifyRequest } from "fastify";

/** A request URL as sent, split at its first `?` into the path and the raw query (without the `?`). */
export function splitUrl(url: string): [string, string] {
  const i = url.indexOf("?");
  return i < 0 ? [url, ""] : [url.slice(0, i), url.slice(i + 1)];
}

/** `http://<address>:<port>` of the socket the request came in on: the server's own, never a header (D19). */
export function listeningBase(request: FastifyRequest): string {
  const address = request.socket.localAddress ?? "127.0.0.1";
  const host = address.includes(":") ? `[${address.replace(/^::ffff:/, "")}]` : address;
  const plain = address.startsWith("::ffff:") ? address.slice(7) : null;
  return `http://${plain ?? host}:${request.socket.localPort}`;
}

/** A lone UTF-16 surrogate (`encodeURIComponent` throws on one). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A decoded path (a model id put in a redirect) as a valid `Location` value (issue 33 §3, T256):
 * every character outside printable ASCII, and `%`, `?` and `#`, percent-encoded as UTF-8 (a lone
 * surrogate as U+FFFD). Node refuses a header holding a character above U+00FF or a control
 * character, which made such a redirect a 500 with Fastify's default body; printable ASCII is
 * kept as is, so an ordinary id's redirect is unchanged.
 */
export function locationPath(path: string): string {
  return path.replace(LONE_SURROGATE, "\uFFFD").replace(/[^\x21-\x7e]|[%?#]/gu, (c) => encodeURIComponent(c));
}
