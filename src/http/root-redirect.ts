import type { FastifyInstance } from "fastify";
import { DOCS_PATH } from "./docs-page.js";

/**
 * `GET /` (and HEAD) → `302 Found` to the human API reference at {@link DOCS_PATH} (issue 15,
 * T95), so a first visitor is not met by a bare 404. Registered only when no web catalogue is
 * mounted: the catalogue (issue 18, T121) owns `/` and replaces this. `no-cache`, so a cache never
 * keeps the redirect once `/` becomes the catalogue.
 */
export function registerRootRedirect(app: FastifyInstance, target: string = DOCS_PATH): void {
  app.get("/", (_request, reply) => {
    reply.header("cache-control", "no-cache");
    return reply.redirect(target, 302);
  });
}
