import Big from "big.js";
import { type CacheMultipliers, cacheMultipliers } from "../domain/cache-multipliers.js";
import { CALLS_PER_UNIT, webSearchPrice } from "../domain/cost.js";
import type { PublishedModel, PublishedPrice } from "../domain/dataset.js";
import { TIERS, type Tier } from "../domain/dimension.js";
import { canonicalSeller, MAKERS } from "../domain/sellers.js";
import { tierNotSold } from "../domain/tier-offers.js";
import { GENAI_PRICES_PACKAGE_PROVIDERS } from "./genai-prices-package.js";
import { jsonObject } from "./json-object.js";
import { VARIANT_WORDS } from "./key-meaning.js";
import { type ExportIndex, exportIndex, type Offer, offerKey, type TokenSheet, tokenSheet } from "./offers.js";
import { type ExportInput, modelUrl, type RecordedFile } from "./types.js";

/**
 * The `genai-prices` export (issue 29 §1, T215): genai-prices' v2 `data.json`, which pydantic-ai and
 * Logfire load with `UpdatePrices(url=…)` and the JS package with `updatePrices`. One provider per
 * seller — genai-prices' own providers first, with their API patterns and matches as recorded and
 * the package's own usage extractors (T518) — each listing the seller's models with Tariff's
 * reconciled prices (USD per 1M tokens), match rules made of every spelling Tariff knows for the
 * model, context brackets as `TieredPrices`, off-peak windows as time-of-day constraints, web
 * searches at the price `/cost` bills (T519), cache prices by the maker's rule where `/cost` uses
 * it (T346, T483, T520), and the batch, flex and priority tiers as `<id>:batch` models (genai-prices
 * has no tier field), none the maker does not sell (T481, T521). Valid against
 * `data/schemas/genai-prices-v2.data.schema.json`.
 */

type Json = Record<string, unknown>;
type Match = { equals: string } | { or: { equals: string }[] };

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The Provider fields of the v2 schema a recorded (v1 or v2) provider may carry over. */
const PROVIDER_FIELDS = [
  "id",
  "name",
  "pricing_urls",
  "api_pattern",
  "description",
  "price_comments",
  "model_match",
  "provider_match",
  "extractors",
  "fallback_model_providers",
] as const;

/** A recorded provider's seller and the qualifiers its prices carry (the adapter's reading, src/sources/genai-prices). */
function sellerOf(providerId: string): { seller: string; qualifiers: Record<string, string> } {
  const hf = /^huggingface_(.+)$/i.exec(providerId);
  if (hf?.[1]) return { seller: "huggingface", qualifiers: { backend: hf[1].toLowerCase() } };
  return { seller: canonicalSeller(providerId), qualifiers: {} };
}

/** A price in USD per 1M tokens, or TieredPrices over the sheet's prompt-length brackets. */
function tiered(sheet: TokenSheet, tier: Tier, get: (t: Tier, min: number) => number | undefined): unknown {
  const base = get(tier, 0);
  if (base === undefined) return undefined;
  const tiers = sheet
    .thresholds(tier)
    .map((start) => ({ start, price: get(tier, start) }))
    .filter((t): t is { start: number; price: number } => t.price !== undefined);
  return tiers.length > 0 ? { base, tiers } : base;
}

/** The media genai-prices prices apart from text, each with its own token keys (T352). */
const MEDIA = ["audio", "image", "video"] as const;

/** Per-call prices of an offer, USD per 1,000 calls (genai-prices' `_kcount` keys). */
interface PerCall {
  /** `requests_kcount`: a price per request (standard tier only, as before). */
  readonly requests?: number;
  /** `web_searches_kcount`: the web-search price `/cost` bills on the offer (T304, T519), every tier. */
  readonly webSearches?: number;
}

/**
 * The ModelPrice of one tier of a sheet, or null without input and output prices: text tokens,
 * then each medium's own input and output prices where Tariff has them (T352: an audio or image
 * price is never left to the text price). The key set is closed under genai-prices' ancestor and
 * join rules, so its calculator never lacks a price it derives: beside a medium's input price go its
 * cache read and write prices wherever a text one is written, beside its output price its reasoning
 * price if a text one is — Tariff's own, else the text price (what those tokens cost without the
 * medium's key).
 */
