import { z } from "zod";
import {
  createDocument,
  type oas31,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from "zod-openapi";
import {
  CHANGES_DAYS,
  CHANGES_LIMIT,
  ChangesQuery,
  COMPARE_IDS,
  CompareQuery,
  GetModelQuery,
  HistoryQuery,
  ListModelsQuery,
  MODEL_LIST_LIMIT,
  NoQuery,
  RATES_MAX_PROVIDERS,
  RatesQuery,
  SEARCH_LIMIT,
  SearchModelsQuery,
} from "../catalogue/params.js";
import * as S from "../catalogue/schemas.js";
import { CHANGE_KINDS, MARKET_KINDS } from "../domain/change.js";
import { MAX_AGE } from "./cache-control.js";
import { MAX_URL_LENGTH } from "./limits.js";
import { API_PREFIX, type RouteSpec } from "./routes.js";

/** How one query parameter is documented on top of its zod schema in params.ts. */
export interface ParamDoc {
  readonly description: string;
  readonly example?: string;
  /** D13 integers travel as decimal digits; documented as an integer with its range. */
  readonly integer?: { readonly minimum: number; readonly maximum?: number; readonly default: number };
}

/** One GET operation of API v1: the schemas it validates with and answers with (D26). */
export interface OperationDoc {
  readonly summary: string;
  readonly description: string;
  /** The zod QUERY schema the verb validates with (params.ts). */
  readonly query: z.ZodObject;
  /** Documentation of every key of `query` (a test checks the two name the same parameters). */
  readonly params: Readonly<Record<string, ParamDoc>>;
  /** The zod RESPONSE schema of a 200 (schemas.ts); a string for non-JSON bodies. */
  readonly response: z.ZodType;
  readonly contentType: string;
  /** True for `/models/{provider}/{model}…`: an unknown model is a 404 (D14). */
  readonly modelPath?: boolean;
}

const JSON_TYPE = "application/json";

/** GET /changes and /changes.xml share their parameters (D19). */
const CHANGES_PARAMS: Readonly<Record<string, ParamDoc>> = {
  days: {
    description: `Look-back window in days, ${CHANGES_DAYS.min} to ${CHANGES_DAYS.max}`,
    integer: { minimum: CHANGES_DAYS.min, maximum: CHANGES_DAYS.max, default: CHANGES_DAYS.default },
  },
  limit: {
    description: `Maximum rows, at least ${CHANGES_LIMIT.min}; above ${CHANGES_LIMIT.cap} it is capped to ${CHANGES_LIMIT.cap}`,
    integer: { minimum: CHANGES_LIMIT.min, default: CHANGES_LIMIT.default },
  },
  provider: { description: "Only this provider's changes (its slug)" },
  model: { description: "Only this model's changes (its slug, without the provider)" },
  q: { description: "Free text over model and provider slugs and names (D11)" },
  kind: { description: `Comma-separated kinds from: ${CHANGE_KINDS.join(", ")}` },
};

/**
 * Every endpoint of API v1, keyed by its ROUTES path (Fastify syntax). `/openapi.json` itself is
 * included. The OpenAPI document is generated from this table.
 */
export const OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  "/meta": {
    summary: "Dataset summary",
    description: "The dataset summary, also a health check and the way to read the current dataset version.",
    query: NoQuery,
    params: {},
    response: S.MetaResponse,
    contentType: JSON_TYPE,
  },
  "/providers": {
    summary: "Providers (makers)",
    description: "Every maker of a model. Resellers are sales channels, never providers (D1).",
    query: NoQuery,
    params: {},
    response: S.ProvidersResponse,
    contentType: JSON_TYPE,
  },
  "/models": {
    summary: "Model list",
    description: "Filtered, keyset-paginated model list with the maker's own prices (D10–D12, D16).",
    query: ListModelsQuery,
    params: {
      q: { description: "Free-text match on slug and display name (D11)", example: "claude 3.5" },
      provider: { description: "Comma-separated provider slugs", example: "anthropic,openai" },
      confidence: { description: "Keep models whose weakest direct price is at least this level (D16)" },
      limit: {
        description: `Page size, ${MODEL_LIST_LIMIT.min} to ${MODEL_LIST_LIMIT.max}`,
        integer: { minimum: MODEL_LIST_LIMIT.min, maximum: MODEL_LIST_LIMIT.max, default: MODEL_LIST_LIMIT.default },
      },
      cursor: { description: "Opaque cursor from `meta.nextCursor`; only valid with the same filters (D12)" },
    },
    response: S.ModelsResponse,
    contentType: JSON_TYPE,
  },
  "/models/search": {
    summary: "Model suggestions for a picker",
    description: "Same filter and order as GET /models, returning only id and label (D20).",
    query: SearchModelsQuery,
    params: {
      q: { description: "Free-text match; without it the head of the catalogue is returned", example: "opus" },
      limit: {
        description: `Number of suggestions, ${SEARCH_LIMIT.min} to ${SEARCH_LIMIT.max}`,
        integer: { minimum: SEARCH_LIMIT.min, maximum: SEARCH_LIMIT.max, default: SEARCH_LIMIT.default },
      },
    },
    response: S.SearchResponse,
    contentType: JSON_TYPE,
  },
  "/models/:provider/:model": {
    summary: "One model",
    description:
      "One model with the prices of one sales channel (D2). A channel that does not sell it gives `prices: []`.",
    query: GetModelQuery,
    params: { channel: { description: "Sales channel; default the maker's own prices (`direct`)" } },
    response: S.ModelResponse,
    contentType: JSON_TYPE,
    modelPath: true,
  },
  "/models/:provider/:model/history": {
    summary: "Price history of one model",
    description: "One series per direct-channel price dimension, a point per change (D17).",
    query: HistoryQuery,
    params: {
      from: { description: "Inclusive lower bound, a real date YYYY-MM-DD; not after `to`", example: "2025-09-01" },
      to: { description: "Inclusive upper bound, a real date YYYY-MM-DD", example: "2026-06-01" },
    },
    response: S.HistoryResponse,
    contentType: JSON_TYPE,
    modelPath: true,
  },
  "/compare": {
    summary: "Side-by-side prices",
    description:
      "Models in request order; unknown ids are dropped and counted in `meta.found` vs `meta.requested` (D15).",
    query: CompareQuery,
    params: {
      models: {
        description: `Comma-separated <provider>/<model> ids, ${COMPARE_IDS.min} to ${COMPARE_IDS.max} (required)`,
        example: "openai/gpt-4o,anthropic/claude-opus-4-0",
      },
    },
    response: S.CompareResponse,
    contentType: JSON_TYPE,
  },
  "/changes": {
    summary: "Recent market moves",
    description: `Changes newest first; the look-back counts from the dataset version (D18). Default kinds: ${MARKET_KINDS.join(", ")}.`,
    query: ChangesQuery,
    params: CHANGES_PARAMS,
    response: S.ChangesResponse,
    contentType: JSON_TYPE,
  },
  "/changes.xml": {
    summary: "Recent market moves as RSS 2.0",
    description: "The same parameters, validation, headers and errors as GET /changes; one item per change (D19).",
    query: ChangesQuery,
    params: CHANGES_PARAMS,
    response: z.string().meta({ description: "RSS 2.0 document" }),
    contentType: "application/rss+xml",
  },
  "/sources": {
    summary: "Data sources and their health",
    description: "One record per configured upstream source (D4).",
    query: NoQuery,
    params: {},
    response: S.SourcesResponse,
    contentType: JSON_TYPE,
  },
  "/rates": {
    summary: "Billing rates (contract version 2)",
    description: "The cost rate of every billable model, unpaginated, no confidence filter (D30).",
    query: RatesQuery,
    params: { provider: { description: `Comma-separated provider slugs, up to ${RATES_MAX_PROVIDERS}` } },
    response: S.RatesResponse,
    contentType: JSON_TYPE,
  },
  "/openapi.json": {
    summary: "This OpenAPI 3.1 document",
    description: "Discovery document (D26).",
    query: NoQuery,
    params: {},
    response: z
      .looseObject({ openapi: z.literal("3.1.0"), info: z.looseObject({}), paths: z.record(z.string(), z.unknown()) })
      .meta({ description: "OpenAPI 3.1 document" }),
    contentType: JSON_TYPE,
  },
};

