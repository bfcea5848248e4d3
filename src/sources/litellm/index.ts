import type { RawAmount } from "../../domain/amount.js";
import { scaleAmount } from "../../domain/amount.js";
import type { Dimension } from "../../domain/dimension.js";
import { dimension, dimensionKey } from "../../domain/dimension.js";
import type { Listing, PriceObservation } from "../../domain/observation.js";
import { EMPTY_LISTING_META } from "../../domain/observation.js";
import { canonicalSeller, isMaker } from "../../domain/sellers.js";
import type { Unit } from "../../domain/unit.js";
import type { SourceAdapter, SourceInfo, SourcePayload } from "../source.js";
import { SourcePayloadError } from "../source.js";
import type { LitellmEntry } from "./schema.js";
import { LitellmCost, LitellmEntry as LitellmEntrySchema, LitellmFile, LitellmTier } from "./schema.js";

/**
 * LiteLLM adapter (`model_prices_and_context_window.json`, BerriAI/litellm).
 *
 * Costs are USD per unit, mostly per single token (×1e6 → USD per 1M tokens). Key families,
 * brackets (`_above_<N>k_tokens`, `tiered_pricing`), service tiers (`_batches`, `_flex`,
 * `_priority`) and what is skipped are documented in README.md.
 */

const FILE = "model_prices_and_context_window.json";

const INFO: SourceInfo = {
  name: "LiteLLM model prices",
  license: "MIT",
  homepage: "https://github.com/BerriAI/litellm",
  weight: 0.7,
  authoritativeFor: [],
};

/** Modes whose prices we carry; entries without `mode` are kept when they have token prices. */
const MODES = new Set([
  "chat",
  "completion",
  "responses",
  "embedding",
  "image_generation",
  "audio_transcription",
  "audio_speech",
  "rerank",
]);

type Partial_ = Partial<Omit<Dimension, "direction">>;
interface Rule {
  readonly direction: Dimension["direction"];
  readonly dim?: Partial_;
  readonly unit: Unit;
  readonly factor: string;
}
const tok = (direction: Dimension["direction"], dim: Partial_ = {}): Rule => ({
  direction,
  dim,
  unit: "mtok",
  factor: "1e6",
});
const per = (direction: Dimension["direction"], unit: Unit, dim: Partial_ = {}, factor = "1"): Rule => ({
  direction,
  dim,
  unit,
  factor,
});

/**
 * Base price keys (after removing a tier suffix and an `_above_<N>k_tokens` bracket suffix).
 * Order matters: when two keys give one dimension, the earlier key wins (aliases last).
 */
const BASE_RULES: ReadonlyArray<readonly [string, Rule]> = [
  ["input_cost_per_token", tok("input")],
  ["output_cost_per_token", tok("output")],
  ["output_cost_per_reasoning_token", tok("reasoning")],
  ["cache_read_input_token_cost", tok("input", { cache: "read" })],
  ["cache_creation_input_token_cost", tok("input", { cache: "write" })],
  ["cache_creation_input_token_cost_above_1hr", tok("input", { cache: "write_1h" })],
  ["input_cost_per_audio_token", tok("input", { modality: "audio" })],
  ["output_cost_per_audio_token", tok("output", { modality: "audio" })],
  ["input_cost_per_image_token", tok("input", { modality: "image" })],
  ["output_cost_per_image_token", tok("output", { modality: "image" })],
  ["output_cost_per_video_token", tok("output", { modality: "video" })],
  ["cache_read_input_audio_token_cost", tok("input", { modality: "audio", cache: "read" })],
  ["cache_creation_input_audio_token_cost", tok("input", { modality: "audio", cache: "write" })],
  ["cache_read_input_image_token_cost", tok("input", { modality: "image", cache: "read" })],
  ["input_cost_per_image", per("input", "image", { modality: "image" })],
  ["output_cost_per_image", per("output", "image", { modality: "image" })],
  [
    "output_cost_per_image_premium_image",
    per("output", "image", { modality: "image", qualifiers: { quality: "premium" } }),
  ],
  [
    "output_cost_per_image_above_512_and_512_pixels",
    per("output", "image", { modality: "image", qualifiers: { size: "above-512x512" } }),
  ],
  [
    "output_cost_per_image_above_512_and_512_pixels_and_premium_image",
    per("output", "image", { modality: "image", qualifiers: { size: "above-512x512", quality: "premium" } }),
  ],
  [
    "output_cost_per_image_above_1024_and_1024_pixels",
    per("output", "image", { modality: "image", qualifiers: { size: "above-1024x1024" } }),
  ],
  [
    "output_cost_per_image_above_1024_and_1024_pixels_and_premium_image",
    per("output", "image", { modality: "image", qualifiers: { size: "above-1024x1024", quality: "premium" } }),
  ],
  ["input_cost_per_audio_per_second", per("input", "second", { modality: "audio" })],
  ["input_cost_per_video_per_second", per("input", "second", { modality: "video" })],
  ["output_cost_per_video_per_second", per("output", "second", { modality: "video" })],
  ["input_cost_per_character", per("input", "mchars", {}, "1e6")],
  ["output_cost_per_character", per("output", "mchars", {}, "1e6")],
  ["input_cost_per_request", per("request", "krequests", {}, "1000")],
  ["input_cost_per_query", per("request", "krequests", {}, "1000")],
  ["file_search_cost_per_1k_calls", per("tool", "kcalls", { qualifiers: { tool: "file_search" } })],
  // aliases of keys above (the canonical key wins when both are present)
  ["input_cost_per_token_cache_hit", tok("input", { cache: "read" })],
  ["cache_read_input_token_cost_per_audio_token", tok("input", { modality: "audio", cache: "read" })],
];
const BASE = new Map(BASE_RULES);
const BASE_ORDER = new Map(BASE_RULES.map(([k], i) => [k, i]));

