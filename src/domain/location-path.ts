// Shared by the API's redirects (`src/http/render.ts`) and the web pages' (`src/web/register-web.ts`):
// it lives in the domain so the web server side never imports `src/http/` (issue 45 §3, T393).

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
