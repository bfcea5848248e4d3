import { z } from "zod";
import { CHANGE_KINDS } from "../domain/change.js";
import { CHANNELS } from "../domain/channel.js";
import { CONFIDENCE_LEVELS } from "../domain/confidence.js";
import { badRequest } from "./errors.js";

/**
 * Query parameters of every endpoint as zod schemas (D13), shared by HTTP and MCP. Values arrive as
 * strings exactly as sent; each schema turns them into typed values or a 400 whose detail names the
 * parameter and its allowed values. Unknown parameters are ignored.
 */

/** A query as sent: name → every value given (D13 "the same parameter given twice" is a 400). */
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

/** D13 integer: decimal digits only (`05` is 5; `+5`, `1e2`, `0x10`, `1.5`, `` are not). */
function integerParam(name: string, min: number, max: number | null, cap: number | null = null) {
  const allowed = max === null ? `an integer ≥ ${min}` : `an integer from ${min} to ${max}`;
  return z
    .string()
    .refine((s) => DIGITS.test(s), { message: `${name} must be ${allowed}` })
    .transform((s) => Number(s))
    .refine((n) => n >= min && (max === null || n <= max), { message: `${name} must be ${allowed}` })
    .transform((n) => (cap !== null ? Math.min(n, cap) : n));
}

function enumParam<const T extends readonly [string, ...string[]]>(name: string, values: T) {
  return z.enum(values, { message: `${name} must be one of: ${values.join(", ")}` });
}

const text = z.string();

export const MODEL_LIST_LIMIT = { default: 50, min: 1, max: 500 } as const;
export const SEARCH_LIMIT = { default: 10, min: 1, max: 50 } as const;
export const CHANGES_LIMIT = { default: 100, min: 1, cap: 500 } as const;
export const COMPARE_IDS = { min: 2, max: 8 } as const;
export const RATES_MAX_PROVIDERS = 50;

/** GET /models (D10–D12, D16). */
export const ListModelsQuery = z.object({
  q: text.optional(),
  provider: text.optional(),
  confidence: enumParam("confidence", CONFIDENCE_LEVELS).optional(),
  limit: integerParam("limit", MODEL_LIST_LIMIT.min, MODEL_LIST_LIMIT.max).optional(),
  cursor: text.optional(),
});
export type ListModelsQuery = z.output<typeof ListModelsQuery>;

/** GET /models/search */
export const SearchModelsQuery = z.object({
  q: text.optional(),
  limit: integerParam("limit", SEARCH_LIMIT.min, SEARCH_LIMIT.max).optional(),
});
export type SearchModelsQuery = z.output<typeof SearchModelsQuery>;

/** GET /models/{provider}/{model} */
export const GetModelQuery = z.object({
  channel: enumParam("channel", CHANNELS).optional(),
});
export type GetModelQuery = z.output<typeof GetModelQuery>;

/** GET /compare (D15) */
export const CompareQuery = z.object({
  models: z.string({ message: "models is required: 2 to 8 comma-separated <provider>/<model> ids" }),
});
export type CompareQuery = z.output<typeof CompareQuery>;

/** GET /rates */
export const RatesQuery = z.object({ provider: text.optional() });
export type RatesQuery = z.output<typeof RatesQuery>;

/** D13: a real calendar date `YYYY-MM-DD`. */
function dateParam(name: string) {
  return z.string().refine(isRealDate, { message: `${name} must be a real date YYYY-MM-DD` });
}

function isRealDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00.000Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** GET /models/{provider}/{model}/history (D17): inclusive date range. */
export const HistoryQuery = z
  .object({ from: dateParam("from").optional(), to: dateParam("to").optional() })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: "from must not be after to",
  });
export type HistoryQuery = z.output<typeof HistoryQuery>;

export const CHANGES_DAYS = { default: 30, min: 1, max: 3650 } as const;

/** GET /changes and /changes.xml (D11, D18, D19). `kind` is checked by {@link parseKinds}. */
export const ChangesQuery = z.object({
  days: integerParam("days", CHANGES_DAYS.min, CHANGES_DAYS.max).optional(),
  limit: integerParam("limit", CHANGES_LIMIT.min, null, CHANGES_LIMIT.cap).optional(),
  provider: text.optional(),
  model: text.optional(),
  q: text.optional(),
  kind: text.optional(),
});
export type ChangesQuery = z.output<typeof ChangesQuery>;

/**
 * The comma-separated `kind` filter; empty entries are ignored.
 * @throws CatalogueError bad_request naming an unknown kind and the allowed ones
 */
export function parseKinds(value: string | undefined): (typeof CHANGE_KINDS)[number][] | null {
  const kinds = splitList(value);
  if (kinds.length === 0) return null;
  for (const k of kinds)
    if (!(CHANGE_KINDS as readonly string[]).includes(k))
      throw badRequest(`kind ${JSON.stringify(k)} is not one of: ${CHANGE_KINDS.join(", ")}`);
  return kinds as (typeof CHANGE_KINDS)[number][];
}

/** Endpoints without parameters. */
export const NoQuery = z.object({});

/**
 * Validates a raw query against a schema: only the schema's own parameters are looked at (others
 * ignored); one given twice is a 400; a schema failure is a 400 naming the parameter.
 * @throws CatalogueError bad_request
 */
export function validateQuery<S extends z.ZodObject>(schema: S, raw: RawQuery): z.output<S> {
  const input: Record<string, string> = {};
  for (const name of Object.keys(schema.shape)) {
    const values = raw.get(name);
    if (!values) continue;
    if (values.length > 1) throw badRequest(`${name} was given ${values.length} times; give it once`);
    input[name] = values[0]!;
  }
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest(issue?.message ?? "invalid query");
  }
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
