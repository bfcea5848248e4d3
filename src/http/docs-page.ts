import swagger, { type StaticDocumentSpec } from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import type { oas31 } from "zod-openapi";

/** Path of the human API reference. */
export const DOCS_PATH = "/docs";

/** The OpenAPI document the page explores (D26), also served at `/docs/json` by the plugin. */
export const DOCS_SPEC_URL = "/api/v1/openapi.json";

/** The page's title (issue 15: Tariff's, not "Swagger UI"). */
export const DOCS_TITLE = "Tariff API v1 reference";

/** The name of the one definition in the top bar: says which document is explored. */
export const DOCS_DEFINITION_NAME = `Tariff API v1 (${DOCS_SPEC_URL})`;

/** Tariff's mark for the top bar and the favicon: the word on a price tag, no external font. */
export const DOCS_LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="150" height="40" viewBox="0 0 150 40" role="img" aria-label="Tariff">' +
  '<path d="M4 20 L16 6 H40 V34 H16 Z" fill="#62a03f"/><circle cx="18" cy="20" r="3" fill="#1b1b1b"/>' +
  '<text x="48" y="29" font-family="sans-serif" font-size="26" font-weight="700" fill="#ffffff">Tariff</text></svg>';

const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><path d="M2 20 L14 4 H38 V36 H14 Z" fill="#62a03f"/>' +
  '<circle cx="16" cy="20" r="4" fill="#fff"/></svg>';

/**
 * The human docs page at `/docs` (issue 4 §7): Swagger UI rendering the same OpenAPI document as
 * `/api/v1/openapi.json`. Its scripts and styles are served from the package itself, so the page
 * works offline (no CDN); the online spec validator badge is off. Branded as Tariff's (issue 15,
 * T96): title, logo and favicon are Tariff's, and the top bar explores {@link DOCS_SPEC_URL}
 * (one named definition) rather than the plugin's `/docs/json`.
 */
export async function registerDocsPage(app: FastifyInstance, document: oas31.OpenAPIObject): Promise<void> {
  await app.register(swagger, {
    mode: "static",
    // zod-openapi's and openapi-types' typings of the same OpenAPI 3.1 object differ only in detail.
    specification: { document: document as unknown as StaticDocumentSpec["document"] },
  });
  await app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    uiConfig: {
      validatorUrl: null,
      docExpansion: "list",
      deepLinking: true,
      // Swagger UI loads the first of `urls` instead of the plugin's forced `url` (./json).
      urls: [{ url: DOCS_SPEC_URL, name: DOCS_DEFINITION_NAME }],
    },
    logo: { type: "image/svg+xml", content: Buffer.from(DOCS_LOGO_SVG), href: "/", target: "_self" },
    theme: {
      title: DOCS_TITLE,
      favicon: [{ filename: "tariff.svg", rel: "icon", type: "image/svg+xml", sizes: "any", content: FAVICON_SVG }],
    },
    staticCSP: true,
    logLevel: "warn",
  });
  // T196: the plugin's static folder would answer /docs/static/ with Swagger UI's own unbranded
  // index.html (no spec, "Swagger UI" title); the page lives at /docs.
  for (const url of [`${DOCS_PATH}/static`, `${DOCS_PATH}/static/`])
    app.get(url, (_request, reply) => reply.header("cache-control", "no-cache").redirect(DOCS_PATH, 302));
}
