import swagger, { type StaticDocumentSpec } from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import type { oas31 } from "zod-openapi";

/** Path of the human API reference. */
export const DOCS_PATH = "/docs";

/**
 * The human docs page at `/docs` (issue 4 §7): Swagger UI rendering the same OpenAPI document as
 * `/api/v1/openapi.json`. Its scripts and styles are served from the package itself, so the page
 * works offline (no CDN); the online spec validator badge is off.
 */
export async function registerDocsPage(app: FastifyInstance, document: oas31.OpenAPIObject): Promise<void> {
  await app.register(swagger, {
    mode: "static",
    // zod-openapi's and openapi-types' typings of the same OpenAPI 3.1 object differ only in detail.
    specification: { document: document as unknown as StaticDocumentSpec["document"] },
  });
  await app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    uiConfig: { validatorUrl: null, docExpansion: "list", deepLinking: true },
    staticCSP: true,
    logLevel: "warn",
  });
}
