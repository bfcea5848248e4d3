import type { z } from "zod";
import { callEndpoint, type EndpointServices, NO_SERVICES } from "../catalogue/call.js";
import { parseInput } from "../catalogue/endpoint.js";
import { costEndpoint } from "../catalogue/endpoints/cost.js";
import { CatalogueError } from "../catalogue/errors.js";
import type { ApiCostEstimate } from "../catalogue/schemas.js";
import { type CatalogueView, resolveModelId } from "../catalogue/view.js";
import { baseLabel } from "../core/labels.js";
import { CACHE_TTLS, type CacheTtl, USAGE_FIELDS, type UsageField } from "../domain/cost.js";
import { type CacheKind, type Direction, dimension, TIERS, type Tier } from "../domain/dimension.js";
import { lookupTable } from "../domain/lookup-table.js";
import { ServedMismatchError, servedAs } from "../domain/served-usage.js";
import { mapUsage, type UnpricedPart, USAGE_FORMATS, UsageError, type UsageFormat } from "../domain/usage.js";
import { CALL_PARTS, type CostLogReport, missingCount, ReasonGroups, Totals } from "./cost-log-report.js";
import type { LogRecord } from "./usage-log.js";

/**
 * `tariff cost <file>` (issue 29 §4, T216–T217): prices every record of a usage log at its own
 * timestamp — the prices of the dataset version in force on that day (UTC), as `/cost?at=` does
 * (T147) — and totals the cost per model, channel and day. Each record is priced by the `/cost`
 * descriptor itself, so a record costs exactly what `/cost` says for the same usage and day. A
 * closed period always prices the same: a past day's prices are the store's spans, which later
 * runs never change (T146).
 */

/** One record as priced: when, on which model, and its usage in `/cost`'s parameters. */
interface PricedRecord {
  readonly day: string;
  readonly model: string;
  readonly channel: string;
  readonly estimate: ApiCostEstimate;
  /** The undated model whose prices billed this snapshot's record (`/cost`'s `pricedAs`, T347, T361), else null. */
  readonly pricedAs: string | null;
}

/** Options of a run. */
export interface CostLogOptions {
  /** Price every record on this model instead of its own ("what would this have cost on X"). */
  readonly as?: string | undefined;
  /** The channel to price in (default `direct`); a record's own `channel` field wins. */
  readonly channel?: string | undefined;
  /**
   * What the `/cost` calls load each record's day through (T275; `tariff cost` reads every
   * version's spans once); default: the view's own point-in-time reads.
   */
  readonly services?: EndpointServices;
}

/** A record that cannot be priced; the message is the report's reason. */
class RecordError extends Error {}

/**
 * A record whose usage has a line no published price reaches (T143): the message names the model,
 * channel and the missing dimensions' labels (T345); the estimate's priced lines are its value.
 */
class MissingPriceError extends RecordError {
  constructor(
    message: string,
    readonly day: string,
    readonly missingLabels: readonly string[],
    readonly estimate: ApiCostEstimate,
  ) {
    super(message);
  }
}

/** The price dimension a usage field is billed at (`src/domain/cost.ts`), for a missing line's label. */
const FIELD_DIMENSION: Readonly<Record<UsageField, { direction: Direction; cache: CacheKind } | null>> = {
  inputTokens: { direction: "input", cache: "none" },
  cachedInputTokens: { direction: "input", cache: "read" },
  cacheWriteTokens: { direction: "input", cache: "write" },
  cacheWrite1hTokens: { direction: "input", cache: "write_1h" },
  outputTokens: { direction: "output", cache: "none" },
  reasoningTokens: { direction: "output", cache: "none" },
  webSearchRequests: null,
};

/**
 * The label (D27) of the price a missing line needed (T345): its direction and cache kind, the
 * request's tier and the bracket it is billed in — `Input (batch, cache write)`,
 * `Input (cache write 1h, > 200K tokens)`; web searches are `Tool (web_search)`.
 */
export function missingLabel(
  field: UsageField,
  estimate: Pick<ApiCostEstimate, "bracket">,
  usage: { readonly tier: Tier; readonly cacheTtl: CacheTtl },
): string {
  const d = FIELD_DIMENSION[field];
  if (d === null) return "Tool (web_search)";
  const cache = field === "cacheWriteTokens" && usage.cacheTtl === "1h" ? "write_1h" : d.cache;
  return baseLabel(
    dimension(d.direction, {
      cache,
      tier: usage.tier,
      contextMin: estimate.bracket.contextMin,
      contextMax: estimate.bracket.contextMax,
    }),
  );
}

