import Big from "big.js";
import litellmSchema from "../../data/schemas/litellm-model-prices.schema.json" with { type: "json" };
import { GLOBAL } from "../domain/cost.js";
import type { PublishedModel, PublishedPrice } from "../domain/dataset.js";
import { type CacheKind, type Direction, type Modality, TIERS } from "../domain/dimension.js";
import { litellmKey, splitLitellmKey } from "../domain/litellm-key.js";
import { statedBySeller } from "../domain/offer-trust.js";
import { regionalUplift } from "../domain/regional-uplift.js";
import { jsonObject } from "./json-object.js";
import { FINE_TUNE_QUALIFIERS, isFineTuneKey, meaningMismatch, reviewedLitellmMeaning } from "./key-meaning.js";
import {
  type ExportIndex,
  exportIndex,
  type Offer,
  offerKey,
  type Placement,
  perToken,
  placementKey,
  type TokenSheet,
  tokenSheet,
} from "./offers.js";
import { type ExportInput, type LiteLLMKey, modelUrl, type RecordedFile } from "./types.js";

/**
 * The `litellm` export (issue 29 §1, T212–T213): LiteLLM's `model_prices_and_context_window.json`,
 * read by LiteLLM from `LITELLM_MODEL_COST_MAP_URL`. Every key of the recorded LiteLLM file is kept:
 * a key Tariff places on one of its offers carries Tariff's reconciled token prices (USD per token),
 * the others pass through as LiteLLM has them, marked not reconciled. Offers LiteLLM has no key for
 * are added under the key LiteLLM would give them. Every entry validates against LiteLLM's published
 * schema (`data/schemas/litellm-model-prices.schema.json`).
 */

/** One entry of the file: LiteLLM's fields (costs in USD per unit, mostly per token). */
export type LiteLLMEntry = Record<string, unknown>;

/** The entry fields LiteLLM's schema allows (its `additionalProperties: false` list). */
export const LITELLM_FIELDS: ReadonlySet<string> = new Set(
  Object.keys(
    (litellmSchema as { additionalProperties: { properties: Record<string, unknown> } }).additionalProperties
      .properties,
  ),
);

/** Keys of the LiteLLM file that are not model entries (LiteLLM's own, and the mirror's `last_updated`). */
const NOT_MODELS = new Set(["sample_spec", "fallback_generalizations", "last_updated"]);

/** A token dimension and the LiteLLM field family that states it (per token, USD). */
interface TokenField {
  readonly direction: Direction;
  readonly cache: CacheKind;
  readonly modality: Modality;
  readonly base: string;
}

/** LiteLLM's per-token field families (the adapter's field map read backwards, src/sources/litellm/README.md). */
const TOKEN_FIELDS: readonly TokenField[] = [
  { direction: "input", cache: "none", modality: "text", base: "input_cost_per_token" },
  { direction: "output", cache: "none", modality: "text", base: "output_cost_per_token" },
  { direction: "reasoning", cache: "none", modality: "text", base: "output_cost_per_reasoning_token" },
  { direction: "input", cache: "read", modality: "text", base: "cache_read_input_token_cost" },
  { direction: "input", cache: "write", modality: "text", base: "cache_creation_input_token_cost" },
  { direction: "input", cache: "write_1h", modality: "text", base: "cache_creation_input_token_cost_above_1hr" },
  { direction: "input", cache: "none", modality: "audio", base: "input_cost_per_audio_token" },
  { direction: "output", cache: "none", modality: "audio", base: "output_cost_per_audio_token" },
  { direction: "input", cache: "read", modality: "audio", base: "cache_read_input_audio_token_cost" },
  { direction: "input", cache: "write", modality: "audio", base: "cache_creation_input_audio_token_cost" },
  { direction: "input", cache: "none", modality: "image", base: "input_cost_per_image_token" },
  { direction: "output", cache: "none", modality: "image", base: "output_cost_per_image_token" },
  { direction: "input", cache: "read", modality: "image", base: "cache_read_input_image_token_cost" },
  { direction: "input", cache: "none", modality: "video", base: "input_cost_per_video_token" },
  { direction: "output", cache: "none", modality: "video", base: "output_cost_per_video_token" },
];

