import { z } from "zod";
import type { UpstreamFiles } from "../exports/types.js";
import { badRequest } from "./errors.js";
import type { CatalogueView } from "./view.js";

/**
 * One endpoint of API v1, described once (issue 19 §1, T162). `src/http` builds its route, its
 * Cache-Control and its OpenAPI operation from this; `src/mcp` builds its tool from the same
 * `input` and `output`. Adding a parameter is one edit: a key of `input`.
 *
 * `input` is a zod object over typed values (integers are numbers, D13's bounds and messages are
 * part of the schema, every parameter has a description). Query strings become typed values at the
 * transport's edge ({@link inputFromQuery}); tool arguments are typed already.
 */
export interface Endpoint<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
  /** The MCP tool name, e.g. `get_model`; also the OpenAPI operation's identity in tests. */
  readonly name: string;
  /** Short human title (MCP tool title, OpenAPI summary). */
  readonly summary: string;
  /** OpenAPI description: what the endpoint answers, with the decisions it implements. */
  readonly description: string;
  /** Path under `/api/v1`, Fastify syntax (`/models/:provider/:model`). */
  readonly path: string;
  /** D22 `max-age` of a 200, seconds. */
  readonly maxAge: number;
  /** Content-Type of a 200; JSON unless said otherwise. */
  readonly contentType?: string;
  /** The body embeds the request's origin (links, D19), so responses are cached per origin. */
  readonly usesBaseUrl?: boolean;
  /**
   * The body also depends on the sources' last live attempts and the clock (`/sources`, T310): its
   * ETag is over {@link CatalogueView.sourcesRevision} as well as the version.
   */
  readonly judgedNow?: boolean;
  /** Query parameters (typed) with their descriptions. */
  readonly input: I;
  /** The 200 body's schema (response-schemas.ts); a string schema for non-JSON bodies. */
  readonly output: O;
  /**
   * The tool of the assistant connector (issue 8), or null when the endpoint is not one (RSS, the
   * OpenAPI document). The description is written for a model choosing a tool.
   */
  readonly tool: { readonly description: string } | null;
  /**
   * The endpoint reads the recorded upstream files of the version it answers (the price-file
   * exports, T210): `callEndpoint` loads them into {@link RunContext.upstream} (T275).
   */
  readonly readsUpstream?: boolean;
  /**
   * Response headers of a 200 that its body determines, by name: their description (OpenAPI) and
   * value (the LiteLLM export's count of keys kept at LiteLLM's value, T526). Written by
   * `callEndpoint`, so every transport that sends headers sends them.
   */
  readonly headers?: Readonly<Record<string, BodyHeader>>;
  /**
   * Answers the endpoint: the 200 body, typed by `output`. Synchronous: what a parameter needs
   * from I/O (an `at`'s point-in-time index, recorded files) is loaded before by `callEndpoint`
   * (`src/catalogue/call.ts`, T275), which every transport calls.
   * @throws CatalogueError bad_request / not_found / moved (D13, D14, T67)
   */
  run(view: CatalogueView, input: z.output<I>, path: PathValues, context: RunContext): z.output<O>;
}

/** A response header an endpoint's 200 body determines ({@link Endpoint.headers}). */
export interface BodyHeader {
  readonly description: string;
  /** The header's value for the endpoint's body (typed by its `output`). */
  value(body: unknown): string;
}

/** Path parameters of api-v1.md (`/models/{provider}/{model}…`). */
export type PathValues = Readonly<Record<PathParam, string>>;
export type PathParam = "provider" | "model";

/** Descriptions of the path parameters, for OpenAPI and the MCP tools' arguments. */
export const PATH_PARAM_DESCRIPTIONS: Readonly<Record<PathParam, string>> = {
  provider: "Provider (maker) slug: the part of a model id before the slash, e.g. `anthropic`.",
  model: "Model slug: the part of a model id after the slash, e.g. `claude-opus-4-0`.",
};

/** Request facts an endpoint may need beyond its input: the absolute origin for links (D19, T90). */
export interface RunContext {
  readonly baseUrl: string;
  /**
   * The recorded upstream files of the version answered, loaded by `callEndpoint` for an endpoint
   * that {@link Endpoint.readsUpstream} (issue 29, T210, T275); absent: none.
   */
  readonly upstream?: UpstreamFiles;
}

/** An endpoint with its types inferred from the literal (keeps `run` typed by `input` and `output`). */
export function defineEndpoint<I extends z.ZodObject, O extends z.ZodType>(endpoint: Endpoint<I, O>): Endpoint<I, O> {
  return endpoint;
}

/** The path parameters named in an endpoint's path, in order. */
export function pathParamsOf(path: string): PathParam[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] as PathParam);
}

// ---- Parameter schemas (D13): the rules live in the schema, the messages name the parameter ----

