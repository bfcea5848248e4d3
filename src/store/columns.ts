import { z } from "zod";
import { CHANGE_KINDS } from "../domain/change.js";
import { CHANNELS } from "../domain/channel.js";
import { CONFIDENCE_LEVELS } from "../domain/confidence.js";
import { LIFECYCLE_STATES, RUN_STATUSES, SOURCE_RUN_STATUSES } from "../domain/dataset.js";
import { AXIS_NAMES, type Axis, type AxisValue, axisValues, type Dimension } from "../domain/dimension.js";
import { SOURCE_IDS } from "../domain/observation.js";
import { SOURCE_ATTEMPT_STATUSES } from "../domain/source-attempt.js";
import { UNITS, type Unit } from "../domain/unit.js";

/**
 * Column codecs of the store (issue 19 §4, T163): every text column that holds a domain enum or
 * JSON is read through a zod schema, so a row that does not fit is an error naming the column,
 * never a value cast into a type it does not have. The same codecs encode on write. The JSON
 * schemas mirror the domain types field for field (the store contract tests round-trip a replayed
 * catalogue through them, so a field missing here fails a test instead of vanishing).
 */

/** A stored row that does not fit its column's schema (a corrupt or foreign database). */
export class StoreRowError extends Error {
  override name = "StoreRowError";
}

/** JSON text ↔ a value of `schema` (zod codec). */
export function jsonColumn<T extends z.ZodType>(schema: T) {
  return z.codec(z.string(), schema, {
    decode: (text, ctx) => {
      try {
        return JSON.parse(text);
      } catch (error) {
        ctx.issues.push({ code: "invalid_format", format: "json", input: text, message: String(error) });
        return z.NEVER;
      }
    },
    encode: (value) => JSON.stringify(value),
  });
}

/**
 * A registered source's id (T399): a row naming another is refused like any value outside its
 * column's vocabulary. A source dropped from the registry keeps its id in `SOURCE_IDS` while a
 * retained version still names it.
 */
const sourceId = z.enum(SOURCE_IDS);
const counts = z.record(z.string(), z.number());

/** One text column per enumerated axis of a dimension, derived from the axes' description (T236). */
const AXIS_COLUMNS = Object.fromEntries(AXIS_NAMES.map((a) => [a, z.enum(axisValues(a))])) as {
  readonly [A in Axis]: z.ZodEnum<{ [V in AxisValue<A>]: V }>;
};

/** A dimension as a JSON value (in `source_state.listings`): its axes, bracket and qualifiers. */
const dimensionJson = z.object({
  ...AXIS_COLUMNS,
  contextMin: z.number(),
  contextMax: z.number().nullable(),
  qualifiers: z.record(z.string(), z.string()),
});

/** Enum columns, by domain vocabulary. */
export const COLUMN = {
  channel: z.enum(CHANNELS),
  changeKind: z.enum(CHANGE_KINDS),
  ...AXIS_COLUMNS,
  unit: z.enum(Object.keys(UNITS) as [Unit, ...Unit[]]),
  denomination: z.enum(["currency", "credit"]),
  confidence: z.enum(CONFIDENCE_LEVELS),
  lifecycleState: z.enum(LIFECYCLE_STATES),
  runStatus: z.enum(RUN_STATUSES),
  sourceRunStatus: z.enum(SOURCE_RUN_STATUSES),
  sourceAttemptStatus: z.enum(SOURCE_ATTEMPT_STATUSES),
  source: sourceId,
} as const;