/** LiteLLM's older spelling of the cache-read field (the adapter reads it as cache read). */
const CACHE_HIT_ALIAS = "input_cost_per_token_cache_hit";

/** A key of LiteLLM's grammar (`splitLitellmKey`, T398) → its family `base|tier`, or null. */
function familyOf(key: string): string | null {
  const parts = splitLitellmKey(key);
  const base = parts.base === CACHE_HIT_ALIAS ? "cache_read_input_token_cost" : parts.base;
  return TOKEN_FIELDS.some((f) => f.base === base) ? `${base}|${parts.tier}` : null;
}

/**
 * The token fields of a sheet, LiteLLM-named (only names LiteLLM's schema allows), the families they
 * state and the price behind each field.
 */
function tokenFields(sheet: TokenSheet): {
  fields: LiteLLMEntry;
  families: Set<string>;
  prices: Map<string, PublishedPrice>;
} {
  const fields: LiteLLMEntry = jsonObject();
  const families = new Set<string>();
  const prices = new Map<string, PublishedPrice>();
  // Every tier of the axis description (T236, T276): a new tier needs only its suffix (LITELLM_TIER_SUFFIX, T398).
  for (const tier of TIERS)
    for (const min of [0, ...sheet.thresholds(tier)]) {
      // LiteLLM spells a bracket `_above_<N>k_tokens` (N × 1000 tokens); other thresholds have no field.
      if (min % 1000 !== 0) continue;
      for (const f of TOKEN_FIELDS) {
        const price = sheet.get(tier, min, f.direction, f.cache, f.modality);
        if (!price) continue;
        const name = litellmKey(f.base, tier, min);
        if (name === null || !LITELLM_FIELDS.has(name)) continue;
        fields[name] = perToken(price.amount);
        families.add(`${f.base}|${tier}`);
        prices.set(name, price.price);
      }
    }
  return { fields, families, prices };
}

/** 5× or more apart, or one of them 0 and the other not (issue 49's "moves ≥ 5×"; 1.2e-6 → 6e-6 is 5×). */
export function movesFiveFold(a: number, b: number): boolean {
  if (a === 0 || b === 0) return a !== b;
  return Math.max(a / b, b / a) >= 5 * (1 - 1e-9);
}

/**
 * The sources a price rests on when none of them is the maker's own page (`official-<maker>`) or
 * the seller's own list (its own source, or a statement its observations mark authoritative): its
 * agreeing source ids, primary first; null when the maker's or the seller's own word is among them
 * (T526, T542). Judged from the price's agreeing `sources`, which every version keeps (a past
 * version's prices have no observations, T146).
 */
export function unbackedSources(price: PublishedPrice, maker: string): readonly string[] | null {
  const sources: readonly string[] = price.sources;
  if (sources.length === 0) return null;
  if (sources.includes(`official-${maker}`) || statedBySeller(price.seller, sources)) return null;
  if (price.observations.some((o) => o.authoritative === true && sources.includes(o.source))) return null;
  return sources;
}

/** The response header that counts the keys with a field kept at LiteLLM's value on one source's word (T526). */
export const KEPT_ONE_SOURCE_HEADER = "x-tariff-kept-one-source";
/** The response header that counts the keys with a field kept at LiteLLM's value on aggregators' word only (T542). */
export const KEPT_AGGREGATORS_HEADER = "x-tariff-kept-aggregators-only";

/**
 * How many entries of a built file keep a field at LiteLLM's value: under T526 (one source,
 * `metadata.tariff.keptOneSource`) or under T542 (`keptAggregatorsOnly`).
 */
export function keptCount(file: Readonly<Record<string, LiteLLMEntry>>, kind: "one source" | "aggregators"): number {
  let count = 0;
  for (const built of Object.values(file)) {
    const tariff = (built.metadata as { tariff?: TariffNote } | undefined)?.tariff;
    if (kind === "one source" ? tariff?.keptOneSource : tariff?.keptAggregatorsOnly) count++;
  }
  return count;
}

