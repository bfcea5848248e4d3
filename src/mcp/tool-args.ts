import { z } from "zod";
import type { RawQuery } from "../catalogue/params.js";

/**
 * Tool arguments ↔ query strings (T20). A tool's arguments are its endpoint's query parameters, named
 * as in `src/catalogue/params.ts`, plus the path parameters `provider` and `model`. Values are strings
 * exactly as in a query string; an integer parameter also takes a JSON number, converted to its
 * decimal string (`String(n)`: `5` → "5", `1.5` → "1.5"). The verbs then validate the resulting
 * {@link RawQuery} with the same code as HTTP (D13), so every 400 is the HTTP one.
 */

/** A query schema of `src/catalogue/params.ts`. */
export type QuerySchema = z.ZodObject;

/** Path parameters of api-v1.md that become tool arguments. */
export type PathArg = "provider" | "model";

const PATH_ARG_DESCRIPTIONS: Readonly<Record<PathArg, string>> = {
  provider: "Provider (maker) slug: the part of a model id before the slash, e.g. `anthropic`.",
  model: "Model slug: the part of a model id after the slash, e.g. `claude-opus-4-0`.",
};

/** Probes that tell an integer parameter: its schema turns some digits into a number. */
const INTEGER_PROBES = ["1", "10", "100"];

/** Whether a query parameter's schema reads a D13 integer. */
export function isIntegerParam(param: z.ZodType): boolean {
  return INTEGER_PROBES.some((probe) => {
    const parsed = param.safeParse(probe);
    return parsed.success && typeof parsed.data === "number";
  });
}

/** Whether a query parameter may be left out. */
export function isOptionalParam(param: z.ZodType): boolean {
  return param.safeParse(undefined).success;
}

/** The allowed values of an enum parameter (`channel`, `confidence`), else null. */
export function enumValues(param: z.ZodType): readonly string[] | null {
  const inner = param instanceof z.ZodOptional ? param.unwrap() : param;
  return inner instanceof z.ZodEnum ? (inner.options as string[]) : null;
}

/**
 * The tool's input schema, derived from the endpoint's query schema: same names, same optionality;
 * strings (integers: string or number); enum values and the caller's text in each description. The
 * schema checks only JSON types: the D13 rules stay in the verbs.
 * @throws Error when a query parameter has no description (a new parameter must be documented)
 */
export function toolInputSchema(
  query: QuerySchema,
  pathArgs: readonly PathArg[],
  descriptions: Readonly<Record<string, string>>,
): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const name of pathArgs) shape[name] = z.string().describe(PATH_ARG_DESCRIPTIONS[name]);
  for (const [name, param] of Object.entries(query.shape) as [string, z.ZodType][]) {
    let description = descriptions[name];
    if (description === undefined) throw new Error(`query parameter ${name} has no tool description`);
    const values = enumValues(param);
    if (values) description += ` One of: ${values.join(", ")}.`;
    const integer = isIntegerParam(param);
    if (integer) description += " An integer, as a JSON number or a string of decimal digits.";
    const type = integer ? z.union([z.string(), z.number()]) : z.string();
    shape[name] = (isOptionalParam(param) ? type.optional() : type).describe(description);
  }
  return z.object(shape);
}

/** Builds the raw query the HTTP route would see: only the schema's parameters, numbers as decimal strings. */
export function toRawQuery(query: QuerySchema, args: Readonly<Record<string, unknown>>): RawQuery {
  const raw = new Map<string, string[]>();
  for (const name of Object.keys(query.shape)) {
    const value = args[name];
    if (typeof value === "string") raw.set(name, [value]);
    else if (typeof value === "number") raw.set(name, [String(value)]);
  }
  return raw;
}

/** The path arguments as strings (the input schema makes them required strings). */
export function pathValues(
  pathArgs: readonly PathArg[],
  args: Readonly<Record<string, unknown>>,
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of pathArgs) values[name] = typeof args[name] === "string" ? args[name] : "";
  return values;
}