function modelPrice(
  sheet: TokenSheet,
  tier: Tier,
  perCall: PerCall,
  caching: CacheMultipliers | null = null,
): Json | null {
  const at = (
    direction: "input" | "output" | "reasoning",
    cache: "none" | "read" | "write" | "write_1h",
    modality: (typeof MEDIA)[number] | "text" = "text",
  ) => tiered(sheet, tier, (t, min) => sheet.get(t, min, direction, cache, modality)?.amount);
  const input = at("input", "none");
  const output = at("output", "none");
  if (input === undefined || output === undefined) return null;
  const prices: Json = { input_mtok: input, output_mtok: output };
  // Issue 49 §3 (T486, T520): a text cache price as /cost bills it, bracket by bracket and in every
  // tier: the listed price, else — or instead, for a rule that is the maker's price (T483) — the
  // maker's factor of the input price of the same tier and bracket (T346). Without it genai-prices
  // bills a batch model's cache tokens at the batch input price and a long prompt's 1-hour write at
  // the base bracket's price.
  const cachePrice = (cache: "read" | "write" | "write_1h") =>
    tiered(sheet, tier, (t, min) => {
      const listed = sheet.get(t, min, "input", cache)?.amount;
      const factor = caching?.factors[cache];
      const base = sheet.get(t, min, "input", "none")?.amount;
      if (factor === undefined || base === undefined || (listed !== undefined && !caching?.overrides)) return listed;
      return times(base, factor);
    });
  const read = cachePrice("read");
  const write = cachePrice("write");
  const write1h = cachePrice("write_1h");
  const reasoning = at("reasoning", "none");
  if (read !== undefined) prices.cache_read_mtok = read;
  if (write !== undefined) prices.cache_write_mtok = write;
  // genai-prices needs the parent key beside a 1-hour write price.
  if (write1h !== undefined && write !== undefined) prices.cache_write_1h_mtok = write1h;
  if (reasoning !== undefined) prices.output_reasoning_mtok = reasoning;
  for (const medium of MEDIA) {
    // A join's own price where Tariff has one, else the text price those tokens are charged without
    // the medium's key (genai-prices' own reading, unchanged for them).
    const mediumInput = at("input", "none", medium);
    if (mediumInput !== undefined) {
      prices[`input_${medium}_mtok`] = mediumInput;
      if (read !== undefined) prices[`cache_${medium}_read_mtok`] = at("input", "read", medium) ?? read;
      if (prices.cache_write_mtok !== undefined)
        prices[`cache_${medium}_write_mtok`] = at("input", "write", medium) ?? write;
      if (prices.cache_write_1h_mtok !== undefined)
        prices[`cache_${medium}_write_1h_mtok`] = at("input", "write_1h", medium) ?? write1h;
    }
    const mediumOutput = at("output", "none", medium);
    if (mediumOutput !== undefined) {
      prices[`output_${medium}_mtok`] = mediumOutput;
      if (reasoning !== undefined)
        prices[`output_${medium}_reasoning_mtok`] = at("reasoning", "none", medium) ?? reasoning;
    }
  }
  if (perCall.requests !== undefined && tier === "standard") prices.requests_kcount = perCall.requests;
  if (perCall.webSearches !== undefined) prices.web_searches_kcount = perCall.webSearches;
  return prices;
}

/** An amount × an exact decimal factor, to 10 significant digits (D7). */
function times(amount: number, factor: string | number): number {
  return Number(new Big(String(amount)).times(factor).toPrecision(10));
}

/**
 * The web-search price `/cost` bills on an offer (`webSearchPrice`, T304) in USD per 1,000 searches
 * (genai-prices' `web_searches_kcount`, which its Anthropic extractor fills from
 * `server_tool_use.web_search_requests`), or undefined when the offer has none (T519).
 */
function webSearchesPerK(prices: readonly PublishedPrice[]): number | undefined {
  const search = webSearchPrice(prices.filter((p) => p.currency === "USD" && p.denomination === "currency"));
  const calls = search ? CALLS_PER_UNIT[search.unit] : undefined;
  return search && calls ? times(search.amount, new Big(1000).div(calls).toString()) : undefined;
}