const header = (description: string, schema: z.ZodType = z.string()) => schema.meta({ description });
/** A header documented once under components.headers and referenced everywhere else. */
const sharedHeader = (id: string, description: string, schema: z.ZodType = z.string()) =>
  schema.meta({ description, header: { id } });
const CORS_HEADER_DOCS = {
  "Access-Control-Allow-Origin": sharedHeader("Access-Control-Allow-Origin", "Always `*` (D23)"),
  "Access-Control-Expose-Headers": sharedHeader(
    "Access-Control-Expose-Headers",
    "ETag, x-dataset-version, Retry-After, RateLimit-* (D23)",
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

function toOpenApiPath(fastifyPath: string): string {
  return fastifyPath.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

/** The query schema with each parameter's description (and integer range) attached for the document. */
function documentedQuery(op: OperationDoc): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, schema] of Object.entries(op.query.shape as Record<string, z.ZodType>)) {
    const doc = op.params[name];
    if (!doc) throw new Error(`parameter ${name} has no documentation`);
    shape[name] = schema.meta({
      description: doc.description,
      ...(doc.example !== undefined ? { example: doc.example } : {}),
      ...(doc.integer ? { override: { type: "integer", ...doc.integer } } : {}),
    });
  }
  return z.object(shape);
}

function operation(path: string, op: OperationDoc, maxAge: number): ZodOpenApiOperationObject {
  const pathParams = [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  const hasQuery = Object.keys(op.query.shape).length > 0;
  return {
    operationId: operationId(path),
    summary: op.summary,
    description: op.description,
    requestParams: {
      ...(hasQuery ? { query: documentedQuery(op) } : {}),
      ...(pathParams.length > 0
        ? {
            path: z.object(
              Object.fromEntries(
                pathParams.map((p) => [
                  p,
                  z.string().meta({ description: p === "provider" ? "Provider slug" : "Model slug" }),
                ]),
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
          "Cache-Control": header(`public, max-age=${maxAge}, s-maxage=3600, stale-while-revalidate=86400 (D22)`),
          ...VERSIONED_HEADER_DOCS,
          ...CORS_HEADER_DOCS,
          ...RATE_HEADER_DOCS,
        }),
        content: { [op.contentType]: { schema: op.response } },
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
 * Builds the OpenAPI 3.1 document (D26) of the given routes from {@link OPERATIONS}: the query
 * schemas of params.ts, the response schemas of schemas.ts, the headers of D21–D24.
 * @throws Error when a route has no entry in OPERATIONS (a new endpoint must be documented)
 */
export function buildOpenApiDocument(routes: readonly RouteSpec[]): oas31.OpenAPIObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    const op = OPERATIONS[route.path];
    if (!op) throw new Error(`route ${route.path} is missing from OPERATIONS in openapi.ts`);
    paths[toOpenApiPath(route.path)] = { get: operation(route.path, op, route.maxAge) };
  }
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

/** The `/openapi.json` route (D22 max-age 3600) and the document it serves, built once on first use. */
export function openApiRoute(documented: readonly RouteSpec[]): RouteSpec & { document(): oas31.OpenAPIObject } {
  let built: oas31.OpenAPIObject | null = null;
  const route = {
    path: "/openapi.json",
    maxAge: MAX_AGE.openapi,
    document(): oas31.OpenAPIObject {
      built ??= buildOpenApiDocument([...documented, route]);
      return built;
    },
    handle: () => route.document(),
  };
  return route;
}