/** OpenTelemetry `gen_ai.provider.name` / `gen_ai.system` values → the maker whose names the model carries. */
const PROVIDER_MAKERS: Readonly<Record<string, string>> = lookupTable({
  openai: "openai",
  "azure.ai.openai": "openai",
  anthropic: "anthropic",
  "gcp.gemini": "google",
  "gcp.vertex_ai": "google",
  "gcp.gen_ai": "google",
  google: "google",
  gemini: "google",
  x_ai: "xai",
  xai: "xai",
  mistral_ai: "mistral",
  mistral: "mistral",
  deepseek: "deepseek",
  cohere: "cohere",
  perplexity: "perplexity",
  "aws.bedrock": "amazon",
});

const TIMESTAMP_FIELDS = [
  "timestamp",
  "time",
  "ts",
  "created_at",
  "createdAt",
  "created",
  "start_time",
  "startTimeUnixNano",
  "date",
];

/** A record's time as an ISO instant: ISO text, epoch seconds, milliseconds or nanoseconds (OTLP). */
function timeOf(fields: Readonly<Record<string, unknown>>): Date {
  for (const name of TIMESTAMP_FIELDS) {
    const raw = fields[name];
    if (raw === undefined || raw === null || raw === "") continue;
    let date: Date;
    const digits =
      typeof raw === "number" ? String(Math.trunc(raw)) : typeof raw === "string" && /^\d+$/.test(raw) ? raw : null;
    if (digits !== null) {
      // Epoch: ≥ 16 digits nanoseconds (OTLP), ≥ 12 milliseconds, else seconds.
      const n = Number(digits);
      date = new Date(digits.length >= 16 ? n / 1e6 : digits.length >= 12 ? n : n * 1000);
    } else date = new Date(String(raw));
    if (Number.isNaN(date.getTime())) throw new RecordError(`${name} is not a date or time`);
    return date;
  }
  throw new RecordError(`no timestamp (one of ${TIMESTAMP_FIELDS.join(", ")})`);
}

const TOKEN_FIELDS = [...USAGE_FIELDS];

function integerField(fields: Readonly<Record<string, unknown>>, name: string, min: number): number | undefined {
  const raw = fields[name];
  if (raw === undefined || raw === null || raw === "") return undefined;
  const n = typeof raw === "string" && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof n !== "number" || !Number.isInteger(n) || n < min)
    throw new RecordError(`${name} must be an integer ≥ ${min}`);
  return n;
}

/** A record's usage in `/cost`'s terms, its model and provider hint. */
function usageOf(fields: Readonly<Record<string, unknown>>) {
  const tierField = typeof fields.tier === "string" ? fields.tier : undefined;
  if (tierField !== undefined && !(TIERS as readonly string[]).includes(tierField))
    throw new RecordError(`tier must be one of ${TIERS.join(", ")}`);
  const ttlField = typeof fields.cacheTtl === "string" ? fields.cacheTtl : undefined;
  if (ttlField !== undefined && !(CACHE_TTLS as readonly string[]).includes(ttlField))
    throw new RecordError(`cacheTtl must be one of ${CACHE_TTLS.join(", ")}`);
  const requests = integerField(fields, "requests", 1) ?? 1;
  const model = typeof fields.model === "string" && fields.model.trim() !== "" ? fields.model.trim() : null;
  const provider = typeof fields.provider === "string" ? fields.provider : null;
  const region = typeof fields.region === "string" && fields.region.trim() !== "" ? fields.region.trim() : null;
  if (TOKEN_FIELDS.some((f) => fields[f] !== undefined)) {
    const counts = Object.fromEntries(TOKEN_FIELDS.map((f) => [f, integerField(fields, f, 0) ?? 0]));
    return {
      counts,
      cacheTtl: (ttlField as CacheTtl | undefined) ?? "5m",
      tier: (tierField as Tier | undefined) ?? "standard",
      requests,
      model,
      provider,
      region,
      unpriced: [] as readonly UnpricedPart[],
    };
  }
  const format = typeof fields.usageFormat === "string" ? fields.usageFormat : undefined;
  if (format !== undefined && !(USAGE_FORMATS as readonly string[]).includes(format))
    throw new RecordError(`usageFormat must be one of ${USAGE_FORMATS.join(", ")}`);
  let source: unknown = fields;
  if (typeof fields.usage === "string") {
    try {
      source = { ...fields, usage: JSON.parse(fields.usage) };
    } catch {
      throw new RecordError("usage is not JSON");
    }
  }
  try {
    const mapped = mapUsage(source, format as UsageFormat | undefined);
    // T480: the record's own tier and region, as /cost reads them; a field that contradicts one is refused.
    const served = servedAs(mapped, { tier: tierField as Tier | undefined, region: region?.toLowerCase() });
    return {
      counts: Object.fromEntries(TOKEN_FIELDS.map((f) => [f, mapped[f]])),
      cacheTtl: mapped.cacheTtl ?? (ttlField as CacheTtl | undefined) ?? "5m",
      ...served,
      requests,
      model: model ?? mapped.model,
      provider: provider ?? mapped.provider,
      unpriced: mapped.unpriced,
    };
  } catch (error) {
    if (error instanceof ServedMismatchError) throw new RecordError(error.message);
    if (error instanceof UsageError) throw new RecordError(`usage: ${error.message}`);
    throw error;
  }
}