/** A D13 integer parameter from `min` to `max` (`max` null: no upper bound). */
export function integerParam(name: string, min: number, max: number | null, description: string) {
  const message = `${name} must be ${max === null ? `an integer ≥ ${min}` : `an integer from ${min} to ${max}`}`;
  const schema = z.number({ error: message }).int({ error: message }).min(min, { error: message });
  return (max === null ? schema : schema.max(max, { error: message })).meta({ description });
}

/** An enum parameter; an unknown value is a 400 naming the allowed ones. */
export function enumParam<const T extends readonly [string, ...string[]]>(
  name: string,
  values: T,
  description: string,
) {
  return z.enum(values, { error: `${name} must be one of: ${values.join(", ")}` }).meta({ description });
}

/** D13: a real calendar date `YYYY-MM-DD`. */
export function dateParam(name: string, description: string, example?: string) {
  return z
    .string()
    .refine(isRealDate, { error: `${name} must be a real date YYYY-MM-DD` })
    .meta({ description, ...(example ? { example } : {}) });
}

/** A free-text parameter. */
export function textParam(description: string, example?: string) {
  return z.string().meta({ description, ...(example ? { example } : {}) });
}

function isRealDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00.000Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

// ---- Validation: one path for both transports ----

/** A query as sent: name → every value given. */
export type RawQuery = ReadonlyMap<string, readonly string[]>;

/** Parses a raw query string (without `?`) with the WHATWG URLSearchParams rules. */
export function parseRawQuery(search: string): RawQuery {
  const map = new Map<string, string[]>();
  for (const [k, v] of new URLSearchParams(search)) {
    const list = map.get(k);
    if (list) list.push(v);
    else map.set(k, [v]);
  }
  return map;
}

const DIGITS = /^\d+$/;

/** The schema under optional/default/pipe wrappers: what a value of the parameter is. */
function baseSchema(schema: z.ZodType): z.ZodType {
  let s: z.ZodType = schema;
  for (;;) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodDefault || s instanceof z.ZodNullable)
      s = s.unwrap() as z.ZodType;
    else if (s instanceof z.ZodPipe) s = s.in as z.ZodType;
    else return s;
  }
}

/**
 * The documentation a parameter carries (`.meta({ description, example })`, on the parameter or
 * under its optional/default wrapper).
 * @throws Error when the parameter has no description (every parameter must be documented)
 */
export function paramDoc(schema: z.ZodType): { description: string; example?: unknown } {
  for (let s: z.ZodType | null = schema; s; s = s === baseSchema(s) ? null : unwrapOnce(s)) {
    const meta = s.meta();
    if (typeof meta?.description === "string")
      return { description: meta.description, ...(meta.example !== undefined ? { example: meta.example } : {}) };
  }
  throw new Error("parameter without a description");
}

function unwrapOnce(s: z.ZodType): z.ZodType {
  if (s instanceof z.ZodOptional || s instanceof z.ZodDefault || s instanceof z.ZodNullable)
    return s.unwrap() as z.ZodType;
  if (s instanceof z.ZodPipe) return s.in as z.ZodType;
  return s;
}

/** Whether a parameter's values are numbers (D13 integers), read from its schema. */
export function isNumberParam(schema: z.ZodType): boolean {
  return baseSchema(schema) instanceof z.ZodNumber;
}

/**
 * A query-string value as the schema's type: for a number parameter, D13's decimal digits only
 * (`05` is 5; `+5`, `1e2`, `0x10`, `1.5`, `` are not numbers and become NaN, which the schema
 * rejects with the parameter's own message); other values stay strings.
 */
export function fromQueryString(schema: z.ZodType, value: string): string | number {
  if (!isNumberParam(schema)) return value;
  return DIGITS.test(value) ? Number(value) : Number.NaN;
}

/**
 * The edge of a query string (D13): only the input's own parameters are read (others ignored); a
 * parameter given twice is a 400; values become the schema's types, then {@link parseInput}.
 * @throws CatalogueError bad_request
 */
export function inputFromQuery<I extends z.ZodObject>(input: I, raw: RawQuery): z.output<I> {
  const values: Record<string, string | number> = {};
  for (const [name, schema] of Object.entries(input.shape as Record<string, z.ZodType>)) {
    const given = raw.get(name);
    if (!given) continue;
    if (given.length > 1) throw badRequest(`${name} was given ${given.length} times; give it once`);
    values[name] = fromQueryString(schema, given[0]!);
  }
  return parseInput(input, values);
}

/**
 * Validates typed values against an endpoint's input; the first failure is a 400 whose detail is
 * the schema's message (it names the parameter and its allowed values, D13).
 * @throws CatalogueError bad_request
 */
export function parseInput<I extends z.ZodObject>(input: I, values: Readonly<Record<string, unknown>>): z.output<I> {
  const parsed = input.safeParse(values);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? "invalid query");
  return parsed.data;
}

/** Splits a comma-separated list, trimming entries and dropping empty ones (D15). */
export function splitList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
