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
 * What V8's `JSON.parse` quotes of the text it read (`Unexpected token '<', "<html><he"... is not
 * valid JSON`, `"abc" is not valid JSON`): the upstream's answer, never published (T264).
 */
const JSON_FRAGMENT = /(Unexpected token '.{1,2}', )?".*"(\.\.\.)? is not valid JSON/s;

/**
 * `text` with every URL, `user:password@host` and IP address replaced by `<address>`, and no
 * fragment of an upstream's answer that a JSON parser quoted (issue 33 §5, T264).
 * Host names without a scheme cannot be told from words; messages are built so as not to hold
 * them (network errors name the error code, not the host, see `fetch-source.ts`).
 */
export function withoutAddresses(text: string): string {
  return text
    .replace(JSON_FRAGMENT, "an unexpected character (the answer is not quoted)")
    .replace(URL_PATTERN, "<address>")
    .replace(CREDENTIALS_PATTERN, "<address>")
    .replace(IP_PATTERN, "<address>");
}
