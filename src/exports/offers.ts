import { scaleAmount } from "../domain/amount.js";
import type { Channel } from "../domain/channel.js";
import { billedThresholds } from "../domain/cost.js";
import type { PublishedModel, PublishedPrice } from "../domain/dataset.js";
import type { CacheKind, Direction, Modality, Tier } from "../domain/dimension.js";
import type { SourceId } from "../domain/observation.js";
import { MAKER_CLOUDS } from "../domain/sellers.js";
import { jsonObject } from "./json-object.js";
import type { ExportInput } from "./types.js";

/**
 * The indexes every export reads (T210): a model's prices per seller (an offer), every spelling a
 * source used for a model at a seller (the observations' `listing`, T87), and the models' own
 * spellings (id, slug, aliases).
 */

/** One model as one seller sells it: its prices (every tier, bracket and qualifier). */
export interface Offer {
  readonly modelId: string;
  readonly channel: Channel;
  readonly seller: string;
  readonly prices: readonly PublishedPrice[];
}

/** Where a source's spelling at a seller lands: the model, and the qualifiers of the prices it was read into (region, …). */
export interface Placement {
  readonly modelId: string;
  readonly seller: string;
  readonly qualifiers: Readonly<Record<string, string>>;
}

export interface ExportIndex {
  readonly models: ReadonlyMap<string, PublishedModel>;
  /** By `modelId \0 seller`. */
  readonly offers: ReadonlyMap<string, Offer>;
  /** Each seller's offers, by model id. */
  readonly offersBySeller: ReadonlyMap<string, readonly Offer[]>;
  /** By `source \0 seller \0 listing`: the model and seller a source's listing was reconciled into. */
  readonly placements: ReadonlyMap<string, Placement>;
  /** By `modelId \0 seller`: the spellings sources used for the offer, most used first. */
  readonly spellings: ReadonlyMap<string, readonly string[]>;
  /** Lower-cased id, slug or alias → the one model it names (an alias two models claim names neither). */
  readonly spelledAs: ReadonlyMap<string, string>;
}

export const offerKey = (modelId: string, seller: string) => `${modelId}\u0000${seller}`;
export const placementKey = (source: SourceId, seller: string, listing: string) =>
  `${source}\u0000${seller}\u0000${listing}`;

/** Builds the indexes of an export's input. */
export function exportIndex(input: ExportInput): ExportIndex {
  const models = new Map(input.models.map((m) => [m.id, m]));
  const grouped = new Map<string, PublishedPrice[]>();
  const placed = new Map<string, { modelId: string; seller: string; qualifiers: Map<string, number> }>();
  const used = new Map<string, Map<string, number>>();
  for (const p of input.prices) {
    const key = offerKey(p.modelId, p.seller);
    const list = grouped.get(key);
    if (list) list.push(p);
    else grouped.set(key, [p]);
  }
  for (const p of input.evidence ?? input.prices) {
    for (const o of p.observations) {
      if (!o.listing) continue;
      const q = JSON.stringify(ownQualifiers(p));
      // A maker's own cloud's listing (Bedrock's `amazon.nova-lite-v1:0`) is read into the maker's
      // offer (T325): the source spells it at the cloud, so it is found there too.
      for (const seller of [p.seller, ...(p.channel === "direct" ? cloudsOf(p.seller) : [])]) {
        const pk = placementKey(o.source, seller, o.listing);
        const at = placed.get(pk) ?? { modelId: p.modelId, seller: p.seller, qualifiers: new Map<string, number>() };
        at.qualifiers.set(q, (at.qualifiers.get(q) ?? 0) + 1);
        placed.set(pk, at);
        const tally = used.get(offerKey(p.modelId, seller)) ?? new Map<string, number>();
        tally.set(o.listing, (tally.get(o.listing) ?? 0) + 1);
        used.set(offerKey(p.modelId, seller), tally);
      }
    }
  }
  // A listing read into prices of several qualifier sets stands for the unqualified one, else its most used.
  const placements = new Map<string, Placement>();
  for (const [pk, at] of placed) {
    const sets = [...at.qualifiers].sort((a, b) => b[1] - a[1]);
    const chosen = at.qualifiers.has("{}") ? "{}" : sets[0]![0];
    placements.set(pk, { modelId: at.modelId, seller: at.seller, qualifiers: JSON.parse(chosen) });
  }
  const offers = new Map<string, Offer>();
  for (const [key, prices] of grouped) {
    const first = prices[0]!;
    offers.set(key, { modelId: first.modelId, channel: first.channel, seller: first.seller, prices });
  }
  const offersBySeller = new Map<string, Offer[]>();
  for (const offer of offers.values()) {
    // The maker's direct offer is its own cloud's price list too (Bedrock sells Amazon's models, T325).
    const sellers = [offer.seller, ...(offer.channel === "direct" ? cloudsOf(offer.seller) : [])];
    for (const seller of sellers) {
      const list = offersBySeller.get(seller);
      if (list) list.push(offer);
      else offersBySeller.set(seller, [offer]);
    }
  }
  for (const list of offersBySeller.values())
    list.sort((a, b) => (a.modelId < b.modelId ? -1 : a.modelId > b.modelId ? 1 : 0));
  const spellings = new Map<string, string[]>();
  for (const [key, tally] of used)
    spellings.set(
      key,
      [...tally].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([s]) => s),
    );
  return { models, offers, offersBySeller, placements, spellings, spelledAs: spelledAs(input.models) };
}