/** Per-second keys whose modality depends on the entry's mode (speech in or out). */
const PER_SECOND: Readonly<Record<string, Partial<Record<string, Rule>>>> = {
  input_cost_per_second: { audio_transcription: per("input", "second", { modality: "audio" }) },
  output_cost_per_second: { audio_speech: per("output", "second", { modality: "audio" }) },
};

const TIER_SUFFIX = /_(batches|batch_requests|flex|priority)$/;
const ABOVE_SUFFIX = /_above_(\d+)k_tokens$/;

interface ParsedKey {
  readonly rule: Rule;
  readonly tier: Dimension["tier"];
  readonly threshold: number;
  readonly order: number;
}

/** Splits a price key into base rule, service tier and prompt-length threshold; null if unknown. */
function parseKey(key: string, mode: string | undefined): ParsedKey | null {
  let rest = key;
  let tier: Dimension["tier"] = "standard";
  const t = TIER_SUFFIX.exec(rest);
  if (t) {
    tier = t[1] === "flex" ? "flex" : t[1] === "priority" ? "priority" : "batch";
    rest = rest.slice(0, t.index);
  }
  let threshold = 0;
  const a = ABOVE_SUFFIX.exec(rest);
  if (a) {
    threshold = Number(a[1]) * 1000;
    rest = rest.slice(0, a.index);
  }
  const rule = BASE.get(rest) ?? (mode ? PER_SECOND[rest]?.[mode] : undefined);
  if (!rule) return null;
  return { rule, tier, threshold, order: BASE_ORDER.get(rest) ?? BASE_RULES.length };
}

/** A finite non-negative cost, or null (negative, non-numeric, absent). */
function costOf(value: unknown): RawAmount | null {
  const parsed = LitellmCost.safeParse(value);
  if (!parsed.success) return null;
  const v = parsed.data;
  if (typeof v === "string" && v.trim() === "") return null;
  const n = typeof v === "number" ? v : Number(v);
  return Number.isFinite(n) && n >= 0 ? v : null;
}

class PriceSet {
  private readonly byKey = new Map<string, PriceObservation>();
  add(dim: Dimension, raw: RawAmount, unit: Unit, factor: string): void {
    const key = dimensionKey(dim);
    if (this.byKey.has(key)) return;
    this.byKey.set(key, {
      dimension: dim,
      amount: scaleAmount(raw, factor),
      unit,
      denomination: "currency",
      currency: "USD",
    });
  }
  values(): PriceObservation[] {
    return [...this.byKey.values()];
  }
}

