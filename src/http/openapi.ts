import { z } from "zod";
import {
  createDocument,
  type oas31,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from "zod-openapi";
import {
  defineEndpoint,
  type Endpoint,
  PATH_PARAM_DESCRIPTIONS,
  paramDoc,
  pathParamsOf,
} from "../catalogue/endpoint.js";
import * as S from "../catalogue/schemas.js";
import { ENDPOINT_HEADERS } from "./cors.js";
import { MAX_URL_LENGTH } from "./limits.js";
import { API_PREFIX, type RouteSpec, routeOf } from "./routes.js";

const JSON_TYPE = "application/json";

const header = (description: string, schema: z.ZodType = z.string()) => schema.meta({ description });
/** A header documented once under components.headers and referenced everywhere else. */
const sharedHeader = (id: string, description: string, schema: z.ZodType = z.string()) =>
  schema.meta({ description, header: { id } });
const CORS_HEADER_DOCS = {
  "Access-Control-Allow-Origin": sharedHeader("Access-Control-Allow-Origin", "Always `*` (D23)"),
  "Access-Control-Expose-Headers": sharedHeader(
    "Access-Control-Expose-Headers",
    `ETag, x-dataset-version, Retry-After, RateLimit-*, ${ENDPOINT_HEADERS.join(", ")} (D23, T526, T542)`,
  ),
};
const RATE_HEADER_DOCS = {
  "RateLimit-Limit": sharedHeader(
    "RateLimit-Limit",
    "Requests allowed per window (D24); absent when the limit is off",
    z.number().int(),
  ),
  "RateLimit-Remaining": sharedHeader("RateLimit-Remaining", "Requests left in the window (D24)", z.number().int()),
  "RateLimit-Reset": sharedHeader("RateLimit-Reset", "Seconds until the window resets (D24)", z.number().int()),
};
const VERSIONED_HEADER_DOCS = {
  ETag: sharedHeader("ETag", "Weak tag over the dataset version, path and raw query string (D21)"),
  "x-dataset-version": sharedHeader("x-dataset-version", "The dataset version behind the response"),
};

function problemResponse(description: string, cacheControl: string, extra: Record<string, z.ZodType> = {}) {
  return {
    description,
    headers: z.object({
      "Cache-Control": header(cacheControl),
      ...CORS_HEADER_DOCS,
      ...extra,
    }),
    content: { "application/problem+json": { schema: S.ProblemSchema } },
  } satisfies ZodOpenApiResponseObject;
}

/** Shared error responses (api-v1.md Errors, D13, D14, D22, D24, D25). */
const ERRORS = {
  400: problemResponse("A parameter is invalid; `detail` names it and its allowed values (D13)", "public, max-age=60", {
    ...VERSIONED_HEADER_DOCS,
    ...RATE_HEADER_DOCS,
  }),
  404: problemResponse("Unknown model (`detail` is the requested id) or unknown path (D14)", "public, max-age=60", {
    ...VERSIONED_HEADER_DOCS,
    ...RATE_HEADER_DOCS,
  }),
  405: problemResponse("A method other than GET, HEAD or OPTIONS (D14)", "public, max-age=60", {
    Allow: header("GET, HEAD, OPTIONS"),
    ...RATE_HEADER_DOCS,
  }),
  414: problemResponse(`The request URL is longer than ${MAX_URL_LENGTH} characters (T25)`, "no-store", {
    ...RATE_HEADER_DOCS,
  }),
  429: problemResponse("The client IP exceeded the rate limit (D24)", "no-store", {
    "Retry-After": header("Whole seconds to wait, at least 1", z.number().int().min(1)),
    ...RATE_HEADER_DOCS,
  }),
  500: problemResponse("An unexpected fault; it is logged, nothing internal is shown (D25)", "no-store"),
} satisfies Record<number, ZodOpenApiResponseObject>;

/** The headers an endpoint's 200 body determines (its `headers`, T526), as strings with their description. */
function bodyHeaderDocs(endpoint: Endpoint): Record<string, z.ZodType> {
  const docs: Record<string, z.ZodType> = {};
  for (const [name, h] of Object.entries(endpoint.headers ?? {})) docs[name] = header(h.description);
  return docs;
}

function toOpenApiPath(fastifyPath: string): string {
  return fastifyPath.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

/** The input with each parameter's description and example on the parameter itself (not only its schema). */
function documentedInput(input: z.ZodObject): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, schema] of Object.entries(input.shape as Record<string, z.ZodType>)) {
    const doc = paramDoc(schema);
    shape[name] = schema.meta({
      description: doc.description,
      ...(doc.example !== undefined ? { example: doc.example } : {}),
    });
  }
  return z.object(shape);
}