/** The model ids records name, resolved once per (name, provider): an id or alias, else the maker's model of that name. */
function modelResolver(view: CatalogueView): (name: string, provider: string | null) => string | null {
  const bare = new Map<string, string | null>();
  for (const entry of view.models) {
    const m = entry.model;
    for (const s of [m.slug, ...m.aliases.map((a) => a.slice(a.lastIndexOf("/") + 1))]) {
      const key = s.toLowerCase();
      bare.set(key, bare.has(key) && bare.get(key) !== m.id ? null : m.id);
    }
  }
  const known = new Map<string, string | null>();
  return (name, provider) => {
    const key = `${provider ?? ""}\u0000${name}`;
    if (known.has(key)) return known.get(key)!;
    const maker = provider ? (PROVIDER_MAKERS[provider.toLowerCase()] ?? provider.toLowerCase()) : null;
    const id =
      (name.includes("/") ? resolveModelId(view, name) : null) ??
      (maker ? resolveModelId(view, `${maker}/${name}`) : null) ??
      bare.get(name.toLowerCase()) ??
      null;
    known.set(key, id);
    return id;
  };
}

/**
 * Prices the records of a log (see the module comment). Each record's day is the `/cost` call's
 * `at`, whose point-in-time index `callEndpoint` loads through `options.services` (T216, T275).
 * @throws CatalogueError when `as` names no model
 * @throws StoreUnavailableError when the price history cannot be read
 */
export async function priceLog(
  view: CatalogueView,
  log: AsyncIterable<LogRecord>,
  options: CostLogOptions = {},
): Promise<CostLogReport> {
  const resolve = modelResolver(view);
  const asModel = options.as === undefined ? null : resolveModelId(view, options.as);
  if (options.as !== undefined && asModel === null) throw new CatalogueError("not_found", options.as);
  const problems = new ReasonGroups();
  const parts = new ReasonGroups();
  let partlyPriced = 0;
  const total = new Totals();
  const byModel = new Map<string, Totals>();
  const byChannel = new Map<string, Totals>();
  const byDay = new Map<string, Totals>();
  const versions = new Map<string, number>();
  const asUndated = new Map<string, number>();
  let records = 0;
  let priced = 0;
  const add = (groups: Map<string, Totals>, key: string, e: ApiCostEstimate) => {
    const t = groups.get(key) ?? new Totals();
    t.add(e);
    groups.set(key, t);
  };
  for await (const record of log) {
    records++;
    if ("error" in record) {
      problems.add(record.error, record.line);
      continue;
    }
    try {
      const r = await priceRecord(view, record.fields, resolve, asModel, options);
      total.add(r.estimate);
      add(byModel, r.model, r.estimate);
      add(byChannel, r.channel, r.estimate);
      add(byDay, r.day, r.estimate);
      versions.set(r.version, (versions.get(r.version) ?? 0) + 1);
      if (r.pricedAs !== null) {
        const key = `${r.model} as ${r.pricedAs} (${r.estimate.channel}, ${r.tier})`;
        asUndated.set(key, (asUndated.get(key) ?? 0) + 1);
      }
      priced++;
      if (r.estimate.unpriced.length > 0) partlyPriced++;
      for (const u of r.estimate.unpriced)
        parts.add(u.reason, record.line, {
          day: r.day,
          ...(CALL_PARTS.test(u.part) ? { calls: u.quantity } : { tokens: u.quantity }),
          estimate: r.estimate,
        });
    } catch (error) {
      if (error instanceof MissingPriceError)
        problems.add(error.message, record.line, {
          day: error.day,
          tokens: missingCount(error.estimate, (l) => l.usage !== "webSearchRequests"),
          calls: missingCount(error.estimate, (l) => l.usage === "webSearchRequests"),
          missing: error.missingLabels,
          estimate: error.estimate,
        });
      else if (error instanceof RecordError || error instanceof CatalogueError)
        problems.add(error.message, record.line);
      else throw error;
    }
  }
  const out = (groups: Map<string, Totals>) =>
    Object.fromEntries([...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, t]) => [k, t.result()]));
  return {
    records,
    priced,
    unpriced: records - priced,
    problems: problems.result(),
    partlyPriced,
    unpricedParts: parts.result(),
    asModel,
    totals: total.result().totals,
    byModel: out(byModel),
    byChannel: out(byChannel),
    byDay: out(byDay),
    versions: Object.fromEntries([...versions].sort()),
    pricedAsUndated: Object.fromEntries([...asUndated].sort()),
  };
}