/** A price field the export leaves at LiteLLM's value (T526): Tariff's amount (USD per token) and the one source stating it. */
export interface KeptField {
  readonly field: string;
  readonly tariff: number;
  readonly source: string;
}

/** A price field left at LiteLLM's value (T542): Tariff's amount (USD per token) and the aggregators agreeing on it. */
export interface KeptAggregatorsField {
  readonly field: string;
  readonly tariff: number;
  readonly sources: readonly string[];
}

/** The fields {@link keepUnbackedMoves} left at LiteLLM's value, by how many sources Tariff's amount had. */
interface KeptMoves {
  readonly oneSource: KeptField[];
  readonly aggregators: KeptAggregatorsField[];
}

/**
 * T526, T542: a field whose amount would move 5× or more from the one LiteLLM's own file states (or
 * from or to 0) without the maker's page or the seller's own list among its sources — one source's
 * word, or aggregators agreeing — keeps LiteLLM's value. Then the entry stays one statement (T542):
 * every other field whose amount rests only on sources a kept field rests on, none of them the
 * maker's or the seller's, keeps LiteLLM's value too, whatever its move (else Titan Text Express
 * would read LiteLLM's input beside the aggregators' output). Returns the kept fields, with the
 * amount and the sources the export did not follow; `fields` is changed in place.
 */
function keepUnbackedMoves(
  fields: LiteLLMEntry,
  prices: ReadonlyMap<string, PublishedPrice>,
  raw: LiteLLMEntry,
  maker: string,
): KeptMoves {
  const kept: KeptMoves = { oneSource: [], aggregators: [] };
  const ownOf = (field: string) =>
    raw[field] ?? (field === "cache_read_input_token_cost" ? raw[CACHE_HIT_ALIAS] : undefined);
  const keep = (field: string, amount: number, own: number, sources: readonly string[]) => {
    fields[field] = own;
    if (sources.length === 1) kept.oneSource.push({ field, tariff: amount, source: sources[0]! });
    else kept.aggregators.push({ field, tariff: amount, sources: [...sources] });
  };
  // Each field Tariff writes whose amount neither the maker's page nor the seller's list backs, with LiteLLM's own.
  const unbacked: { field: string; amount: number; own: number; sources: readonly string[] }[] = [];
  for (const [field, amount] of Object.entries(fields)) {
    const price = prices.get(field);
    const sources = price ? unbackedSources(price, maker) : null;
    const own = ownOf(field);
    if (sources !== null && typeof amount === "number" && typeof own === "number" && own !== amount)
      unbacked.push({ field, amount, own, sources });
  }
  const followed = new Set<string>();
  for (const u of unbacked)
    if (movesFiveFold(u.own, u.amount)) {
      keep(u.field, u.amount, u.own, u.sources);
      for (const s of u.sources) followed.add(s);
    }
  for (const u of unbacked)
    if (!movesFiveFold(u.own, u.amount) && u.sources.every((s) => followed.has(s)))
      keep(u.field, u.amount, u.own, u.sources);
  return kept;
}

/** How the export placed a key or made an entry (the `metadata.tariff` of every entry, T212). */
interface TariffNote {
  readonly datasetVersion: string;
  readonly reconciled: boolean;
  readonly model?: string;
  readonly channel?: string;
  readonly seller?: string;
  readonly includedInPlan?: true;
  /** Price fields kept as LiteLLM has them (Tariff states no price of their kind for this offer). */
  readonly litellmFields?: readonly string[];
  /**
   * Price fields kept at LiteLLM's value because Tariff's amount, 5× or more away, rests on one source
   * alone that is neither the maker's page nor the seller's own list (T526): that amount and source.
   */
  readonly keptOneSource?: readonly KeptField[];
  /**
   * Price fields kept at LiteLLM's value because Tariff's amount, 5× or more away, rests on two or
   * more aggregators agreeing, none of them the maker's page or the seller's own list (T542).
   */
  readonly keptAggregatorsOnly?: readonly KeptAggregatorsField[];
  /** Why a key passes through unreconciled. */
  readonly reason?: string;
}