/** The OpenAPI operation of one endpoint descriptor: its input, output and the D21–D25 headers. */
function operation(endpoint: Endpoint): ZodOpenApiOperationObject {
  const pathParams = pathParamsOf(endpoint.path);
  const hasQuery = Object.keys(endpoint.input.shape).length > 0;
  const contentType = (endpoint.contentType ?? JSON_TYPE).split(";")[0]!;
  return {
    operationId: operationId(endpoint.path),
    summary: endpoint.summary,
    description: endpoint.description,
    requestParams: {
      ...(hasQuery ? { query: documentedInput(endpoint.input) } : {}),
      ...(pathParams.length > 0
        ? {
            path: z.object(
              Object.fromEntries(
                pathParams.map((p) => [p, z.string().meta({ description: PATH_PARAM_DESCRIPTIONS[p] })]),
              ),
            ),
          }
        : {}),
      header: z.object({
        "If-None-Match": z.string().optional().meta({ description: "ETags, a list or `*`; weak comparison (D21)" }),
      }),
    },
    responses: {
      200: {
        description: "Success",
        headers: z.object({
          "Cache-Control": header(
            `public, max-age=${endpoint.maxAge}, s-maxage=3600, stale-while-revalidate=86400 (D22)`,
          ),
          ...VERSIONED_HEADER_DOCS,
          ...bodyHeaderDocs(endpoint),
          ...CORS_HEADER_DOCS,
          ...RATE_HEADER_DOCS,
        }),
        content: { [contentType]: { schema: endpoint.output } },
      },
      304: {
        description:
          "If-None-Match matched the ETag; no body. Carries ETag, Cache-Control, x-dataset-version, CORS (D21)",
        headers: z.object({
          "Cache-Control": header("As on the 200, or as on the 400/404 it revalidates (D22)"),
          ...VERSIONED_HEADER_DOCS,
          ...CORS_HEADER_DOCS,
          ...RATE_HEADER_DOCS,
        }),
      },
      ...(hasQuery ? { 400: ERRORS[400] } : {}),
      404: ERRORS[404],
      405: ERRORS[405],
      414: ERRORS[414],
      429: ERRORS[429],
      500: ERRORS[500],
    },
  };
}

function operationId(path: string): string {
  const words = path
    .replace(/:([A-Za-z0-9_]+)/g, "by-$1")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0);
  return ["get", ...words].map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join("");
}

/**
 * Builds the OpenAPI 3.1 document (D26) of the given endpoint descriptors (T162): their typed
 * inputs and output schemas, the headers of D21–D24.
 */
export function buildOpenApiDocument(endpoints: readonly Endpoint[]): oas31.OpenAPIObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const endpoint of endpoints) paths[toOpenApiPath(endpoint.path)] = { get: operation(endpoint) };
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Tariff API",
      version: "1",
      description:
        "Read-only catalogue of AI-model prices. No authentication; CORS open to every origin; rate-limited per " +
        "client IP. Every response carries a weak ETag; errors are RFC 9457 problem details.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: API_PREFIX }],
    paths,
  });
}

/**
 * The `/openapi.json` endpoint (D26, D22 max-age 3600): the document of `documented` and of itself,
 * built once on first use. Not a tool of the assistant connector.
 */
export function openApiRoute(documented: readonly Endpoint[]): RouteSpec & { document(): oas31.OpenAPIObject } {
  let built: oas31.OpenAPIObject | null = null;
  const document = (): oas31.OpenAPIObject => {
    built ??= buildOpenApiDocument([...documented, endpoint]);
    return built;
  };
  const endpoint = defineEndpoint({
    name: "openapi",
    summary: "This OpenAPI 3.1 document",
    description: "Discovery document (D26).",
    path: "/openapi.json",
    maxAge: 3600,
    input: z.object({}),
    output: z
      .looseObject({ openapi: z.literal("3.1.0"), info: z.looseObject({}), paths: z.record(z.string(), z.unknown()) })
      .meta({ description: "OpenAPI 3.1 document" }),
    tool: null,
    run: () =>
      document() as unknown as { openapi: "3.1.0"; info: Record<string, unknown>; paths: Record<string, unknown> },
  });
  return { ...routeOf(endpoint), document };
}
