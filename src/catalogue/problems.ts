import { STATUS_CODES } from "node:http";
import type { CatalogueError } from "./errors.js";

/**
 * RFC 9457 problem details (api-v1.md Errors, D25), transport-neutral: HTTP sends them as the body,
 * MCP as the text of a tool error. `type` is about:blank, `title` the status's reason phrase.
 * Nothing internal ever goes into `detail`.
 */
export interface Problem {
  type: "about:blank";
  title: string;
  status: number;
  detail: string;
}

/** The one content type of every problem answer (issue 15, T94). */
export const PROBLEM_CONTENT_TYPE = "application/problem+json";

/**
 * The one table from a verb's error code to its status (D13, D14, D25; T67 for `moved`), used by
 * HTTP and MCP alike (issue 19 §2).
 */
export const STATUS_OF_ERROR: Readonly<Record<CatalogueError["code"], 308 | 400 | 404>> = {
  bad_request: 400,
  not_found: 404,
  moved: 308,
};

/** Details of the answers that are not a verb's error (D25): the same words on every transport. */
export const FAULT_DETAIL = {
  /** 500: an unexpected fault; it is logged, nothing internal is shown. */
  unexpected: "an unexpected fault occurred; it has been logged",
  /** 503: no dataset version is loaded yet. */
  loading: "the catalogue is loading; retry shortly",
} as const;

/** 503 detail of a point-in-time answer while the store cannot be read (issue 26 §4, T199). */
export const STORE_UNAVAILABLE_DETAIL = "the price history cannot be read right now; retry later";

/** `Retry-After` of that 503 when the failure gave no wait of its own, seconds. */
export const STORE_RETRY_SECONDS = 5;

/** The problem body of a status; `title` is the reason phrase of node's status table. */
export function problem(status: number, detail: string): Problem {
  return { type: "about:blank", title: STATUS_CODES[status] ?? "Error", status, detail };
}

/** The problem of a verb's error, with its status from {@link STATUS_OF_ERROR}. */
export function problemOfError(error: CatalogueError): Problem {
  return problem(STATUS_OF_ERROR[error.code], error.detail);
}