/** One record priced by the `/cost` descriptor at its own day (T216). */
async function priceRecord(
  view: CatalogueView,
  fields: Readonly<Record<string, unknown>>,
  resolve: (name: string, provider: string | null) => string | null,
  asModel: string | null,
  options: CostLogOptions,
): Promise<PricedRecord & { version: string; tier: string }> {
  const time = timeOf(fields);
  const day = time.toISOString().slice(0, 10);
  const usage = usageOf(fields);
  if (usage.model === null) throw new RecordError("no model");
  const own = resolve(usage.model, usage.provider);
  if (own === null) throw new RecordError(`unknown model ${usage.model}`);
  const channel = typeof fields.channel === "string" ? fields.channel : (options.channel ?? "direct");
  const input = parseInput(costEndpoint.input, {
    model: asModel ?? own,
    channel,
    at: day,
    ...usage.counts,
    cacheTtl: usage.cacheTtl,
    tier: usage.tier,
    requests: usage.requests,
    ...(usage.region === null ? {} : { region: usage.region }),
  });
  if (USAGE_FIELDS.every((f) => input[f] === 0))
    throw new RecordError(
      usage.unpriced.length > 0
        ? `nothing to price: ${usage.unpriced.map((u) => `${u.part}: ${u.reason}`).join("; ")}`
        : "the usage is empty",
    );
  const services = options.services ?? NO_SERVICES;
  const body = await runAt(view, input, asModel ?? own, services);
  const found = body.data[0];
  // T345: reasons name no day, so a month of one cause is one group (its days are in the group).
  if (!found) throw new RecordError(`${asModel ?? own} is not sold in channel ${channel} on the record's day`);
  // The record's own unpriced parts (T300): the rest is priced, the parts are reported apart.
  const estimate = { ...found, unpriced: [...usage.unpriced] };
  if (found.missing.length > 0) {
    // T345: the reason names the dimension whose price is missing, by its label (D27).
    const labels = found.missing.map((f) => missingLabel(f, found, { tier: usage.tier, cacheTtl: input.cacheTtl }));
    const where = `${channel}${input.region ? `, region ${input.region}` : ""}`;
    throw new MissingPriceError(
      `${asModel ?? own} (${where}) has no published ${labels.join(" or ")} price` +
        ` (for ${found.missing.join(", ")})`,
      day,
      labels,
      estimate,
    );
  }
  return {
    day,
    model: own,
    channel: estimate.channel,
    estimate,
    version: body.meta.datasetVersion,
    // T347, T361: `/cost` bills a dated snapshot at its undated name's prices where it must, and says so.
    pricedAs: found.pricedAs,
    tier: usage.tier,
  };
}

/**
 * The `/cost` answer for a record's day. A model renamed since (T66) was published under a former id
 * on that day; `/cost` resolves a former id to today's id before it looks the day up, so its prices
 * then are asked of a view without the alias index (the newest former id first).
 * @throws RecordError when the model was not published on or before the day (T147)
 */
async function runAt(
  view: CatalogueView,
  input: z.output<typeof costEndpoint.input>,
  id: string,
  services: EndpointServices,
) {
  const formerIds = [...(view.byId.get(id)?.model.formerIds ?? [])].reverse();
  const asPublished: CatalogueView = formerIds.length > 0 ? { ...view, aliasOf: NO_ALIASES } : view;
  for (const [model, on] of [[id, view] as const, ...formerIds.map((f) => [f, asPublished] as const)])
    try {
      return (await callEndpoint(costEndpoint, on, { input: { ...input, model }, baseUrl: "" }, services)).body;
    } catch (error) {
      if (!(error instanceof CatalogueError && error.code === "not_found")) throw error;
    }
  throw new RecordError(`${id} has no prices published on or before the record's day`);
}

const NO_ALIASES: ReadonlyMap<string, string> = new Map();
