import type { Channel } from "./channel.js";
import { CHANNELS } from "./channel.js";
import { type Confidence, confidenceRank } from "./confidence.js";
import { type OfferTrust, offerTrust, statedBySeller } from "./offer-trust.js";

/**
 * The listed price of a model (T202): the one input and output price a list row, a sort by price
 * and the confidence badge and filter all speak of. Pure; shared by the catalogue verbs and the web
 * catalogue, so the row shown, its order and its badge cannot disagree.
 */

/**
 * What the rule reads of a price (a published price, or an API price carrying its channel and
 * seller): the dimension's fields (`Dimension`, as plain strings so API shapes fit) and the amount.
 */
export interface ListablePrice {
  readonly direction: string;
  readonly modality: string;
  readonly tier: string;
  readonly cache: string;
  readonly contextMin: number;
  readonly contextMax: number | null;
  readonly qualifiers: Readonly<Record<string, string>>;
  readonly channel?: Channel | undefined;
  readonly seller?: string | undefined;
  /** Display units, e.g. USD per 1M tokens (D7). */
  readonly amount: number;
  readonly displayUnit: string;
  readonly denomination: string;
  readonly currency: string;
  readonly confidence: Confidence;
  readonly effectiveFrom: string;
  /** The sources that state the amount (T340 counts them); absent is read as one. */
  readonly sources?: readonly string[] | undefined;
}

/**
 * A headline price (T124, T202): text, standard tier, no cache, no context bracket, per 1M tokens,
 * money (credits are not comparable, D7), and no qualifier but the seller of a multi-seller channel.
 */
export function isHeadlinePrice(p: ListablePrice): boolean {
  return (
    p.modality === "text" &&
    p.tier === "standard" &&
    p.cache === "none" &&
    p.contextMin === 0 &&
    p.contextMax === null &&
    p.denomination === "currency" &&
    p.displayUnit.endsWith("per 1M tokens") &&
    Object.keys(p.qualifiers).every((k) => k === "seller") &&
    (p.direction === "input" || p.direction === "output")
  );
}

/** The listed price of a model: one offer's headline input and output (either may be missing, not both). */
export interface ListedPrice<P extends ListablePrice = ListablePrice> {
  readonly channel: Channel;
  readonly seller: string;
  readonly input: P | null;
  readonly output: P | null;
  /** The weaker confidence of input and output: the row's badge, and what `listedConfidence` filters (T202). */
  readonly confidence: Confidence;
  /** When the newer of the two took effect (ISO 8601): the model's last price move as listed. */
  readonly changedAt: string;
  /**
   * Whether the offer may lead a ranking (T340): its confidence, and its headline input (else
   * output) against the maker's own in the same currency, on how many sources state it.
   */
  readonly trust: OfferTrust;
}

/**
 * The listed price of a model (T202) from its prices of every channel (`channelOf` names a price's
 * channel and seller when the price does not carry them): the maker's own headline prices when it
 * publishes an input or output one; else the offer (channel and seller) with the lowest headline
 * input, then output, then D2 channel order and seller. With `only`, the offers of that channel
 * alone. Null when no offer has a headline price.
 */
export function listedPrice<P extends ListablePrice>(
  prices: readonly P[],
  only?: Channel,
  channelOf: (p: P) => { channel: Channel; seller: string } = ownChannel,
): ListedPrice<P> | null {
  let best: ListedPrice<P> | null = null;
  for (const offer of headlineOffers(prices, channelOf))
    if ((only === undefined || offer.channel === only) && (!best || compareOffers(offer, best, true) < 0)) best = offer;
  return best;
}

/**
 * Every offer (channel and seller) with a headline input or output price, cheapest first (lower
 * input, then output, then D2 channel order and seller; the maker's own is not preferred here) —
 * the offers that may lead (T340: `medium` or better, plausible against the maker; T452: on two
 * sources or the seller's own list) before the maker's own untrusted offer, before the rest, so the
 * first is the cheapest offer a buyer can trust, else the maker's. Every offer is kept.
 */