/**
 * Moves the fields LiteLLM's current schema does not list (older ones LiteLLM has since dropped)
 * into `metadata.litellm_unlisted`, so the entry validates and nothing is lost (T213); sets the
 * Tariff note.
 */
function finish(entry: LiteLLMEntry, note: TariffNote): LiteLLMEntry {
  // Keyed by LiteLLM's field names as the file has them: `__proto__` is a field like any other (T315).
  const out: LiteLLMEntry = jsonObject();
  const unlisted: Record<string, unknown> = jsonObject();
  for (const [k, v] of Object.entries(entry)) {
    if (k === "metadata") continue;
    if (LITELLM_FIELDS.has(k)) out[k] = v;
    else unlisted[k] = v;
  }
  const own = entry.metadata;
  const metadata: Record<string, unknown> =
    typeof own === "object" && own !== null && !Array.isArray(own) ? { ...own } : {};
  if (Object.keys(unlisted).length > 0) metadata.litellm_unlisted = unlisted;
  metadata.tariff = note;
  out.metadata = metadata;
  return out;
}

/** The limits LiteLLM reads: the maker's own for a direct offer, else the seller's as LiteLLM has them. */
function limits(entry: LiteLLMEntry, model: PublishedModel, direct: boolean): LiteLLMEntry {
  const pick = (own: unknown, tariff: number | null) =>
    direct && tariff !== null ? tariff : typeof own === "number" ? own : (tariff ?? undefined);
  const input = pick(entry.max_input_tokens, model.contextWindow);
  const output = pick(entry.max_output_tokens, model.maxOutputTokens);
  return {
    ...(input !== undefined ? { max_input_tokens: input } : {}),
    ...(output !== undefined ? { max_output_tokens: output, max_tokens: output } : {}),
  };
}

/** A model's retirement as LiteLLM states it (`deprecation_date`, YYYY-MM-DD). */
function deprecation(model: PublishedModel, own: unknown): LiteLLMEntry {
  const date = model.lifecycle.retiresOn ?? model.lifecycle.deprecatedOn ?? (typeof own === "string" ? own : null);
  return date ? { deprecation_date: date } : {};
}

/** A recorded entry placed on a Tariff offer: Tariff's token prices, LiteLLM's other fields (T212). */
function reconciled(
  input: ExportInput,
  raw: LiteLLMEntry,
  model: PublishedModel,
  offer: Offer,
  sheet: TokenSheet,
): LiteLLMEntry {
  const { fields, families, prices } = tokenFields(sheet);
  const kept = keepUnbackedMoves(fields, prices, raw, model.provider);
  const placedOn = { model: model.id, channel: offer.channel, seller: offer.seller };
  if (families.size === 0 && !sheet.includedInPlan)
    // Placed, but Tariff states no price of a kind LiteLLM reads (a per-second transcription price):
    // the key passes through exactly as LiteLLM has it, like a key Tariff cannot place (T212).
    return finish(
      { ...raw },
      {
        datasetVersion: input.version,
        reconciled: false,
        reason: "Tariff states no per-token USD price for this offer",
        ...placedOn,
      },
    );
  const entry: LiteLLMEntry = jsonObject();
  const litellmFields: string[] = [];
  for (const [k, v] of Object.entries(raw)) {
    const family = familyOf(k);
    if (family !== null) {
      // Tariff states this kind of price: its brackets and amounts replace LiteLLM's; else LiteLLM's stays.
      if (sheet.includedInPlan || families.has(family)) continue;
      litellmFields.push(k);
    } else if (k === "tiered_pricing" && families.has("input_cost_per_token|standard")) continue;
    else if (/cost|price/.test(k) && k !== "source") litellmFields.push(k);
    entry[k] = v;
  }
  if (CACHE_HIT_ALIAS in raw && fields.cache_read_input_token_cost !== undefined)
    entry[CACHE_HIT_ALIAS] = fields.cache_read_input_token_cost;
  Object.assign(
    entry,
    fields,
    limits(raw, model, offer.channel === "direct"),
    deprecation(model, raw.deprecation_date),
  );
  entry.source = modelUrl(input, model.id);
  return finish(entry, {
    datasetVersion: input.version,
    reconciled: true,
    ...placedOn,
    ...(sheet.includedInPlan ? { includedInPlan: true as const } : {}),
    ...(litellmFields.length > 0 ? { litellmFields: litellmFields.sort() } : {}),
    ...(kept.oneSource.length > 0 ? { keptOneSource: kept.oneSource } : {}),
    ...(kept.aggregators.length > 0 ? { keptAggregatorsOnly: kept.aggregators } : {}),
  });
}