/** `1630-0030-utc-off-peak` → genai-prices' daily window `{start_time: "16:30:00Z", end_time: "00:30:00Z"}`. */
function timeWindow(slug: string): { start_time: string; end_time: string } | null {
  const m = /^(\d{2})(\d{2})-(\d{2})(\d{2})-utc\b/.exec(slug);
  return m ? { start_time: `${m[1]}:${m[2]}:00Z`, end_time: `${m[3]}:${m[4]}:00Z` } : null;
}

/** Serving precisions a host prices apart (Novita's `…-bf16` above its default), T353. */
const PRECISION_WORDS: ReadonlySet<string> = new Set(["bf16", "fp8", "fp16", "fp32", "int4", "int8"]);

/**
 * True unless the spelling names a variant the model's id lacks (T311's variant words, and a serving
 * precision, T353): such a spelling is another product at another price, so it neither matches the
 * model nor lends it its id (`meta-llama/llama-3.1-8b-instruct-bf16` is not Novita's 0.02 default).
 */
function namesModel(spelling: string, model: PublishedModel): boolean {
  const words = (text: string) => text.toLowerCase().split(/[^a-z0-9]+/);
  const own = new Set(words(model.id));
  return !words(spelling).some((w) => (VARIANT_WORDS.has(w) || PRECISION_WORDS.has(w)) && !own.has(w));
}

/** The spellings a model answers to at a seller: its slug and id, the sources' spellings there, its aliases (T353: none naming a variant). */
function spellingsOf(index: ExportIndex, model: PublishedModel, seller: string): string[] {
  const own = index.spellings.get(offerKey(model.id, seller)) ?? [];
  const seen = new Set<string>();
  return [model.slug, model.id, ...own, ...model.aliases].filter((s) => {
    const key = s.toLowerCase();
    if (seen.has(key) || !/^\S+$/.test(s) || (index.spelledAs.get(key) ?? model.id) !== model.id) return false;
    if (!namesModel(s, model)) return false;
    seen.add(key);
    return true;
  });
}

/** The genai-prices spelling of an offer (its listing there that names the model, T353), else the slug. */
function primaryId(offer: Offer, model: PublishedModel): string {
  for (const p of offer.prices)
    for (const o of p.observations)
      if (o.source === "genai-prices" && o.listing && /^\S{1,100}$/.test(o.listing) && namesModel(o.listing, model))
        return o.listing;
  return model.slug.length <= 100 ? model.slug : model.slug.slice(0, 100);
}

const match = (spellings: readonly string[]): Match =>
  spellings.length === 1 ? { equals: spellings[0]! } : { or: spellings.map((equals) => ({ equals })) };

/** The models of one provider: every offer of its seller with a USD token price. */
function providerModels(
  input: ExportInput,
  index: ExportIndex,
  seller: string,
  qualifiers: Record<string, string>,
): Json[] {
  const offers = index.offersBySeller.get(seller) ?? [];
  const claimed = new Set<string>();
  const models: Json[] = [];
  for (const offer of offers) {
    const model = index.models.get(offer.modelId);
    if (!model?.listed) continue;
    const sheet = tokenSheet(offer.prices, qualifiers);
    const requests = offer.prices.find(
      (p) =>
        p.direction === "request" &&
        p.unit === "krequests" &&
        p.currency === "USD" &&
        p.denomination === "currency" &&
        Object.entries(p.qualifiers).every(([k, v]) => k === "seller" || qualifiers[k] === v) &&
        Object.keys(qualifiers).every((k) => p.qualifiers[k] === qualifiers[k]),
    )?.amount;
    const perCall: PerCall = { requests, webSearches: webSearchesPerK(offer.prices) };
    const base = modelPrice(sheet, "standard", perCall, cacheMultipliers(model, seller));
    if (!base) continue; // no money price (a plan's included usage is never written as $0)
    const spellings = spellingsOf(index, model, seller).filter((s) => !claimed.has(s.toLowerCase()));
    if (spellings.length === 0) continue;
    for (const s of spellings) claimed.add(s.toLowerCase());
    const id = primaryId(offer, model);
    const windows = new Set(offer.prices.map((p) => p.qualifiers.time_window).filter((w): w is string => Boolean(w)));
    const conditional: Json[] = [];
    for (const w of [...windows].sort()) {
      const window = timeWindow(w);
      const prices = window
        ? modelPrice(
            tokenSheet(offer.prices, { ...qualifiers, time_window: w }),
            "standard",
            perCall,
            cacheMultipliers(model, seller),
          )
        : null;
      if (window && prices) conditional.push({ constraint: window, prices });
    }
    const common: Json = {
      name: model.name.slice(0, 100),
      description: `Tariff ${modelUrl(input, model.id)} (dataset ${input.version})`.slice(0, 1000),
      ...(model.contextWindow !== null ? { context_window: model.contextWindow } : {}),
      ...(model.lifecycle.state === "deprecated" || model.lifecycle.state === "retired" ? { deprecated: true } : {}),
    };
    models.push({
      id,
      ...common,
      match: match(spellings),
      prices: conditional.length > 0 ? [{ prices: base }, ...conditional] : base,
    });
    // Every tier but the default, from the axis description (T236, T276), but a tier the maker sells
    // for other models only (T481): /cost refuses it, so the file does not price it either (T521).
    for (const tier of TIERS.slice(1)) {
      if (tierNotSold(model, seller, tier)) continue;
      const prices = modelPrice(sheet, tier, perCall, cacheMultipliers(model, seller));
      if (!prices) continue;
      models.push({
        id: `${id}:${tier}`.slice(0, 100),
        ...common,
        name: `${model.name} (${tier})`.slice(0, 100),
        match: match(spellings.map((s) => `${s}:${tier}`)),
        prices,
      });
    }
  }
  return models;
}