export function offersByPrice<P extends ListablePrice>(
  prices: readonly P[],
  channelOf: (p: P) => { channel: Channel; seller: string } = ownChannel,
): ListedPrice<P>[] {
  // T452: with no trusted offer, the maker's own leads the rest (the cheaper unconfirmed ones below it).
  const group = (o: ListedPrice<P>) => (o.trust.trusted ? 0 : o.channel === "direct" ? 1 : 2);
  return headlineOffers(prices, channelOf).sort((a, b) => group(a) - group(b) || compareOffers(a, b, false));
}

function ownChannel(p: ListablePrice): { channel: Channel; seller: string } {
  return { channel: p.channel ?? "direct", seller: p.seller ?? "" };
}

function headlineOffers<P extends ListablePrice>(
  prices: readonly P[],
  channelOf: (p: P) => { channel: Channel; seller: string },
): ListedPrice<P>[] {
  const offers = new Map<string, { channel: Channel; seller: string; input: P | null; output: P | null }>();
  for (const p of prices) {
    if (!isHeadlinePrice(p)) continue;
    const { channel, seller } = channelOf(p);
    const key = `${channel}\u0000${seller}`;
    let offer = offers.get(key);
    if (!offer) {
      offer = { channel, seller, input: null, output: null };
      offers.set(key, offer);
    }
    if (p.direction === "input") offer.input ??= p;
    else offer.output ??= p;
  }
  // The maker's own offer: the one of the direct channel (T340 judges the others against it).
  const maker = [...offers.values()].find((o) => o.channel === "direct") ?? null;
  return [...offers.values()].map((offer) => {
    const shown = [offer.input, offer.output].filter((p): p is P => p !== null);
    const confidence = shown.reduce<Confidence>(
      (weakest, p) => (confidenceRank(p.confidence) < confidenceRank(weakest) ? p.confidence : weakest),
      shown[0]!.confidence,
    );
    let changedAt = "";
    for (const p of shown) if (p.effectiveFrom > changedAt) changedAt = p.effectiveFrom;
    const trust = headlineTrust(offer, confidence, offer === maker ? null : maker);
    return { ...offer, confidence, changedAt, trust };
  });
}

/**
 * T340 on headline prices: the offer's input against the maker's input, else its output against the
 * maker's output, in the same currency; the sources counted are those of the prices compared, and
 * one is enough when it is the seller's own list (T452).
 */
function headlineTrust(
  offer: {
    readonly channel: Channel;
    readonly seller: string;
    readonly input: ListablePrice | null;
    readonly output: ListablePrice | null;
  },
  confidence: Confidence,
  maker: { readonly input: ListablePrice | null; readonly output: ListablePrice | null } | null,
): OfferTrust {
  const pair = (mine: ListablePrice | null, theirs: ListablePrice | null | undefined) =>
    mine && theirs && mine.currency === theirs.currency ? { mine, theirs } : null;
  const compared = pair(offer.input, maker?.input) ?? pair(offer.output, maker?.output);
  const shown = [offer.input, offer.output].filter((p): p is ListablePrice => p !== null);
  const judged = compared ? [compared.mine] : shown;
  return offerTrust({
    confidence,
    amount: compared ? compared.mine.amount : shown[0]!.amount,
    makerAmount: compared ? compared.theirs.amount : null,
    agreeingSources: Math.min(...judged.map((p) => p.sources?.length ?? 1)),
    sellerStated: judged.every((p) => statedBySeller(offer.seller, p.sources ?? [])),
  });
}

/** T202 order of offers: (with `makerFirst`) the maker's own, then the lower input, the lower output, D2 channel order, seller. */
function compareOffers(a: ListedPrice, b: ListedPrice, makerFirst: boolean): number {
  if (makerFirst && (a.channel === "direct") !== (b.channel === "direct")) return a.channel === "direct" ? -1 : 1;
  const byAmount = (x: ListablePrice | null, y: ListablePrice | null) =>
    x && y
      ? x.currency !== y.currency
        ? x.currency < y.currency
          ? -1
          : 1
        : x.amount - y.amount
      : x
        ? -1
        : y
          ? 1
          : 0;
  return (
    byAmount(a.input, b.input) ||
    byAmount(a.output, b.output) ||
    CHANNELS.indexOf(a.channel) - CHANNELS.indexOf(b.channel) ||
    (a.seller < b.seller ? -1 : a.seller > b.seller ? 1 : 0)
  );
}
