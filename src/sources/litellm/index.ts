import type { RawAmount } from "../../domain/amount.js";
import type { Dimension } from "../../domain/dimension.js";
import { splitLitellmKey } from "../../domain/litellm-key.js";
import type { Listing, PriceObservation } from "../../domain/observation.js";
import { EMPTY_LISTING_META } from "../../domain/observation.js";
import { canonicalSeller, isMaker } from "../../domain/sellers.js";
import { type FieldRule, UnmappedTally } from "../field-map.js";
import { sourceAdapter } from "../shared/adapter.js";
import { ListingsBySeller, vendorOf } from "../shared/listings.js";
import { jsonKind, payloadJson } from "../shared/payload-json.js";
import { amountOrNull, PriceSet } from "../shared/price-set.js";
import type { ParseReport, SourceInfo, SourcePayload } from "../source.js";
import { SourcePayloadError } from "../source.js";
import { filesNamed, type LiveUpstream } from "../upstream.js";
import {
  BASE_RULES,
  ESTIMATED_IMAGE_PROVIDERS,
  IMAGE_STEP_PROVIDERS,
  MODE_RULES,
  MODES,
  SKIPPED,
  SKIPPED_PATTERN,
  SPEECH_OUTPUT,
  webSearchRule,
} from "./field-map.js";
import type { LitellmEntry } from "./schema.js";
import { LitellmEntry as LitellmEntrySchema, LitellmFile, LitellmTier } from "./schema.js";

/**
 * LiteLLM adapter (`model_prices_and_context_window.json`, BerriAI/litellm).
 *
 * Costs are USD per unit, mostly per single token (×1e6 → USD per 1M tokens). Key families,
 * brackets (`_above_<N>k_tokens`, `tiered_pricing`), service tiers (`_batches`, `_flex`,
 * `_priority`) and what is skipped are documented in README.md.
 */

const FILE = "model_prices_and_context_window.json";

/** The live payload: the file on LiteLLM's main branch. */
const UPSTREAM: LiveUpstream = {
  baseUrl: "https://raw.githubusercontent.com/BerriAI/litellm/main/",
  files: filesNamed(FILE),
};

const INFO: SourceInfo = {
  name: "LiteLLM model prices",
  license: "MIT",
  homepage: "https://github.com/BerriAI/litellm",
  weight: 0.7,
  authoritativeFor: [],
};

const BASE = new Map(BASE_RULES);
const BASE_ORDER = new Map(BASE_RULES.map(([k], i) => [k, i]));

interface ParsedKey {
  readonly rule: FieldRule;
  readonly tier: Dimension["tier"];
  readonly threshold: number;
  readonly order: number;
}

/** The rule of a price key for an entry; null when the field map does not publish it. */
function parseKey(key: string, entry: LitellmEntry): ParsedKey | null {
  const { base, tier, threshold } = splitLitellmKey(key);
  const mode = entry.mode;
  if (
    mode === "image_generation" &&
    IMAGE_STEP_PROVIDERS.has(entry.litellm_provider) &&
    BASE.get(base)?.unit === "mtok"
  )
    return null;
  if (mode === "audio_speech" && base === "output_cost_per_token")
    return "output_cost_per_audio_token" in entry
      ? null
      : { rule: SPEECH_OUTPUT, tier, threshold, order: BASE_ORDER.get(base) ?? BASE_RULES.length };
  if (
    base === "input_cost_per_image" &&
    mode !== "image_generation" &&
    ESTIMATED_IMAGE_PROVIDERS.has(entry.litellm_provider)
  )
    return null;
  const byMode = mode ? MODE_RULES[base]?.[mode] : undefined;
  const rule =
    base === "input_cost_per_image" && byMode && "output_cost_per_image" in entry
      ? BASE.get(base)
      : (byMode ?? BASE.get(base));
  if (!rule) return null;
  return { rule, tier, threshold, order: BASE_ORDER.get(base) ?? BASE_RULES.length };
}

/** True when a cost-named key is known to the field map (published or deliberately skipped). */
function knownKey(key: string, entry: LitellmEntry): boolean {
  if (key === "search_context_cost_per_query" || SKIPPED_PATTERN.test(key)) return true;
  const { base } = splitLitellmKey(key);
  return (
    BASE.has(base) || Object.hasOwn(MODE_RULES, base) || Object.hasOwn(SKIPPED, base) || parseKey(key, entry) !== null
  );
}

