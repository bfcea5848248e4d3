/**
 * True when a request path (no query) has a `.` or `..` segment, raw or percent-encoded
 * (`%2e`, `%2E`). Clients remove dot segments before sending (RFC 3986 §5.2.4), so one that
 * arrives names no resource of this server (issue 15).
 */
export function hasDotSegment(path: string): boolean {
  return path.split("/").some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment));
}
