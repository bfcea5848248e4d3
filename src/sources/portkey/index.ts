import type { RawAmount } from "../../domain/amount.js";
import type { Dimension } from "../../domain/dimension.js";
import type { Listing, PriceObservation } from "../../domain/observation.js";
import { EMPTY_LISTING_META } from "../../domain/observation.js";
import { canonicalSeller, isMaker } from "../../domain/sellers.js";
import { type FieldRule, UnmappedTally } from "../field-map.js";
import { sourceAdapter } from "../shared/adapter.js";
import { ListingsBySeller, vendorOf } from "../shared/listings.js";
import { jsonKind, parseJson } from "../shared/payload-json.js";
import { amountOrNull, PriceSet } from "../shared/price-set.js";
import type { ParseReport, SourceInfo, SourcePayload } from "../source.js";
import { SourcePayloadError } from "../source.js";
import {
  CONTEXT_TIER_KEY,
  FIXED_REQUEST,
  imageRule,
  RERANK,
  RERANK_SEARCH,
  SKIPPED_UNITS,
  SPEECH,
  SPEECH_OUTPUT,
  STRUCTURE_KEYS,
  TEMPLATE_BRACKETS,
  TOKEN_RULES,
  TRANSCRIPTION,
  TRANSCRIPTION_AUDIO,
  TRANSCRIPTION_AUDIO_TOKEN,
  TRANSCRIPTION_PER_TOKEN_BELOW,
  TTS_CHARS,
  TTS_PER_CHAR,
  UNIT_RULES,
  VIDEO_SIZE_KEY,
  videoSizeRule,
} from "./field-map.js";
import type { PortkeyPricingConfig, PortkeyRates } from "./schema.js";
import { PortkeyImageRates, PortkeyModelEntry, PortkeyProviderFile, PortkeyRate } from "./schema.js";
import { PORTKEY_UPSTREAM } from "./upstream.js";

/**
 * Portkey Models adapter (`configs.portkey.ai/pricing/<provider>.json`, one file per provider).
 *
 * Every amount is US cents per unit: token rates ×1e4 → USD per 1M tokens, per-unit rates
 * (image, second, minute, call) ÷100 (per 1K calls: ×10). Mapping rules and skips: README.md.
 */

const INFO: SourceInfo = {
  name: "Portkey Models",
  license: "MIT",
  homepage: "https://portkey.ai/models",
  weight: 0.6,
  authoritativeFor: [],
  skippedFields: Object.fromEntries(
    Object.entries(SKIPPED_UNITS).map(([key, entry]) => [`additional_units.${key}`, entry.skip]),
  ),
};

const TOKEN_KEYS: ReadonlySet<string> = new Set(TOKEN_RULES.map(([k]) => k));

/** The `price` of a `{price}` object when it is a finite, non-negative decimal; else null. */
function rateOf(value: unknown): RawAmount | null {
  const parsed = PortkeyRate.safeParse(value);
  return parsed.success ? amountOrNull(parsed.data.price) : null;
}

interface Context {
  readonly model: string;
  readonly tier: Dimension["tier"];
  readonly contextMin: number;
  readonly contextMax: number | null;
  /** Only token prices (unit mtok) are taken, for context brackets above the base. */
  readonly tokensOnly: boolean;
}

function addRule(set: PriceSet, ctx: Context, rule: FieldRule, raw: RawAmount): void {
  if (ctx.tokensOnly && rule.unit !== "mtok") return;
  set.add(rule, raw, {
    tier: ctx.tier,
    contextMin: rule.unit === "mtok" ? ctx.contextMin : 0,
    contextMax: rule.unit === "mtok" ? ctx.contextMax : null,
  });
}