/** Maps all prices of one entry; `qualifiers` (size, region) are added to every dimension. */
function pricesOf(entry: LitellmEntry, qualifiers: Record<string, string>): PriceObservation[] {
  const record = entry as Record<string, unknown>;
  const parsed: Array<ParsedKey & { raw: RawAmount }> = [];
  for (const [key, value] of Object.entries(record)) {
    const raw = costOf(value);
    if (raw === null) continue;
    const p = parseKey(key, entry.mode);
    if (p) parsed.push({ ...p, raw });
  }
  const thresholds = [...new Set(parsed.map((p) => p.threshold).filter((t) => t > 0))].sort((a, b) => a - b);
  const bracket = (min: number) =>
    min === 0
      ? { contextMin: 0, contextMax: null }
      : { contextMin: min, contextMax: thresholds.find((t) => t > min) ?? null };

  const set = new PriceSet();
  const put = (
    rule: Rule,
    tier: Dimension["tier"],
    range: { contextMin: number; contextMax: number | null },
    raw: RawAmount,
  ) => {
    const dim = dimension(rule.direction, {
      ...rule.dim,
      ...range,
      tier,
      qualifiers: { ...(rule.dim?.qualifiers ?? {}), ...qualifiers },
    });
    set.add(dim, raw, rule.unit, rule.factor);
  };
  parsed.sort((a, b) => a.order - b.order);
  for (const p of parsed) put(p.rule, p.tier, bracket(p.threshold), p.raw);

  // web search per query by search-context size → USD per 1K calls
  for (const [size, value] of Object.entries(entry.search_context_cost_per_query ?? {})) {
    const m = /^search_context_size_([a-z]+)$/.exec(size);
    const raw = costOf(value);
    if (!m || raw === null) continue;
    put(
      per("tool", "kcalls", { qualifiers: { tool: "web_search", context_size: m[1] as string } }, "1000"),
      "standard",
      bracket(0),
      raw,
    );
  }

  // tiered_pricing: [{range: [lo, hi], <cost keys>}]; the first range is the base bracket.
  const tiers = (entry.tiered_pricing ?? [])
    .map((t) => LitellmTier.safeParse(t))
    .flatMap((r) => (r.success ? [r.data] : []))
    .sort((a, b) => a.range[0] - b.range[0]);
  tiers.forEach((tierEntry, i) => {
    const range =
      i === 0
        ? { contextMin: 0, contextMax: null }
        : { contextMin: tierEntry.range[0], contextMax: tiers[i + 1]?.range[0] ?? null };
    for (const [key, value] of Object.entries(tierEntry)) {
      const raw = costOf(value);
      const p = raw === null ? null : parseKey(key, entry.mode);
      if (p && raw !== null && p.threshold === 0) put(p.rule, p.tier, range, raw);
    }
  });
  return set.values();
}

/** LiteLLM provider name → canonical seller slug. */
export function litellmSeller(provider: string): string {
  const p = provider.trim().toLowerCase();
  if (p === "bedrock" || p === "bedrock_converse") return "amazon-bedrock";
  if (p === "vertex_ai" || p.startsWith("vertex_ai-")) return "google-vertex";
  if (p === "azure" || p === "azure_ai" || p === "azure_text") return "azure";
  if (p === "fireworks_ai" || p.startsWith("fireworks_ai-")) return "fireworks-ai";
  if (p === "openai" || p === "text-completion-openai") return "openai";
  if (p === "cohere" || p === "cohere_chat") return "cohere";
  const bare = p.replace(/^text-completion-/, "");
  const direct = canonicalSeller(bare);
  if (direct !== bare) return direct;
  return canonicalSeller(bare.replace(/_/g, "-"));
}

/** Key prefixes that only route to `provider` (compared with `-` and `_` treated alike). */
function routingRoots(provider: string): string[] {
  const p = provider.toLowerCase();
  const roots = new Set([p, p.replace(/-.*$/, ""), p.replace(/^text-completion-/, "")]);
  if (p.startsWith("bedrock")) roots.add("bedrock");
  if (p.startsWith("azure")) roots.add("azure");
  return [...roots].map((r) => r.replace(/-/g, "_"));
}

function stripRouting(model: string, provider: string): string {
  const slash = model.indexOf("/");
  if (slash <= 0) return model;
  const first = model.slice(0, slash).toLowerCase().replace(/-/g, "_");
  if (!routingRoots(provider).includes(first)) return model;
  const rest = model.slice(slash + 1);
  return rest.startsWith("accounts/fireworks/models/") ? rest.slice("accounts/fireworks/models/".length) : rest;
}

/** `[quality/]<w>-x-<h>/[<n>-steps/]<model>` image keys → qualifiers and the bare model. */
const IMAGE_SIZE_KEY = /^(?:(standard|hd|low|medium|high)\/)?(\d+|max)-x-(\d+|max)\/(?:(\d+-steps|max-steps)\/)?/;
/** Azure data-zone / deployment-type keys (`azure/eu/gpt-4o`). */
const AZURE_ZONE = /^(us|eu|global|global-standard)\/(.+)$/;

/** The maker a model id names by its vendor prefix (`anthropic/…`, `us.anthropic.…`), if any. */
function vendorOf(model: string): string | null {
  const slash = model.indexOf("/");
  if (slash > 0) {
    const v = canonicalSeller(model.slice(0, slash));
    return isMaker(v) ? v : null;
  }
  for (const part of model.split(".").slice(0, 2)) {
    if (!/^[a-z][a-z0-9-]*$/i.test(part)) continue;
    const v = canonicalSeller(part);
    if (isMaker(v)) return v;
  }
  return null;
}

