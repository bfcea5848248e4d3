/**
 * Errors of the catalogue verbs, transport-neutral (D13, D14). HTTP maps them to problem details
 * (D25); MCP to tool errors. `detail` is safe to show: it never holds anything internal.
 */
export class CatalogueError extends Error {
  override name = "CatalogueError";
  constructor(
    readonly code: "bad_request" | "not_found",
    readonly detail: string,
  ) {
    super(detail);
  }
}

export function badRequest(detail: string): CatalogueError {
  return new CatalogueError("bad_request", detail);
}

export function notFound(detail: string): CatalogueError {
  return new CatalogueError("not_found", detail);
}