/** Maps one `pay_as_you_go` or `batch_config` object. */
function addRates(
  set: PriceSet,
  ctx: Context,
  rates: PortkeyRates,
  legacyUnits: Record<string, unknown> | undefined,
  unmapped: UnmappedTally,
) {
  for (const key of Object.keys(rates))
    if (!STRUCTURE_KEYS.has(key) && !TOKEN_KEYS.has(key)) unmapped.add(`pay_as_you_go.${key}`);
  const transcription = TRANSCRIPTION.test(ctx.model);
  const units: Record<string, unknown> = {
    ...(legacyUnits ?? {}),
    ...(typeof rates.additional_units === "object" && rates.additional_units !== null
      ? (rates.additional_units as Record<string, unknown>)
      : {}),
  };

  // Special cases first (they decide what the generic rules must not read).
  const skip = new Set<string>();
  if (transcription) {
    // Audio is cents per minute; transcription has no audio output; whisper has no token rates.
    const audio = rateOf(rates.request_audio_token) ?? rateOf(units.request_audio_token);
    if (audio !== null) {
      // A tiny rate is per audio token (the dated and diarize entries), the others per minute (T366).
      const perToken = Number(audio) > 0 && Number(audio) < TRANSCRIPTION_PER_TOKEN_BELOW;
      addRule(set, ctx, perToken ? TRANSCRIPTION_AUDIO_TOKEN : TRANSCRIPTION_AUDIO, audio);
    }
    for (const k of ["request_audio_token", "response_audio_token"]) skip.add(k);
    if (/whisper/i.test(ctx.model)) for (const k of ["request_token", "response_token"]) skip.add(k);
  }
  if (TTS_PER_CHAR.test(ctx.model)) {
    const chars = rateOf(rates.request_token);
    if (chars !== null) addRule(set, ctx, TTS_CHARS, chars);
    skip.add("request_token");
  } else if (SPEECH.test(ctx.model)) {
    const output = rateOf(rates.response_token);
    if (output !== null && rateOf(rates.response_audio_token) === null && Number(output) > 0)
      addRule(set, ctx, SPEECH_OUTPUT, output);
    skip.add("response_token");
  }
  if (RERANK.test(ctx.model)) {
    const perSearch = rateOf(rates.request_token);
    if (perSearch !== null && Number(perSearch) >= 0.01) {
      addRule(set, ctx, RERANK_SEARCH, perSearch);
      skip.add("request_token");
      skip.add("response_token");
    }
  }

  // Unit keys that name a modality-specific token rate go before generic token keys.
  for (const key of ["embedding_text_token", "embedding_image_token"]) {
    const raw = rateOf(units[key]);
    const rule = UNIT_RULES[key];
    if (raw !== null && rule) addRule(set, ctx, rule, raw);
  }
  for (const [key, rule] of TOKEN_RULES) {
    if (skip.has(key)) continue;
    const raw = rateOf(rates[key]);
    if (raw !== null) addRule(set, ctx, rule, raw);
  }
  for (const [key, value] of Object.entries(units)) {
    const rule = UNIT_RULES[key];
    const video = VIDEO_SIZE_KEY.exec(key);
    if (!rule && !video && !Object.hasOwn(SKIPPED_UNITS, key)) unmapped.add(`additional_units.${key}`);
    if (skip.has(key)) continue;
    const raw = rateOf(value);
    if (raw === null) continue;
    if (rule) addRule(set, ctx, rule, raw);
    else if (video) addRule(set, ctx, videoSizeRule(video[1]!, video[2]!), raw);
  }

  // Images: {quality: {size: {price}}}; a `default` level is a fallback alias and is only kept
  // (as "no qualifier") when it is the only key at its level.
  const images = PortkeyImageRates.safeParse(rates.image);
  if (images.success) {
    const qualities = Object.keys(images.data);
    for (const quality of qualities) {
      if (quality === "default" && qualities.length > 1) continue;
      const sizes = images.data[quality] ?? {};
      const sizeKeys = Object.keys(sizes);
      for (const size of sizeKeys) {
        if (size === "default" && sizeKeys.length > 1) continue;
        const raw = rateOf(sizes[size]);
        if (raw === null) continue;
        const qualifiers: Record<string, string> = {};
        if (quality !== "default") qualifiers.quality = quality.toLowerCase();
        if (size !== "default") qualifiers.size = size.toLowerCase();
        addRule(set, ctx, imageRule(qualifiers), raw);
      }
    }
  }
}

/** Maps the whole `pricing_config` (standard and batch) of one key into `set`. */
function addConfig(
  set: PriceSet,
  model: string,
  config: PortkeyPricingConfig,
  bracket: Bracket | null,
  unmapped: UnmappedTally,
): void {
  const base = {
    model,
    contextMin: bracket?.min ?? 0,
    contextMax: bracket?.max ?? null,
    tokensOnly: bracket !== null && bracket.min > 0,
  };
  if (config.pay_as_you_go)
    addRates(set, { ...base, tier: "standard" }, config.pay_as_you_go, config.additional_units, unmapped);
  if (config.batch_config) addRates(set, { ...base, tier: "batch" }, config.batch_config, undefined, unmapped);
  if (!base.tokensOnly && config.fixed_cost !== undefined) {
    const fixed = typeof config.fixed_cost === "object" && config.fixed_cost !== null ? config.fixed_cost : {};
    const raw = rateOf((fixed as Record<string, unknown>).request);
    if (raw !== null) set.add(FIXED_REQUEST, raw);
  }
}

interface Bracket {
  readonly min: number;
  readonly max: number | null;
}

/** Model entries of one provider file, grouped by listing id (context-tier keys merged). */
interface Group {
  plain: PortkeyPricingConfig | null;
  lte: Map<number, PortkeyPricingConfig>;
  gt: Map<number, PortkeyPricingConfig>;
}

