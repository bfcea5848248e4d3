import type { FastifyReply } from "fastify";
import { PROBLEM_CONTENT_TYPE, problem } from "../catalogue/problems.js";
import { errorCacheControl } from "./cache-control.js";

/** Sends a problem (D25) with the D22 Cache-Control of its status; headers already set are kept. */
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