/**
 * An offer's prices for a regional key (`us.anthropic.claude-opus-4-6-v1`, issue 49 §3, T487): where
 * the maker states a regional rule for the offer (T303), the region's prices are the global ones ×
 * its factor, as `/cost` bills them (T482); a region's row that says otherwise (an aggregator copying
 * the global price) is not the key's price. A region's row with no global counterpart stays.
 */
function regionalPrices(offer: Offer, model: PublishedModel, region: string | undefined): readonly PublishedPrice[] {
  const rule = region ? regionalUplift(model, offer.seller, region) : null;
  if (!rule || !region) return offer.prices;
  const slot = (p: PublishedPrice) =>
    `${p.tier}|${p.contextMin}|${p.contextMax}|${p.direction}|${p.cache}|${p.modality}|${p.unit}|${p.currency}`;
  const plain = (p: PublishedPrice) => Object.keys(p.qualifiers).every((k) => k === "seller" || k === "region");
  const global = new Map<string, PublishedPrice>();
  for (const p of offer.prices)
    if (plain(p) && (p.qualifiers.region === GLOBAL || (p.qualifiers.region === undefined && !global.has(slot(p)))))
      global.set(slot(p), p);
  const ruled = [...global.values()].map((p) => ({
    ...p,
    amount: Number(new Big(String(p.amount)).times(rule.factor).toPrecision(10)),
    qualifiers: { ...p.qualifiers, region },
  }));
  return [...offer.prices.filter((p) => p.qualifiers.region !== region || !global.has(slot(p))), ...ruled];
}

/** Where a recorded key lands: its listing's placement, else its spelling as one model's alias at that seller. */
function place(index: ExportIndex, key: LiteLLMKey): Placement | null {
  const listing = key.listing;
  if (!listing) return null;
  // T311: a fine-tuned model's key is priced by the fine-tune's own prices, never the base model's.
  const own = isFineTuneKey(listing.model) ? { ...listing.qualifiers, ...FINE_TUNE_QUALIFIERS } : listing.qualifiers;
  // T527: a key whose meaning was reviewed is placed on the model it names, or on none.
  const reviewed = reviewedLitellmMeaning(listing.seller, listing.model);
  if (reviewed)
    return index.offers.has(offerKey(reviewed.model, listing.seller))
      ? { modelId: reviewed.model, seller: listing.seller, qualifiers: own }
      : null;
  const found = index.placements.get(placementKey("litellm", listing.seller, listing.model));
  if (found) return Object.keys(own).length > 0 ? { ...found, qualifiers: own } : found;
  const modelId = index.spelledAs.get(listing.model.toLowerCase());
  if (modelId && index.offers.has(offerKey(modelId, listing.seller)))
    return { modelId, seller: listing.seller, qualifiers: own };
  return null;
}

/** LiteLLM's key prefix and provider name per seller, read from the recorded keys it places (`gemini/`, `openrouter/`, ``). */
function routesOf(
  placed: readonly { key: LiteLLMKey; placement: Placement }[],
): Map<string, { prefix: string; provider: string }> {
  const tally = new Map<string, Map<string, number>>();
  for (const { key } of placed) {
    const listing = key.listing!;
    if (Object.keys(listing.qualifiers).length > 0 || !key.key.endsWith(listing.model)) continue;
    const provider = key.entry.litellm_provider;
    if (typeof provider !== "string") continue;
    const route = JSON.stringify([key.key.slice(0, key.key.length - listing.model.length), provider]);
    const t = tally.get(listing.seller) ?? new Map<string, number>();
    t.set(route, (t.get(route) ?? 0) + 1);
    tally.set(listing.seller, t);
  }
  const routes = new Map<string, { prefix: string; provider: string }>();
  for (const [seller, t] of tally) {
    const [best] = [...t].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const [prefix, provider] = JSON.parse(best![0]) as [string, string];
    routes.set(seller, { prefix, provider });
  }
  return routes;
}