/** JSON columns. */
export const JSON_COLUMN = {
  strings: jsonColumn(z.array(z.string())),
  sources: jsonColumn(z.array(sourceId)),
  qualifiers: jsonColumn(z.record(z.string(), z.string())),
  evidence: jsonColumn(
    z.array(
      z.object({
        source: sourceId,
        amount: z.number(),
        fresh: z.boolean(),
        since: z.string().optional(),
        lagging: z.boolean().optional(),
        listing: z.string().optional(),
        authoritative: z.boolean().optional(),
        movedFrom: z.number().optional(),
        held: z.boolean().optional(),
        loneMove: z.boolean().optional(),
        absentSince: z.string().optional(),
        page: z.object({ url: z.string(), capturedAt: z.string(), contentHash: z.string() }).optional(),
        pending: z.object({ amount: z.number(), since: z.string() }).optional(),
      }),
    ),
  ),
  /** A price's stated end and announced successor (T335), `price_span.validity`. */
  validity: jsonColumn(
    z.object({
      effectiveUntil: z.string(),
      announced: z
        .object({
          amount: z.number(),
          effectiveFrom: z.string(),
          source: sourceId,
          // T423: the announcement's own confidence (absent on versions published before it).
          confidence: z.enum(CONFIDENCE_LEVELS).optional(),
          confidenceScore: z.number().optional(),
        })
        .nullable(),
    }),
  ),
  counts: jsonColumn(counts),
  lastError: jsonColumn(z.object({ at: z.string(), message: z.string(), httpStatus: z.number().nullable() })),
  runSummary: jsonColumn(
    z.object({
      observations: counts,
      rejected: counts.optional(),
      unresolved: counts,
      unmatched: z
        .array(
          z.object({
            source: z.string(),
            seller: z.string(),
            model: z.string(),
            reason: z.string(),
            nearest: z.string().nullable(),
            observations: z.number(),
          }),
        )
        .optional(),
      failed: z.record(z.string(), z.string()),
      models: z.number(),
      prices: z.number(),
      disputed: z.number(),
      corrections: z.number().optional(),
      sellerRenames: z
        .array(z.object({ source: sourceId, from: z.string(), to: z.string(), aliases: z.array(z.string()) }))
        .optional(),
    }),
  ),
  listings: jsonColumn(
    z.array(
      z.object({
        seller: z.string(),
        model: z.string(),
        makerHint: z.string().nullable(),
        aliases: z.array(z.string()).optional(),
        huggingFaceId: z.string().nullable().optional(),
        canonicalSlug: z.string().nullable().optional(),
        publisherName: z.string().nullable().optional(),
        sellerApi: z.string().optional(),
        statesFree: z.boolean().optional(),
        name: z.string().nullable(),
        family: z.string().nullable(),
        contextWindow: z.number().nullable(),
        maxOutputTokens: z.number().nullable(),
        openWeights: z.boolean().nullable(),
        releasedOn: z.string().nullable(),
        deprecatedOn: z.string().nullable(),
        retiresOn: z.string().nullable(),
        status: z.enum(["preview", "active", "deprecated"]).nullable(),
        pricesDated: z
          .object({ on: z.string(), kind: z.enum(["effective", "reviewed"]) })
          .nullable()
          .optional(),
        prices: z.array(
          z.object({
            dimension: dimensionJson,
            amount: z.number(),
            unit: z.enum(Object.keys(UNITS) as [Unit, ...Unit[]]),
            denomination: z.enum(["currency", "credit"]),
            currency: z.string(),
            thresholdDerived: z.boolean().optional(),
            validity: z.object({ until: z.string(), next: z.number().nullable() }).optional(),
            // T425: an announcement the source withdrew, remembered to see it flip back.
            withdrawn: z.object({ until: z.string(), next: z.number().nullable(), on: z.string() }).optional(),
            // T467: a maker's page's move held until its next fetch.
            pending: z.object({ amount: z.number(), since: z.string() }).optional(),
          }),
        ),
      }),
    ),
  ),
} as const;

/**
 * Reads one column value through its schema or codec.
 * @throws StoreRowError naming the table and column when the stored value does not fit
 */
export function decode<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  // For a codec, parsing is decoding (JSON text → value); for an enum, a membership check.
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const column = issue && issue.path.length > 0 ? `.${issue.path.join(".")}` : "";
    throw new StoreRowError(`${where}${column}: ${issue?.message ?? "does not fit"}`);
  }
  return parsed.data;
}

/** A value as the domain holds it (readonly arrays and objects). */
type DeepReadonly<T> = T extends (infer E)[]
  ? readonly DeepReadonly<E>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** Writes one value through its codec (JSON text for JSON columns). */
export function encode<S extends z.ZodType>(schema: S, value: DeepReadonly<z.output<S>>): z.input<S> {
  return z.encode(schema, value as z.output<S>);
}

/** The store columns of a dimension (T236): a text column per axis, the bracket, qualifiers as JSON text. */
export interface DimensionColumns {
  readonly direction: string;
  readonly modality: string;
  readonly tier: string;
  readonly cache: string;
  readonly context_min: number;
  readonly context_max: number | null;
  readonly qualifiers: string;
}

/**
 * The schemas of a row's dimension columns that need decoding (an enum per axis, the qualifiers'
 * JSON), to spread into a row schema that decodes a whole row in one pass.
 */
export const DIMENSION_COLUMN = { ...AXIS_COLUMNS, qualifiers: JSON_COLUMN.qualifiers };
const DimensionRow = z.object(DIMENSION_COLUMN);

/**
 * The axis values of `d`, one field each, written out: an object of fixed shape, which every row
 * of a store read makes (a keyed loop made a dictionary-mode object whose spread was the row
 * decoder's costliest frame). An axis added to `AXES` is a compile error here until it is listed.
 */
function axesOf(d: Pick<Dimension, Axis>): Pick<Dimension, Axis> {
  return { direction: d.direction, modality: d.modality, tier: d.tier, cache: d.cache };
}

/** A dimension as its store columns. */
export function dimensionColumns(d: Dimension): DimensionColumns {
  return {
    ...axesOf(d),
    context_min: d.contextMin,
    context_max: d.contextMax,
    qualifiers: encode(JSON_COLUMN.qualifiers, d.qualifiers),
  };
}

/**
 * The dimension of a row: `decoded` its {@link DIMENSION_COLUMN} values, `row` the raw bracket
 * (numbers, or the strings PostgreSQL returns for bigint).
 */
export function dimensionOf(
  decoded: z.output<typeof DimensionRow>,
  row: { readonly context_min: unknown; readonly context_max: unknown },
): Dimension {
  return {
    direction: decoded.direction,
    modality: decoded.modality,
    tier: decoded.tier,
    cache: decoded.cache,
    contextMin: Number(row.context_min),
    contextMax: row.context_max === null ? null : Number(row.context_max),
    qualifiers: decoded.qualifiers,
  };
}

/**
 * The dimension stored in a row's dimension columns.
 * @throws StoreRowError naming `where` and the column when a value does not fit
 */
export function dimensionOfColumns(row: DimensionColumns, where: string): Dimension {
  return dimensionOf(decode(DimensionRow, row, where), row);
}