/**
 * Builds genai-prices' v2 `data.json` for a dataset version: the recorded providers (newest payload
 * of the version's date) with Tariff's models, then one provider per other seller Tariff prices.
 */
export function buildGenaiPricesExport(input: ExportInput, recorded: RecordedFile<readonly unknown[]> | null): Json[] {
  const index = exportIndex(input);
  const providers: Json[] = [];
  const sellers = new Set<string>();
  const ids = new Set<string>();
  for (const raw of recorded?.data ?? []) {
    if (!isObject(raw) || typeof raw.id !== "string" || !/^\S{1,100}$/.test(raw.id)) continue;
    const provider: Json = jsonObject();
    for (const k of PROVIDER_FIELDS) if (raw[k] !== undefined) provider[k] = raw[k];
    if (provider.pricing_urls === undefined && typeof raw.pricing_url === "string")
      provider.pricing_urls = [raw.pricing_url];
    // Issue 49 §3 (T518): the package's own usage extractors, not the recorded payload's (the v1 feed
    // kept an older Anthropic mapping without 1-hour cache writes and web searches), so a consumer's
    // `extractUsage` reads a response as the package does; Tariff adds only the prices.
    const own = GENAI_PRICES_PACKAGE_PROVIDERS[raw.id];
    if (own?.extractors) provider.extractors = own.extractors;
    else if (own) delete provider.extractors;
    if (typeof provider.api_pattern !== "string") provider.api_pattern = own?.api_pattern ?? "(?!)";
    if (typeof provider.name !== "string") provider.name = raw.id;
    const { seller, qualifiers } = sellerOf(raw.id);
    sellers.add(seller);
    ids.add(raw.id);
    providers.push({ ...provider, models: providerModels(input, index, seller, qualifiers) });
  }
  const names = new Map(input.providers.map((p) => [p.slug, p]));
  const others = [...index.offersBySeller.keys()].filter((s) => !sellers.has(s)).sort();
  for (const seller of others) {
    if (ids.has(seller) || !/^\S{1,100}$/.test(seller)) continue;
    const models = providerModels(input, index, seller, {});
    if (models.length === 0) continue;
    const maker = names.get(seller) ?? null;
    const pricing = maker?.pricingUrl ?? MAKERS[seller]?.pricingUrl ?? null;
    // A seller the recorded payload lacks but the package knows by the same id keeps the package's
    // API pattern and extractors (T518); else no API address is known: the pattern matches none
    // (pick it by providerId).
    const own = GENAI_PRICES_PACKAGE_PROVIDERS[seller];
    providers.push({
      id: seller,
      name: (maker?.name ?? MAKERS[seller]?.name ?? seller).slice(0, 100),
      ...(pricing ? { pricing_urls: [pricing] } : {}),
      api_pattern: own?.api_pattern ?? "(?!)",
      ...(own?.extractors ? { extractors: own.extractors } : {}),
      models,
    });
  }
  return providers;
}