/** LiteLLM's `mode` of an offer from what it prices: chat when it answers in text, else embedding or image generation. */
function modeOf(sheet: TokenSheet): string | null {
  if (sheet.get("standard", 0, "output", "none")) return "chat";
  if (sheet.get("standard", 0, "output", "none", "image")) return "image_generation";
  if (sheet.get("standard", 0, "input", "none")) return "embedding";
  return null;
}

/**
 * Builds the LiteLLM file of a dataset version. `recorded` is the LiteLLM file of the version's date
 * (every key with the adapter's listing); without it only Tariff's own offers are written.
 */
export function buildLiteLLMExport(
  input: ExportInput,
  recorded: RecordedFile<readonly LiteLLMKey[]> | null,
): Record<string, LiteLLMEntry> {
  const index = exportIndex(input);
  // Keyed by LiteLLM's keys and our spellings: every Object.prototype name is an ordinary key (T315).
  const file: Record<string, LiteLLMEntry> = jsonObject();
  const covered = new Set<string>();
  const placed: { key: LiteLLMKey; placement: Placement }[] = [];
  for (const key of recorded?.data ?? []) {
    if (NOT_MODELS.has(key.key)) continue;
    const placement = place(index, key);
    const model = placement ? index.models.get(placement.modelId) : undefined;
    const offer = placement ? index.offers.get(offerKey(placement.modelId, placement.seller)) : undefined;
    // T311: a key is never repointed to a model it does not name (another generation, a variant).
    const mismatch = model && key.listing ? meaningMismatch(key.listing.model, model) : null;
    if (!placement || !model || !offer || mismatch) {
      file[key.key] = finish(
        { ...key.entry },
        {
          datasetVersion: input.version,
          reconciled: false,
          reason: mismatch
            ? `not placed on a Tariff offer: ${mismatch}`
            : key.listing
              ? `Tariff cannot place ${key.listing.seller} ${JSON.stringify(key.listing.model)} on a model it prices`
              : "a mode or route Tariff does not read",
        },
      );
      continue;
    }
    placed.push({ key, placement });
    const prices = regionalPrices(offer, model, placement.qualifiers.region);
    file[key.key] = reconciled(input, key.entry, model, offer, tokenSheet(prices, placement.qualifiers));
    if (Object.keys(placement.qualifiers).length === 0) covered.add(offerKey(offer.modelId, offer.seller));
  }

  // Offers LiteLLM has no key for: under the key LiteLLM gives the seller's models (T212).
  const routes = routesOf(placed);
  for (const offer of [...index.offers.values()].sort((a, b) =>
    offerKey(a.modelId, a.seller) < offerKey(b.modelId, b.seller) ? -1 : 1,
  )) {
    if (covered.has(offerKey(offer.modelId, offer.seller))) continue;
    const model = index.models.get(offer.modelId);
    if (!model?.listed) continue;
    const sheet = tokenSheet(offer.prices);
    const mode = modeOf(sheet);
    if (!mode && !sheet.includedInPlan) continue;
    // An offer with no price of a kind LiteLLM reads has nothing to add.
    if (!sheet.includedInPlan && tokenFields(sheet).families.size === 0) continue;
    const direct = offer.channel === "direct";
    const route = routes.get(offer.seller) ?? (direct ? { prefix: `${offer.seller}/`, provider: offer.seller } : null);
    if (!route) continue;
    const spelling = direct
      ? model.slug
      : (index.spellings.get(offerKey(offer.modelId, offer.seller))?.[0] ?? model.slug);
    const key = `${route.prefix}${spelling}`;
    if (Object.hasOwn(file, key)) continue;
    file[key] = reconciled(input, { litellm_provider: route.provider, ...(mode ? { mode } : {}) }, model, offer, sheet);
  }
  return file;
}
