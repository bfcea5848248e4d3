import { amountsAgree } from "../domain/amount.js";
import type { PriceVerdict } from "../domain/dataset.js";
import { type Dimension, dimensionKey } from "../domain/dimension.js";
import type { SourceId } from "../domain/observation.js";
import type { Unit } from "../domain/unit.js";

/**
 * Agreement with the maker's price where no page of the maker's is read (issue 36 §4, §6). Pure:
 * judged on the reconciled prices of one run, before labels.
 *
 * - {@link loneOutliers} (T332): a price of the maker's own offer (or a cloud reseller's offer of a
 *   closed model) that one source alone states, at {@link LONE_OUTLIER_FACTOR}× or more from what
 *   other sources agree on for the same model, does not win.
 * - {@link windowsAboveStandard} (T331): a discount window or tier (off-peak, batch, flex) priced
 *   above its own standard price needs two agreeing sources.
 */

/** The slice of a reconciled price these rules read. */
export interface AgreementPrice extends Dimension, Pick<PriceVerdict, "amount" | "sources" | "confidence"> {
  /**
   * Every source's own amount for the price (provenance); when given, the agreement counts these
   * statements (lagging ones aside) rather than the winner's sources, so a tie that last run's
   * amount broke does not change what the others agree on.
   */
  readonly observations?: readonly { readonly source: SourceId; readonly amount: number; readonly lagging?: boolean }[];
  readonly modelId: string;
  readonly channel: string;
  readonly seller: string;
  readonly unit: Unit;
  readonly denomination: string;
  readonly currency: string;
}

/** One source at this factor (either way) from the others' agreement is a lone outlier (T332). */
export const LONE_OUTLIER_FACTOR = 3;

/** Qualifiers that say who sells or where: the same price of the model, sold elsewhere, compares. */
const WHERE_QUALIFIERS = new Set(["seller", "region", "backend"]);

/** The qualifier of a weekday/hour window (genai-prices' DeepSeek off-peak). */
export const TIME_WINDOW = "time_window";

/** Tiers sold as a discount on the standard price. */
const DISCOUNT_TIERS = new Set(["batch", "flex"]);

/**
 * A price's slot as a key: its model, its dimension (the tier replaced by `tier` when given, the
 * qualifiers `drop` names left out), unit and money, and with `seller` its channel and seller.
 */
function slotKey(
  p: AgreementPrice,
  options: { seller: boolean; tier?: Dimension["tier"]; drop: (qualifier: string) => boolean },
): string {
  const qualifiers = Object.fromEntries(Object.entries(p.qualifiers).filter(([k]) => !options.drop(k)));
  const who = options.seller ? [p.channel, p.seller] : [];
  const d = dimensionKey({ ...p, tier: options.tier ?? p.tier, qualifiers });
  return [p.modelId, ...who, d, p.unit, p.denomination, p.currency].join("|");
}

/** What is billed, without who sells it or where (model, dimension, unit, money). */
function billedKey(p: AgreementPrice): string {
  return slotKey(p, { seller: false, drop: (k) => WHERE_QUALIFIERS.has(k) });
}

/** The channels that carry the maker's own list price: the maker's, and the resellers named by channel. */
function makersChannel(channel: string): boolean {
  return channel === "direct" || channel.startsWith("reseller_");
}

/** Together AI's channel: it runs open weights on its own hardware, at prices of its own. */
const HOST_CHANNEL = "reseller_5";

/** What other sources agree on for a price: the amount and the sources stating it. */
export interface Agreement {
  readonly amount: number;
  readonly sources: readonly SourceId[];
}

/**
 * The lone outliers of a run (T332, issue 36 §6): by index into `prices`, the agreement each one
 * stands against. A price qualifies when exactly one source backs its amount, it is no seller's own
 * (authoritative, `verified`) statement, no variant (`:free`) and no cache write (each seller bills
 * writes its own way), and it is sold in the maker's channel (`direct`) or by a named reseller
 * (`reseller_N`) of a model whose weights are not open (hosts of open weights set their own prices).
 * A direct price of open weights qualifies only when its one source itself states the agreed amount
 * elsewhere (genai-prices' Ministral 8B output: 1 direct, 0.1 on OpenRouter), and Together AI, a
 * host, is no witness for it (Alibaba lists Qwen3 8B at 0.18 where OpenRouter's hosts ask 0.035).
 * The agreement is read from the same price of the
 * same model in the other slots that carry the maker's list: for a direct price the resellers' (and
 * any other direct seller's), for a reseller's price the maker's direct one. It is the amount the
 * most distinct sources state there — at least two, more than any other amount; a source that
 * contradicts itself across channels counts too — and the price stands {@link LONE_OUTLIER_FACTOR}×
 * or more from it. Amounts in USD per 1M tokens or whatever unit the price is in (same unit only).
 */