/** Maps all prices of one entry; `qualifiers` (size, region) are added to every dimension. */
function pricesOf(
  entry: LitellmEntry,
  qualifiers: Record<string, string>,
  unmapped: UnmappedTally,
): PriceObservation[] {
  const record = entry as Record<string, unknown>;
  const parsed: Array<ParsedKey & { raw: RawAmount }> = [];
  for (const [key, value] of Object.entries(record)) {
    if (/cost|price/i.test(key) && !knownKey(key, entry))
      unmapped.add(key.replace(/_above_\d+k_tokens/, "_above_<N>k_tokens"));
    const raw = amountOrNull(value);
    if (raw === null) continue;
    const p = parseKey(key, entry);
    if (p) parsed.push({ ...p, raw });
  }
  const thresholds = [...new Set(parsed.map((p) => p.threshold).filter((t) => t > 0))].sort((a, b) => a - b);
  const bracket = (min: number) =>
    min === 0
      ? { contextMin: 0, contextMax: null }
      : { contextMin: min, contextMax: thresholds.find((t) => t > min) ?? null };

  const set = new PriceSet();
  const put = (
    rule: FieldRule,
    tier: Dimension["tier"],
    range: { contextMin: number; contextMax: number | null },
    raw: RawAmount,
  ) => set.add(rule, raw, { ...range, tier, qualifiers });
  parsed.sort((a, b) => a.order - b.order);
  for (const p of parsed) put(p.rule, p.tier, bracket(p.threshold), p.raw);

  // web search per query by search-context size → USD per 1K calls
  for (const [size, value] of Object.entries(entry.search_context_cost_per_query ?? {})) {
    const m = /^search_context_size_([a-z]+)$/.exec(size);
    const raw = amountOrNull(value);
    if (!m || raw === null) continue;
    put(webSearchRule(m[1] as string), "standard", bracket(0), raw);
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
      const raw = amountOrNull(value);
      const p = raw === null ? null : parseKey(key, entry);
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

/**
 * Where the adapter reads one key of the file (README "Identity"): the seller, the model as the key
 * spells it after the routing prefix, and the qualifiers the key carries (image size, Azure zone);
 * null for a key it skips (a mode it does not read, a region-pinned Bedrock route). Also what the
 * `litellm` price-file export places LiteLLM's keys by (issue 29, T212).
 */
export function litellmKeyListing(
  key: string,
  entry: LitellmEntry,
): { seller: string; model: string; qualifiers: Record<string, string> } | null {
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
  return { seller, model, qualifiers };
}

/** Maps one entry to a listing, or null when it is skipped (README "What is skipped"). */
function mapEntry(key: string, entry: LitellmEntry, today: string, unmapped: UnmappedTally): Listing | null {
  const place = litellmKeyListing(key, entry);
  if (!place) return null;
  const { seller, model, qualifiers } = place;
  const provider = entry.litellm_provider;

  let prices: PriceObservation[];
  try {
    prices = pricesOf(entry, qualifiers, unmapped);
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

/**
 * Parses the LiteLLM price file.
 * @throws SourcePayloadError when the file is missing, not JSON, or not an object
 */
function parseReport(payload: SourcePayload): ParseReport {
  const json = payloadJson("litellm", payload, FILE);
  const file = LitellmFile.safeParse(json);
  if (!file.success)
    throw new SourcePayloadError(`litellm: ${FILE} must be an object keyed by model name, got ${jsonKind(json)}`);
  const today = payload.observedAt.slice(0, 10);
  const merged = new ListingsBySeller();
  const unmapped = new UnmappedTally();
  for (const [key, value] of Object.entries(file.data)) {
    if (key === "sample_spec" || typeof value !== "object" || value === null || Array.isArray(value)) continue;
    const entry = LitellmEntrySchema.safeParse(value);
    if (!entry.success) continue; // malformed entry: skipped, never fatal
    const listing = mapEntry(key, entry.data, today, unmapped);
    if (listing) merged.add(listing);
  }
  return { listings: merged.values(), unmapped: unmapped.toRecord() };
}

/** LiteLLM source adapter (weight 0.7, MIT). */
export const litellmSource = sourceAdapter("litellm", INFO, UPSTREAM, parseReport);
