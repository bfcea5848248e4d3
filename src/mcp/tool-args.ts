import { z } from "zod";
import {
  type Endpoint,
  isNumberParam,
  PATH_PARAM_DESCRIPTIONS,
  type PathValues,
  paramDoc,
  parseInput,
  pathParamsOf,
} from "../catalogue/endpoint.js";

/**
 * Tool arguments (T20, T162). A tool's arguments are its endpoint's input parameters, same names and
 * descriptions, plus the path parameters `provider` and `model`. The advertised schema checks only
 * JSON types, so that every D13 failure is the endpoint's own 400 problem, as over HTTP: enum values
 * are listed in the description, and an integer parameter takes a JSON integer or a string of decimal
 * digits (converted with the query string's rule). The endpoint's input then validates them.
 */

/** The schema of a parameter without optional/default wrappers, and its enum values if any. */
function unwrap(schema: z.ZodType): z.ZodType {
  let s: z.ZodType = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodDefault) s = s.unwrap() as z.ZodType;
  return s;
}

/** The allowed values of an enum parameter (`channel`, `confidence`), else null. */
export function enumValues(param: z.ZodType): readonly string[] | null {
  const inner = unwrap(param);
  return inner instanceof z.ZodEnum ? (inner.options as string[]) : null;
}

/** Whether a parameter may be left out (optional, or with a default). */
function isOptional(param: z.ZodType): boolean {
  return param instanceof z.ZodOptional || param instanceof z.ZodDefault;
}

/**
 * Parameters whose HTTP value is JSON text (`/cost`'s `usage`, T211): a tool takes the JSON value
 * itself as structured arguments, or its text (issue 49 §4, T485).
 */
const JSON_PARAMS: ReadonlySet<string> = new Set(["usage"]);

/**
 * An integer argument: a JSON number or a string of digits, as `anyOf` branches of one type each, so
 * that strict schema linters (the MCP inspector's `--strict`) find no `type` array (T485). Neither
 * branch narrows: a bad value is the endpoint's own 400 (T20).
 */
const INTEGER_ARG = z.union([
  z.string().meta({ description: "decimal digits" }),
  z.number().meta({ description: "a JSON number" }),
]);

/** A JSON argument: an object (any members, declared so) or its JSON text (T485). */
const JSON_ARG = z.union([
  z.looseObject({}).meta({ additionalProperties: true, description: "the JSON object" }),
  z.string().meta({ description: "its JSON text" }),
]);

/**
 * The tool's input schema, built from the endpoint's input and path (same names, optionality and
 * descriptions; enum values and integer forms appended to the description).
 * @throws Error when a parameter has no description (a new parameter must be documented)
 */
export function toolInputSchema(endpoint: Endpoint): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const name of pathParamsOf(endpoint.path)) shape[name] = z.string().describe(PATH_PARAM_DESCRIPTIONS[name]);
  for (const [name, param] of Object.entries(endpoint.input.shape as Record<string, z.ZodType>)) {
    let description: string;
    try {
      description = paramDoc(param).description;
    } catch {
      throw new Error(`parameter ${name} of ${endpoint.name} has no description`);
    }
    const values = enumValues(param);
    if (values) description += ` One of: ${values.join(", ")}.`;
    const integer = isNumberParam(param);
    if (integer) description += " An integer, as a JSON number or a string of decimal digits.";
    if (JSON_PARAMS.has(name)) description += " A JSON object, or its JSON text.";
    const type = integer ? INTEGER_ARG : JSON_PARAMS.has(name) ? JSON_ARG : z.string();
    shape[name] = (isOptional(param) ? type.optional() : type).describe(description);
  }
  return z.object(shape);
}

const DIGITS = /^\d+$/;

/**
 * The endpoint's typed input from tool arguments: a digit string of an integer parameter becomes a
 * number (a non-digit string a NaN the schema rejects with the parameter's message), a JSON
 * parameter's object its JSON text (T485), then the endpoint's input validates as for HTTP.
 * @throws CatalogueError bad_request with the HTTP detail (D13)
 */
export function inputFromArgs<I extends z.ZodObject>(input: I, args: Readonly<Record<string, unknown>>): z.output<I> {
  const values: Record<string, unknown> = {};
  for (const [name, param] of Object.entries(input.shape as Record<string, z.ZodType>)) {
    const value = args[name];
    if (value === undefined) continue;
    // T485: a JSON parameter given as a JSON value is read as its text, as HTTP's query carries it.
    if (JSON_PARAMS.has(name) && typeof value === "object" && value !== null) {
      values[name] = JSON.stringify(value);
      continue;
    }
    values[name] =
      isNumberParam(param) && typeof value === "string" ? (DIGITS.test(value) ? Number(value) : Number.NaN) : value;
  }
  return parseInput(input, values);
}

/** The path arguments as strings (the input schema makes them required strings). */
export function pathValues(args: Readonly<Record<string, unknown>>): PathValues {
  const value = (name: string) => (typeof args[name] === "string" ? (args[name] as string) : "");
  return { provider: value("provider"), model: value("model") };
}