export function loneOutliers(
  prices: readonly AgreementPrice[],
  openWeights: ReadonlySet<string>,
): Map<number, Agreement> {
  const byBilled = new Map<string, number[]>();
  prices.forEach((p, i) => {
    const k = billedKey(p);
    const list = byBilled.get(k);
    if (list) list.push(i);
    else byBilled.set(k, [i]);
  });
  // Each offer's headline amounts (uncached standard text input, any region): two slots whose
  // headlines share no amount sell different things under one id (OpenRouter's moving
  // `~google/gemini-flash-latest` at 1.5 beside Google's 0.3) and witness nothing for each other.
  const headlines = new Map<string, number[]>();
  for (const p of prices)
    if (isHeadline(p)) headlines.set(offerKey(p), [...(headlines.get(offerKey(p)) ?? []), p.amount]);
  const sameOffer = (p: AgreementPrice, w: AgreementPrice) => {
    if (isHeadline(p)) return true;
    const a = headlines.get(offerKey(p));
    const b = headlines.get(offerKey(w));
    return !a || !b || a.some((x) => b.some((y) => amountsAgree(x, y)));
  };
  const out = new Map<number, Agreement>();
  prices.forEach((p, i) => {
    if (p.sources.length !== 1 || p.confidence === "verified" || !(p.amount > 0)) return;
    if (p.qualifiers.variant !== undefined || !makersChannel(p.channel)) return;
    // A cache write is billed differently by each seller; a host of open weights sets its own price.
    if (p.cache === "write") return;
    const direct = p.channel === "direct";
    const open = openWeights.has(p.modelId);
    if (open && !direct) return;
    const agreement = agreementFor(
      (byBilled.get(billedKey(p)) ?? []).filter((j) => {
        const w = prices[j]!;
        if (j === i || !(w.amount > 0) || !makersChannel(w.channel)) return false;
        if ((open && w.channel === HOST_CHANNEL) || !sameOffer(p, w)) return false;
        return direct ? !(w.channel === p.channel && w.seller === p.seller) : w.channel === "direct";
      }),
      prices,
    );
    if (!agreement) return;
    // A maker's own price of open weights is often several times its hosts': it loses only when its
    // lone source contradicts itself, stating the agreed amount for the same price elsewhere.
    if (open && !agreement.sources.includes(p.sources[0]!)) return;
    const ratio = p.amount > agreement.amount ? p.amount / agreement.amount : agreement.amount / p.amount;
    if (ratio >= LONE_OUTLIER_FACTOR) out.set(i, agreement);
  });
  return out;
}

/** What each source states for a price: its observations (lagging ones aside), else the winner's sources. */
function statements(p: AgreementPrice): readonly { readonly source: SourceId; readonly amount: number }[] {
  if (p.observations) return p.observations.filter((o) => !o.lagging);
  return p.sources.map((source) => ({ source, amount: p.amount }));
}

/** The uncached, standard-tier text input of the whole context, with no qualifier but where it is sold. */
function isHeadline(p: AgreementPrice): boolean {
  return (
    p.direction === "input" &&
    p.modality === "text" &&
    p.tier === "standard" &&
    p.cache === "none" &&
    p.contextMin === 0 &&
    p.contextMax === null &&
    p.unit === "mtok" &&
    Object.keys(p.qualifiers).every((k) => WHERE_QUALIFIERS.has(k))
  );
}

/** One seller's offer of one model, in one channel and money. */
function offerKey(p: AgreementPrice): string {
  return `${p.modelId}|${p.channel}|${p.seller}|${p.currency}`;
}

function agreementFor(witnesses: readonly number[], prices: readonly AgreementPrice[]): Agreement | null {
  const groups: { amount: number; sources: Set<SourceId> }[] = [];
  for (const j of witnesses)
    for (const { source, amount } of statements(prices[j]!)) {
      if (!(amount > 0)) continue;
      let g = groups.find((x) => amountsAgree(x.amount, amount));
      if (!g) {
        g = { amount, sources: new Set() };
        groups.push(g);
      }
      g.sources.add(source);
    }
  groups.sort((a, b) => b.sources.size - a.sources.size || a.amount - b.amount);
  const [best, next] = groups;
  if (!best || best.sources.size < 2 || (next && next.sources.size === best.sources.size)) return null;
  return { amount: best.amount, sources: [...best.sources].sort() };
}

/** True for a discount window or tier: an off-peak time window, or the batch and flex tiers. */
export function isDiscount(d: Dimension): boolean {
  return DISCOUNT_TIERS.has(d.tier) || d.qualifiers[TIME_WINDOW] !== undefined;
}

/** The standard price a discount price is judged against: same slot, standard tier, no window. */
function standardKey(p: AgreementPrice, asStandard: boolean): string {
  return slotKey(p, { seller: true, ...(asStandard ? { tier: "standard" } : {}), drop: (k) => k === TIME_WINDOW });
}

/**
 * The discount prices that contradict their standard price (T331, issue 36 §4): by index into
 * `prices`, the standard amount each stands above. A batch or flex tier, or an off-peak window,
 * priced above the standard price of the same slot (model, channel, seller, dimension, unit) is
 * published only when two or more sources agree on it: one source's window beside a standard price
 * that has moved since (genai-prices' DeepSeek off-peak 0.55 beside the standard 0.28) is stale.
 */
export function windowsAboveStandard(prices: readonly AgreementPrice[]): Map<number, number> {
  const standard = new Map<string, number>();
  for (const p of prices) if (!isDiscount(p)) standard.set(standardKey(p, false), p.amount);
  const out = new Map<number, number>();
  prices.forEach((p, i) => {
    if (!isDiscount(p) || p.sources.length >= 2) return;
    const base = standard.get(standardKey(p, true));
    if (base === undefined || p.amount <= base || amountsAgree(p.amount, base)) return;
    out.set(i, base);
  });
  return out;
}