/** The clouds whose price list is all of `maker`'s direct prices (`MAKER_CLOUDS` of scope `all`, T325). */
function cloudsOf(maker: string): string[] {
  return Object.entries(MAKER_CLOUDS)
    .filter(([, c]) => c.maker === maker && c.scope === "all")
    .map(([seller]) => seller);
}

/** A price's qualifiers without `seller` (the offer's own), keys sorted. */
export function ownQualifiers(p: { qualifiers: Readonly<Record<string, string>> }): Record<string, string> {
  const result: Record<string, string> = jsonObject();
  for (const k of Object.keys(p.qualifiers).sort()) if (k !== "seller") result[k] = p.qualifiers[k]!;
  return result;
}

function spelledAs(models: readonly PublishedModel[]): Map<string, string> {
  const claimed = new Map<string, string | null>();
  const claim = (spelling: string, id: string) => {
    const s = spelling.toLowerCase();
    const held = claimed.get(s);
    claimed.set(s, held === undefined || held === id ? id : null);
  };
  for (const m of models) if (m.listed) for (const a of m.aliases) claim(a, m.id);
  // A model's own id and slug win over another model's alias.
  const own = new Map<string, string>();
  for (const m of models) {
    own.set(m.id.toLowerCase(), m.id);
    if (!own.has(m.slug.toLowerCase())) own.set(m.slug.toLowerCase(), m.id);
  }
  const result = new Map<string, string>();
  for (const [s, id] of claimed) if (id !== null) result.set(s, id);
  for (const [s, id] of own) result.set(s, id);
  return result;
}

/** The token prices of an offer that an export can state: USD per 1M tokens, or a plan's included usage. */
export interface TokenSheet {
  /** The price of one dimension, or undefined. */
  get(
    tier: Tier,
    contextMin: number,
    direction: Direction,
    cache: CacheKind,
    modality?: Modality,
  ): SheetPrice | undefined;
  /** The prompt-length thresholds (N of `> N tokens`) of a tier, ascending. */
  thresholds(tier: Tier): number[];
  /** True when the offer's token prices are usage included in a plan (credits, D7): never a money price. */
  readonly includedInPlan: boolean;
  /** True when the sheet holds at least one money price. */
  readonly priced: boolean;
}

/** One token price: USD per 1M tokens (display units, D7). */
export interface SheetPrice {
  readonly amount: number;
  readonly price: PublishedPrice;
}

/**
 * The token sheet of an offer's prices with exactly the given qualifiers (besides `seller`): USD
 * amounts per 1M tokens only — another currency is never converted (D7), a credit price marks the
 * offer as included in a plan.
 */
export function tokenSheet(
  prices: readonly PublishedPrice[],
  qualifiers: Readonly<Record<string, string>> = {},
): TokenSheet {
  const wanted = Object.entries(qualifiers).filter(([k]) => k !== "seller");
  const matches = (p: PublishedPrice) => {
    const own = Object.entries(p.qualifiers).filter(([k]) => k !== "seller");
    return own.length === wanted.length && wanted.every(([k, v]) => p.qualifiers[k] === v);
  };
  const byKey = new Map<string, SheetPrice>();
  const money: PublishedPrice[] = [];
  let credit = false;
  for (const p of prices) {
    if (p.unit !== "mtok" || !matches(p)) continue;
    if (p.denomination === "credit") {
      credit = true;
      continue;
    }
    if (p.currency !== "USD") continue;
    byKey.set(sheetKey(p.tier, p.contextMin, p.direction, p.cache, p.modality), { amount: p.amount, price: p });
    money.push(p);
  }
  // The thresholds /cost bills at (T141, T145: a long-context price list stated at two thresholds counts once).
  const unqualified = money.map((p) => ({ ...p, qualifiers: {} }));
  const thresholds = new Map<Tier, number[]>();
  return {
    get: (tier, contextMin, direction, cache, modality = "text") =>
      byKey.get(sheetKey(tier, contextMin, direction, cache, modality)),
    thresholds: (tier) => {
      let known = thresholds.get(tier);
      if (!known) {
        known = billedThresholds(unqualified, tier);
        thresholds.set(tier, known);
      }
      return known;
    },
    includedInPlan: credit && byKey.size === 0,
    priced: byKey.size > 0,
  };
}

function sheetKey(tier: Tier, contextMin: number, direction: Direction, cache: CacheKind, modality: Modality): string {
  return `${tier}|${contextMin}|${direction}|${cache}|${modality}`;
}

/** USD per 1M tokens → USD per token, exact decimal to 10 significant digits (LiteLLM's unit, D7). */
export function perToken(amountPerMTok: number): number {
  return scaleAmount(amountPerMTok, "1e-6");
}
