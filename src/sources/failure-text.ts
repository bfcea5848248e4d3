/**
 * What a failed source's `lastError` may say (issue 26 §7, T193): what failed — an HTTP status, a
 * timeout, a parse error, a guard and its figure — never where. Upstream addresses are the
 * operator's (a `SOURCE_URL_*` override may name an internal host or carry credentials), so every
 * failure message passes through {@link withoutAddresses} before it is stored, published or archived.
 */

/** A URL with a scheme (`https://user:secret@host/path?q`), up to the next space, quote or bracket (a final full stop or comma is the sentence's). */
const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`)\]]*[^\s"'<>`)\].,;:!?]/gi;
/** `user:password@host` without a scheme. */
const CREDENTIALS_PATTERN = /\b[^\s:/@"'<>]+:[^\s/@"'<>]+@[a-z0-9.-]+(:\d+)?/gi;
/** An IPv4 address (with its port), or a bracketed IPv6 one. */
const IP_PATTERN = /\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b|\[[0-9a-f:.]+\](:\d+)?/gi;

/**
 * `text` with every URL, `user:password@host` and IP address replaced by `<address>`.
 * Host names without a scheme cannot be told from words; messages are built so as not to hold
 * them (network errors name the error code, not the host, see `fetch-source.ts`).
 */
export function withoutAddresses(text: string): string {
  return text
    .replace(URL_PATTERN, "<address>")
    .replace(CREDENTIALS_PATTERN, "<address>")
    .replace(IP_PATTERN, "<address>");
}
