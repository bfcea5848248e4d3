/**
 * Errors of the catalogue verbs, transport-neutral (D13, D14). HTTP maps them to problem details
 * (D25); MCP to tool errors. `detail` is safe to show: it never holds anything internal.
 */
export class CatalogueError extends Error {
  override name = "CatalogueError";
  constructor(
    readonly code: "bad_request" | "not_found" | "moved",
    readonly detail: string,
    /** For `moved`: the id of the model the requested id or alias now answers as (D1, issue 12 T67). */
    readonly target: string | null = null,
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

/** The requested id is an alias or a former id of model `target` (D1, T67): HTTP answers 308, MCP follows it. */
export function moved(requested: string, target: string): CatalogueError {
  return new CatalogueError("moved", `${requested} is ${target}`, target);
}

/**
 * The store a point-in-time answer reads could not be read (issue 26 §4, T199): a transport
 * answers 503 with `Retry-After` (HTTP) or the same problem as a tool error (MCP), never a 500.
 * `detail` is safe to show; the cause is logged, not shown.
 */
export class StoreUnavailableError extends Error {
  override name = "StoreUnavailableError";
  constructor(
    readonly detail: string,
    /** Seconds until the store is tried again (≥ 1). */
    readonly retryAfterSeconds: number,
    options?: ErrorOptions,
  ) {
    super(detail, options);
  }
}