function parseFile(name: string, text: string): PortkeyProviderFile {
  const json = parseJson("portkey", name, text);
  const parsed = PortkeyProviderFile.safeParse(json);
  if (!parsed.success)
    throw new SourcePayloadError(`portkey: ${name} must be an object keyed by model id, got ${jsonKind(json)}`);
  return parsed.data;
}

/** True when a `-gt-<N>k` key of `provider`'s file is a template bracket, not one stated for `model` (T72). */
function templateBracket(provider: string, model: string, threshold: number): boolean {
  return TEMPLATE_BRACKETS.some(
    (t) => t.files.includes(provider) && t.threshold === threshold && !t.realFor.test(model),
  );
}

function mapFile(provider: string, file: PortkeyProviderFile, unmapped: UnmappedTally): Listing[] {
  const seller = canonicalSeller(provider);
  const defaultEntry = PortkeyModelEntry.safeParse(file.default);
  const defaultCurrency =
    (defaultEntry.success ? defaultEntry.data.pricing_config?.currency : undefined)?.toUpperCase() ?? "USD";

  const groups = new Map<string, Group>();
  const currencies = new Map<string, string>();
  for (const [key, value] of Object.entries(file)) {
    if (key === "default") continue;
    const entry = PortkeyModelEntry.safeParse(value);
    if (!entry.success || entry.data.pricing_config === null) continue; // malformed or placeholder entry
    const config = entry.data.pricing_config;
    const tier = CONTEXT_TIER_KEY.exec(key);
    const id = tier ? (tier[1] as string) : key;
    const group = groups.get(id) ?? { plain: null, lte: new Map(), gt: new Map() };
    groups.set(id, group);
    if (!tier) group.plain = config;
    else (tier[2] === "lte" ? group.lte : group.gt).set(Number(tier[3]) * 1000, config);
    if (config.currency && !currencies.has(id)) currencies.set(id, config.currency.toUpperCase());
  }

  const listings: Listing[] = [];
  for (const [model, group] of groups) {
    const set = new PriceSet(currencies.get(model) ?? defaultCurrency);
    try {
      const lteSorted = [...group.lte.entries()].sort(([a], [b]) => a - b);
      const first = lteSorted[0];
      if (first) addConfig(set, model, first[1], null, unmapped);
      if (group.plain) addConfig(set, model, group.plain, null, unmapped);
      const gtSorted = [...group.gt.entries()]
        .filter(([min]) => !templateBracket(provider, model, min))
        .sort(([a], [b]) => a - b);
      gtSorted.forEach(([min, config], i) => {
        addConfig(set, model, config, { min, max: gtSorted[i + 1]?.[0] ?? null }, unmapped);
      });
    } catch {
      continue; // an amount that is not a decimal: skip this entry only
    }
    const prices = dropPlaceholderZeros(model, set.values());
    if (prices.length === 0) continue;
    listings.push({
      ...EMPTY_LISTING_META,
      seller,
      model,
      makerHint: isMaker(seller) ? seller : vendorOf(model),
      prices,
    });
  }
  return listings;
}

/**
 * Placeholder rule: an entry whose every price is 0 is "not priced here" (Portkey fills new models
 * with `{request_token: 0, response_token: 0}`), unless the id is an explicit free variant
 * (`…:free`). On an entry billed in other units (image, second), all-zero token rates are dropped.
 */
function dropPlaceholderZeros(model: string, prices: PriceObservation[]): PriceObservation[] {
  if (prices.every((p) => p.amount === 0)) return model.endsWith(":free") ? prices : [];
  const tokenPrices = prices.filter((p) => p.unit === "mtok");
  if (tokenPrices.length > 0 && tokenPrices.every((p) => p.amount === 0)) {
    return prices.filter((p) => p.unit !== "mtok");
  }
  return prices;
}

/**
 * Parses a Portkey payload: every `<provider>.json` file of the snapshot.
 * @throws SourcePayloadError when there is no `.json` file, a file is not JSON, or not an object
 */
function parseReport(payload: SourcePayload): ParseReport {
  const names = [...payload.files.keys()].filter((n) => n.endsWith(".json")).sort();
  if (names.length === 0) {
    throw new SourcePayloadError("portkey: payload has no <provider>.json file");
  }
  // Two files can name one seller (`azure-openai`, `azure-ai` → azure): merge their listings,
  // the first file (by name) wins per dimension, the others add what it lacks.
  const merged = new ListingsBySeller();
  const unmapped = new UnmappedTally();
  for (const name of names) {
    const file = parseFile(name, payload.files.get(name) as string);
    for (const listing of mapFile(name.slice(0, -".json".length), file, unmapped)) merged.add(listing);
  }
  return { listings: merged.values(), unmapped: unmapped.toRecord() };
}

/** Portkey source adapter (weight 0.6, MIT). */
export const portkeySource = sourceAdapter("portkey", INFO, PORTKEY_UPSTREAM, parseReport);
