import { STATUS_CODES } from "node:http";

/**
 * RFC 9457 problem details (api-v1.md Errors, D25): `type` about:blank, `title` the status's reason
 * phrase, `status`, `detail`. Nothing internal ever goes into `detail`.
 */
export interface Problem {
  type: "about:blank";
  title: string;
  status: number;
  detail: string;
}

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

export function problem(status: number, detail: string): Problem {
  return { type: "about:blank", title: STATUS_CODES[status] ?? "Error", status, detail };
}