/** Maker named by the provider itself: `vertex_ai-anthropic_models` → anthropic. */
function providerMaker(provider: string): string | null {
  const m = /^vertex_ai-(.+)_models$/.exec(provider.toLowerCase());
  if (!m) return null;
  const v = canonicalSeller(m[1] as string);
  return isMaker(v) ? v : null;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
function validDate(value: string | null | undefined): string | null {
  if (!value || !DATE.test(value)) return null;
  const d = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value ? null : value;
}
const positiveInt = (n: number | null | undefined): number | null =>
  typeof n === "number" && Number.isInteger(n) && n > 0 ? n : null;

/** Maps one entry to a listing, or null when it is skipped (README "What is skipped"). */
function mapEntry(key: string, entry: LitellmEntry, today: string): Listing | null {
  if (
    entry.mode !== undefined
      ? !MODES.has(entry.mode)
      : !("input_cost_per_token" in entry || "output_cost_per_token" in entry)
  ) {
    return null;
  }
  const provider = entry.litellm_provider;
  const seller = litellmSeller(provider);
  const qualifiers: Record<string, string> = {};
  let model = stripRouting(key, provider);
  const size = IMAGE_SIZE_KEY.exec(model);
  if (size) {
    if (size[1]) qualifiers.quality = size[1];
    qualifiers.size = `${size[2]}x${size[3]}`;
    if (size[4]) qualifiers.steps = size[4];
    model = stripRouting(model.slice(size[0].length), provider);
  }
  if (seller === "azure") {
    const zone = AZURE_ZONE.exec(model);
    if (zone) {
      qualifiers.region = zone[1] as string;
      model = zone[2] as string;
    }
  }
  // Region-pinned (`bedrock/us-east-1/…`) and provisioned-throughput (`…/1-month-commitment/…`) keys.
  if (seller === "amazon-bedrock" && model.includes("/")) return null;

  let prices: PriceObservation[];
  try {
    prices = pricesOf(entry, qualifiers);
  } catch {
    return null; // a cost that is not a decimal: skip this entry only
  }
  if (prices.length === 0) return null;
  // OpenRouter's own routers (`openrouter/auto`, `openrouter/bodybuilder`) list 0 for a variable price.
  if (seller === "openrouter" && /^openrouter\/(?!free$)/.test(model) && prices.every((p) => p.amount === 0))
    return null;

  const deprecatedOn = validDate(entry.deprecation_date);
  return {
    ...EMPTY_LISTING_META,
    seller,
    model,
    makerHint: isMaker(seller) ? seller : (providerMaker(provider) ?? vendorOf(model)),
    contextWindow:
      positiveInt(entry.max_input_tokens) ?? (entry.max_output_tokens == null ? positiveInt(entry.max_tokens) : null),
    maxOutputTokens: positiveInt(entry.max_output_tokens),
    deprecatedOn,
    status: deprecatedOn !== null && deprecatedOn <= today ? "deprecated" : null,
    prices,
  };
}

/** `a` completed by `b`: metadata `a` lacks and prices of dimensions `a` lacks. */
function mergeListings(a: Listing, b: Listing): Listing {
  const have = new Set(a.prices.map((p) => dimensionKey(p.dimension)));
  return {
    ...a,
    makerHint: a.makerHint ?? b.makerHint,
    contextWindow: a.contextWindow ?? b.contextWindow,
    maxOutputTokens: a.maxOutputTokens ?? b.maxOutputTokens,
    deprecatedOn: a.deprecatedOn ?? b.deprecatedOn,
    status: a.status ?? b.status,
    prices: [...a.prices, ...b.prices.filter((p) => !have.has(dimensionKey(p.dimension)))],
  };
}

/**
 * Parses the LiteLLM price file.
 * @throws SourcePayloadError when the file is missing, not JSON, or not an object
 */
function parse(payload: SourcePayload): Listing[] {
  const text = payload.files.get(FILE);
  if (text === undefined) throw new SourcePayloadError(`litellm: payload has no ${FILE}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SourcePayloadError(`litellm: ${FILE} is not JSON (${(error as Error).message})`);
  }
  const file = LitellmFile.safeParse(json);
  if (!file.success) {
    throw new SourcePayloadError(
      `litellm: ${FILE} must be an object keyed by model name, got ${Array.isArray(json) ? "array" : json === null ? "null" : typeof json}`,
    );
  }
  const today = payload.observedAt.slice(0, 10);
  const merged = new Map<string, Listing>();
  for (const [key, value] of Object.entries(file.data)) {
    if (key === "sample_spec" || typeof value !== "object" || value === null || Array.isArray(value)) continue;
    const entry = LitellmEntrySchema.safeParse(value);
    if (!entry.success) continue; // malformed entry: skipped, never fatal
    const listing = mapEntry(key, entry.data, today);
    if (!listing) continue;
    const id = `${listing.seller}\u0000${listing.model}`;
    const prior = merged.get(id);
    merged.set(id, prior ? mergeListings(prior, listing) : listing);
  }
  return [...merged.values()];
}

/** LiteLLM source adapter (weight 0.7, MIT). */
export const litellmSource = {
  id: "litellm",
  info: INFO,
  parse,
} satisfies SourceAdapter;
