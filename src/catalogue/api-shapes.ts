import type { Channel } from "../domain/channel.js";
import type { Confidence } from "../domain/confidence.js";
import { longContextWindow } from "../domain/cost.js";
import type { PublishedModel, PublishedPrice } from "../domain/dataset.js";
import { isBaseTextDimension } from "../domain/dimension.js";
import { VERIFIED_PAGE_MAX_AGE_DAYS } from "../domain/freshness.js";
import type { ApiModel, ApiPrice, ApiRate } from "./schemas.js";
import type { PageStale, ServedPrice } from "./verified-now.js";

/**
 * The API shapes of the published records (api-v1.md "Price", "Model", "Rate"): what every
 * endpoint answers with, built from a dataset version's prices and models.
 */

/** The API shape of a price (api-v1.md "Price"; `pageStale` when it lost `verified` when served, T461). */
export function toApiPrice(p: ServedPrice): ApiPrice {
  return {
    label: p.label,
    direction: p.direction,
    modality: p.modality,
    tier: p.tier,
    cache: p.cache,
    contextMin: p.contextMin,
    contextMax: p.contextMax,
    qualifiers: { ...p.qualifiers },
    amount: p.amount,
    displayUnit: p.displayUnit,
    denomination: p.denomination,
    currency: p.currency,
    confidence: p.confidence,
    confidenceScore: p.confidenceScore,
    sources: [...p.sources],
    dissenting: [...p.dissenting],
    disputed: p.disputed,
    fallbackAmount: p.fallbackAmount,
    effectiveFrom: p.effectiveFrom,
    staleSince: p.staleSince,
    effectiveUntil: p.effectiveUntil ?? null,
    // The API's `announced` (T335); its confidence (T423) shows on the price answered from its day.
    announced: p.announced
      ? { amount: p.announced.amount, effectiveFrom: p.announced.effectiveFrom, source: p.announced.source }
      : null,
    ...pageEvidence(p),
    ...(p.pageStale ? { pageStale: { ...p.pageStale } } : {}),
    ...pendingMove(p),
  };
}

/** `pending` (issue 46 §4, T467): a maker's page's move held until its next fetch; absent when none. */
function pendingMove(p: PublishedPrice): Pick<ApiPrice, "pending"> {
  const held = p.observations.find((o) => o.pending);
  return held?.pending ? { pending: { source: held.source, ...held.pending } } : {};
}

/**
 * `evidence` (issue 35 §3, T294): the makers' pages among the agreeing sources, each with its address,
 * capture time and content hash; absent when no maker's page agrees.
 */
function pageEvidence(p: PublishedPrice): Pick<ApiPrice, "evidence"> {
  const evidence = p.observations.flatMap((o) =>
    o.page && p.sources.includes(o.source) ? [{ source: o.source, ...o.page }] : [],
  );
  return evidence.length > 0 ? { evidence } : {};
}

/**
 * A price in an answer that mixes channels (T201): the api-v1.md "Price" with its `channel` and
 * `seller`, and with `evidence`, each dissenting source's own amount (from the price's observations).
 */
export function toChannelPrice(p: ServedPrice, evidence: boolean): ApiPrice {
  const price: ApiPrice = { ...toApiPrice(p), channel: p.channel, seller: p.seller };
  if (!evidence) return price;
  const amounts = p.dissenting.flatMap((source) => {
    const seen = p.observations.find((o) => o.source === source);
    return seen ? [{ source, amount: seen.amount }] : [];
  });
  return { ...price, dissentingAmounts: amounts };
}

/** The API shape of a model with the prices of one channel (empty when the channel does not sell it). */
export function toApiModel(
  entry: { readonly model: PublishedModel; readonly prices: ReadonlyMap<Channel, readonly ApiPrice[]> },
  channel: Channel = "direct",
): ApiModel {
  return apiModel(entry.model, [...(entry.prices.get(channel) ?? [])]);
}

/** The API shape of a model record with the given prices (api-v1.md "Model"). */
export function apiModel(m: PublishedModel, prices: ApiPrice[]): ApiModel {
  return {
    id: m.id,
    provider: m.provider,
    slug: m.slug,
    name: m.name,
    family: m.family,
    contextWindow: m.contextWindow,
    longContextWindow: longContextWindow(m),
    maxOutputTokens: m.maxOutputTokens,
    openWeights: m.openWeights,
    firstSeenAt: m.firstSeenAt,
    lifecycle: { ...m.lifecycle },
    prices,
  };
}

/**
 * Rates (D30) of listed models: direct channel, text, standard tier, no cache, bracket [0, open), no qualifiers,
 * money only; a model needs both directions. Confidence of the weaker direction (lower score;
 * output on a tie); agreeingSources is the intersection of both directions' sources. `official`: a
 * maker's own source agrees and is not stale when served (T461); `pageStale` says which one is.
 * @param stale the sellers' own sources stale at the moment judged, with their last read (T460)
 */
export function buildRates(
  models: readonly PublishedModel[],
  pricesByModel: ReadonlyMap<string, readonly ServedPrice[]>,
  officialSources: readonly string[],
  stale: ReadonlyMap<string, string | null> = new Map(),
): ApiRate[] {
  const rates: ApiRate[] = [];
  for (const model of models) {
    const direct = (pricesByModel.get(model.id) ?? []).filter(
      (p) => p.channel === "direct" && p.denomination === "currency" && p.unit === "mtok",
    );
    const find = (direction: string, cache: string) =>
      direct.find(
        (p) => p.direction === direction && isBaseTextDimension({ ...p, cache: "none" }) && p.cache === cache,
      );
    const input = find("input", "none");
    const output = find("output", "none");
    if (!input || !output || input.currency !== output.currency) continue;
    const cached = find("input", "read");
    const weaker = input.confidenceScore < output.confidenceScore ? input : output;
    const agreeing = input.sources.filter((s) => output.sources.includes(s));
    const agreeingOfficial = agreeing.filter((s) => officialSources.includes(s));
    const lapsed = lapsedOfficial(agreeingOfficial, stale, input, output);
    rates.push({
      id: model.id,
      provider: model.provider,
      slug: model.slug,
      currency: input.currency,
      inputPerMTok: input.amount,
      outputPerMTok: output.amount,
      cachedInputPerMTok: cached && cached.currency === input.currency ? cached.amount : null,
      confidence: weaker.confidence as Confidence,
      confidenceScore: Math.round(weaker.confidenceScore * 100),
      agreeingSources: agreeing,
      sourceCount: weaker.sources.length + weaker.dissenting.length,
      official: agreeingOfficial.some((s) => !stale.has(s)),
      disputed: input.disputed || output.disputed,
      staleSince: input.staleSince ?? output.staleSince,
      aliases: [...model.aliases],
      ...(lapsed ? { pageStale: lapsed } : {}),
    });
  }
  return rates;
}

/** Why a rate is not `official` although a maker's page agrees: every agreeing one is stale (T461). */
function lapsedOfficial(
  agreeingOfficial: readonly string[],
  stale: ReadonlyMap<string, string | null>,
  input: ServedPrice,
  output: ServedPrice,
): PageStale | null {
  if (agreeingOfficial.length === 0 || agreeingOfficial.some((s) => !stale.has(s))) return null;
  const named = output.pageStale ?? input.pageStale;
  if (named && agreeingOfficial.includes(named.source)) return { ...named };
  const source = agreeingOfficial[0]!;
  return { source, lastReadAt: stale.get(source) ?? null, maxAgeDays: VERIFIED_PAGE_MAX_AGE_DAYS };
}
