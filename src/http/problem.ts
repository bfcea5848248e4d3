import { STATUS_CODES } from "node:http";
import type { FastifyReply } from "fastify";
import { errorCacheControl } from "./cache-control.js";

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

/** The problem body of a status; `title` is the reason phrase of node's status table. */
export function problem(status: number, detail: string): Problem {
  return { type: "about:blank", title: STATUS_CODES[status] ?? "Error", status, detail };
}

/** Sends a problem with the D22 Cache-Control of its status; headers already set are kept. */
export function sendProblem(reply: FastifyReply, status: number, detail: string): FastifyReply {
  reply.header("cache-control", errorCacheControl(status));
  return (
    reply
      .code(status)
      .type(PROBLEM_CONTENT_TYPE)
      // A Buffer, so Fastify never appends `; charset=utf-8`: one problem content type everywhere (issue 15).
      .send(Buffer.from(JSON.stringify(problem(status, detail))))
  );
}
