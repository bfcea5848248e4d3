import { amountsAgree, roundAmount } from "../domain/amount.js";
import type { ChangeRecord, HistoryPoint } from "../domain/change.js";
import type { Dataset, PriceEvidence, PublishedPrice } from "../domain/dataset.js";
import { dimensionKey, seriesKey } from "../domain/dimension.js";
import { currencyChanges } from "./currency-moves.js";
import { correctsContext } from "./held-removals.js";
import type { ListedIndex, Whereabouts } from "./listed-index.js";
import { indexListings, movedTo } from "./moved-listings.js";

/**
 * Change detection between two consecutive dataset versions (issue 3, D5, D6). Pure.
 *
 * Prices are compared per model, channel, seller and dimension. The kinds:
 * - `price_increase` / `price_decrease`: the amount moved (any difference of published amounts);
 * - `unit_change`: the dimension is priced in another unit (both amounts in their own units);
 * - `price_removed`: a dimension disappears (not a $0 key, T84; not a listing that moved to another
 *   model, T87; not a price a source still lists, T175; not a bracket whose threshold became the
 *   context window, T495);
 * - `coverage_added`: a channel or seller starts selling a model it did not sell (every new price);
 * - `price_added`: a model gains a dimension in a channel that already sold it, or a new model's prices;
 * - `reference_changed`: the same amount is now backed by another primary source;
 * - `currency_change`: a move of a seller's whole list by one exchange rate (T494, `currency-moves.ts`).
 * The first run of an empty store has nothing to compare: `previous` null gives no changes.
 *
 * `occurredAt` is when the market moved (T174): the run whose payloads first showed the change — for
 * a removal served on by the grace (T85), the run its listings went; for a price move, the run in
 * which the first source backing the new amount left the old one — even when this run confirms it.
 * The version that published the change is the store's (`change_record.dataset_version`).
 * @param listed where this run's payloads hold the listings behind last version's prices (T175);
 *   without it every price gone counts as absent
 */
export function detectChanges(
  previous: Dataset | null,
  next: Dataset,
  listed?: { whereListed(price: PublishedPrice): Whereabouts } & Partial<Pick<ListedIndex, "listingNow">>,
): ChangeRecord[] {
  if (!previous) return [];
  const runTime = next.run.datasetVersion;
  const before = indexPrices(previous.prices);
  const after = indexPrices(next.prices);
  const modelsBefore = new Set(previous.models.map((m) => m.id));
  const sold = new Set(previous.prices.map((p) => sellingKey(p)));
  const names = namesOf(next, previous);
  const changes: ChangeRecord[] = [];
  const record = (
    kind: ChangeRecord["kind"],
    p: PublishedPrice,
    oldAmount: number | null,
    newAmount: number | null,
    deltaPct: number | null,
    occurredAt: string = runTime,
  ) => pushed(changeRecordOf(kind, p, names(p.modelId), { oldAmount, newAmount, deltaPct, occurredAt }));
  const pushed = (c: ChangeRecord) => {
    changes.push(c);
    return c;
  };
  // A plan's included usage turning into money, per change (T177).
  const turns: PlanTurn[] = [];

  for (const [key, now] of after) {
    const then = before.get(key);
    if (!then) {
      const kind = !modelsBefore.has(now.modelId) || sold.has(sellingKey(now)) ? "price_added" : "coverage_added";
      record(kind, now, null, now.amount, null);
    } else if (then.unit !== now.unit || then.denomination !== now.denomination || then.currency !== now.currency) {
      const change = record("unit_change", now, then.amount, now.amount, null);
      if (then.denomination !== now.denomination) turns.push({ change, price: now });
    } else if (then.amount !== now.amount && !amountsAgree(then.amount, now.amount)) {
      const move = amountMove(then, now, runTime);
      record(move.kind, now, then.amount, now.amount, deltaPct(then.amount, now.amount), move.occurredAt);
    } else if (then.sources[0] !== now.sources[0]) {
      record("reference_changed", now, then.amount, now.amount, 0);
    }
  }
  // T84: a $0 key that stops appearing is no market move (OpenRouter dropped its zero keys in 2026-02).
  // T87: nor is a price whose listing now backs another model (the seller still sells it).
  // T175: nor a price a source still lists (quarantined, or a listing identity could not place).
  // T495: nor a bracket its recorder dropped while setting the context to its threshold.
  const listings = indexListings(next.prices);
  for (const [key, then] of before)
    if (
      !after.has(key) &&
      then.amount !== 0 &&
      then.observations.length > 0 &&
      movedTo(then, listings) === null &&
      (listed?.whereListed(then) ?? "absent") === "absent" &&
      !contextCorrected(then, listed)
    )
      record("price_removed", then, then.amount, null, null, removedAt(then, runTime));
  // T494: a seller's euro or yuan list converted at a new rate is a currency change, not a market move.
  return currencyChanges(foldPlanTurns(changes, turns), previous, next).sort(compareChanges);
}

/**
 * What a change of the published amount is, and when the market moved: a market move is an
 * increase or a decrease at {@link movedAt}; else the maker's page correcting our amount is a
 * reference change whatever its size (T293); else a jump of 5× or more is still shown as a move
 * (T176), and a smaller change is a reference change. Both but market moves date to this run.
 */
function amountMove(
  then: PublishedPrice,
  now: PublishedPrice,
  runTime: string,
): { readonly kind: ChangeRecord["kind"]; readonly occurredAt: string } {
  const market = isMarketMove(then, now);
  // No market move, and the maker's page states the new amount and never showed the old one:
  // the old amount was ours (an aggregator's error), a correction whatever its size (T293).
  if (!market && makerCorrects(then, now)) return { kind: "reference_changed", occurredAt: runTime };
  // A jump of 5× or more is never hidden as a reconciliation change (T176): the dataset builder
  // publishes one only as a market move or as the correction of an earlier error.
  const shown = market || jumps(then, now);
  return {
    kind: !shown ? "reference_changed" : now.amount > then.amount ? "price_increase" : "price_decrease",
    occurredAt: market ? movedAt(then, now, runTime) : runTime,
  };
}

/**
 * T293: a change of the published amount that the maker's own page corrects — the page states the
 * new amount now (a current authoritative statement, T292) and did not state the old one before
 * (it was not among the old price's evidence, or already stated the new amount). A page that
 * itself moved from another amount is the market (T88), not a correction; so is a change with the
 * evidence of a market move ({@link isMarketMove}), which callers check first.
 */
export function makerCorrects(then: PublishedPrice, now: PublishedPrice): boolean {
  // A maker's own page (its evidence names the page, T294); a reseller's own API (OpenRouter) is not one.
  const page = now.observations.find((o) => o.authoritative && o.page && amountsAgree(o.amount, now.amount));
  if (!page) return false;
  const before = then.observations.find((o) => o.source === page.source);
  return before === undefined || amountsAgree(before.amount, now.amount);
}

/**
 * The run summary's `corrections` (T293): prices whose published amount the maker's page corrected
 * between two versions ({@link makerCorrects}).
 */
export function countMakerCorrections(previous: Dataset | null, next: Dataset): number {
  if (!previous) return 0;
  const before = indexPrices(previous.prices);
  let n = 0;
  for (const [key, now] of indexPrices(next.prices)) {
    const then = before.get(key);
    if (
      then &&
      then.unit === now.unit &&
      then.denomination === now.denomination &&
      then.currency === now.currency &&
      !amountsAgree(then.amount, now.amount) &&
      makerCorrects(then, now) &&
      !isMarketMove(then, now)
    )
      n++;
  }
  return n;
}

/** T495 ({@link correctsContext}), when `listed` can tell the listings' context windows now. */
function contextCorrected(then: PublishedPrice, listed: Partial<Pick<ListedIndex, "listingNow">> | undefined): boolean {
  const listingNow = listed?.listingNow?.bind(listed);
  return listingNow !== undefined && correctsContext(then, { listingNow });
}

/** When the listings of a graced price went (T85, T174): the earliest `absentSince` of its evidence, else this run. */
function removedAt(then: PublishedPrice, runTime: string): string {
  const gone = then.observations.flatMap((o) => (o.absentSince ? [o.absentSince] : []));
  return gone.length > 0 ? gone.sort()[0]! : runTime;
}

/**
 * When a market move happened (T174): the earliest run in which a source now backing the new amount
 * changed to it (`since`), after the old amount took effect; this run when none did earlier. A move that a later run confirms is dated when the first payload showed it.
 */
function movedAt(then: PublishedPrice, now: PublishedPrice, runTime: string): string {
  let at = runTime;
  for (const o of now.observations) {
    if (!o.since || !amountsAgree(o.amount, now.amount)) continue;
    if (o.since > then.effectiveFrom && o.since < at) at = o.since;
  }
  return at;
}

/** A `unit_change` between credit and currency, with the price it is about now. */
interface PlanTurn {
  readonly change: ChangeRecord;
  readonly price: PublishedPrice;
}

/**
 * A plan's included usage turning into money prices (or back) is one change per model and kind of
 * dimension (T177): of the `unit_change` rows of one model, channel, seller and modality whose
 * denomination changed between credit and currency, the row of the headline dimension (input before
 * output, no cache, standard tier, no bracket, fewest qualifiers) stands for the others, which are
 * left out of the feed (their new prices are on the model). GitHub Copilot moving to list prices is
 * then one row per model, not one per dimension.
 */
function foldPlanTurns(changes: readonly ChangeRecord[], turns: readonly PlanTurn[]): ChangeRecord[] {
  if (turns.length === 0) return [...changes];
  const groups = new Map<string, { change: ChangeRecord; rank: number }[]>();
  for (const { change, price } of turns) {
    const group = `${price.modelId}|${price.channel}|${price.seller}|${price.modality}`;
    const rank =
      (price.direction === "input" ? 0 : price.direction === "output" ? 1 : 2) * 1000 +
      (price.cache === "none" ? 0 : 100) +
      (price.tier === "standard" ? 0 : 10) +
      (price.contextMin === 0 ? 0 : 5) +
      Object.keys(price.qualifiers).length;
    groups.set(group, [...(groups.get(group) ?? []), { change, rank }]);
  }
  const folded = new Set<ChangeRecord>();
  for (const members of groups.values()) {
    members.sort((a, b) => a.rank - b.rank || compareChanges(a.change, b.change));
    for (const m of members.slice(1)) folded.add(m.change);
  }
  return changes.filter((c) => !folded.has(c));
}

/** Factor from which a change of the published amount is never a `reference_changed` (T176). */
export const JUMP_FACTOR = 5;

/** True when `now` moves `then`'s amount by {@link JUMP_FACTOR}× or more, either way (both positive, same unit). */
export function jumps(
  then: Pick<PublishedPrice, "amount" | "unit">,
  now: Pick<PublishedPrice, "amount" | "unit">,
): boolean {
  if (!(then.amount > 0) || !(now.amount > 0) || then.unit !== now.unit) return false;
  const ratio = then.amount > now.amount ? then.amount / now.amount : now.amount / then.amount;
  return ratio >= JUMP_FACTOR;
}

/**
 * True when a jump that is no market move corrects an earlier error (T176): the new amount is the
 * seller's own fresh list (`verified`), or at least two sources state it and more than still state
 * the amount it replaces (LiteLLM's lone 1.3 for Titan Text Express against genai-prices' and
 * Portkey's 0.2).
 */
export function corrects(
  then: PublishedPrice,
  now: Pick<PublishedPrice, "amount" | "confidence" | "observations">,
): boolean {
  if (now.confidence === "verified") return true;
  const backing = now.observations.filter((o) => amountsAgree(o.amount, now.amount)).length;
  const old = now.observations.filter((o) => amountsAgree(o.amount, then.amount)).length;
  return backing >= 2 && backing > old;
}

/**
 * T83: an amount change is a market move only when the evidence moved: sources that backed the old
 * amount last run back the new one now — two or more of them, or the seller's own price list, or a
 * lone source nobody contradicts — and no source had the new amount all along. Otherwise
 * (a source correcting itself toward the others, another source taking over, a listing gone from
 * one source, another listing of the same source taking over, T87) the published amount changed by
 * reconciliation, not by the market: `reference_changed` with both amounts (T83).
 */
export function isMarketMove(then: PublishedPrice, now: PublishedPrice): boolean {
  const before = new Map(then.observations.map((o) => [o.source, o]));
  const continuing = now.observations.filter((o) => o.fresh && before.has(o.source));
  // A source now quoting another of its listings (another spelling took over) did not move (T87).
  const moved = continuing.filter(
    (o) =>
      sameListing(before.get(o.source)!, o) &&
      amountsAgree(before.get(o.source)!.amount, then.amount) &&
      amountsAgree(o.amount, now.amount),
  );
  // The seller's own price list (its fresh authoritative source) moving to the new amount, the
  // same way the published amount goes, is the market, whatever another source had us publish
  // meanwhile (Devstral 2 on OpenRouter 0.05 → 0.4 while a run without OpenRouter had published the
  // others' 0.15) (T88).
  const seller = continuing.find((o) => o.authoritative && amountsAgree(o.amount, now.amount));
  const sellerBefore = seller && before.get(seller.source)!;
  if (
    seller &&
    sellerBefore &&
    sameListing(sellerBefore, seller) &&
    !amountsAgree(sellerBefore.amount, now.amount) &&
    sellerBefore.amount < now.amount === then.amount < now.amount
  )
    return true;
  if (moved.length === 0) return coherentlyMoved(then, now);
  const movers = new Set(moved.map((o) => o.source));
  // More digits of the same amount is no move: resellers' 0.13 for OpenAI's 0.125 cache read became
  // 0.125, Cloudflare's 0.56 became 0.555 (T89).
  if (moved.every((o) => refinesPrecision(before.get(o.source)!.amount, o.amount))) return false;
  // Free turning paid, by the source that said it was free, is a move (Devstral 2); a paid price
  // turning 0 needs a second source (a lone 0 is more often a placeholder than a free tier).
  // (a reseller's 0 is a placeholder unless its listing is a `:free` variant)
  if (then.amount === 0) return now.channel === "direct" || then.qualifiers.variant === "free";
  // A source that had the new amount all along (it never changed it while we watched) makes this a
  // correction toward it; one that moved to it in an earlier run only saw the move first.
  if (then.observations.some((o) => !movers.has(o.source) && amountsAgree(o.amount, now.amount) && !o.since))
    return false;
  // Corroboration: sources that moved to the new amount in an earlier run (they saw it first), and
  // sources first seen now at the new amount.
  const early = then.observations.filter((o) => !movers.has(o.source) && o.since && amountsAgree(o.amount, now.amount));
  const joined = now.observations.filter((o) => o.fresh && !before.has(o.source) && amountsAgree(o.amount, now.amount));
  if (moved.length + early.length + joined.length >= 2 || now.confidence === "verified") return true;
  if (now.amount === 0) return false;
  // A lone mover is the market when nobody contradicts it with evidence as fresh: every source that
  // still states the old amount lags its move (T170).
  return continuing.every(
    (o) => movers.has(o.source) || o.lagging === true || !amountsAgree(before.get(o.source)!.amount, then.amount),
  );
}

/**
 * T170: the new amount came with a coherent move — a source left another amount for it (maker-wide
 * or corroborated, `movedFrom`) after the old amount took effect, quoting the same listing — and
 * every source still stating the old amount lags that move (Portkey's 1.82 for qwen3-235b-a22b on
 * OpenRouter, 2026-03, against genai-prices' unchanged 0.6).
 */
function coherentlyMoved(then: PublishedPrice, now: PublishedPrice): boolean {
  const before = new Map(then.observations.map((o) => [o.source, o]));
  const mover = now.observations.some(
    (o) =>
      o.movedFrom !== undefined &&
      o.since !== undefined &&
      o.since > then.effectiveFrom &&
      amountsAgree(o.amount, now.amount) &&
      (!before.has(o.source) || sameListing(before.get(o.source)!, o)),
  );
  return mover && now.observations.every((o) => !o.fresh || !amountsAgree(o.amount, then.amount) || o.lagging === true);
}

/**
 * True when `next` states `previous` with more digits: `previous` has at least two decimals and is
 * `next` rounded to them (0.13 → 0.125, 0.56 → 0.555, 0.01 → 0.0136); a source that rounded cannot
 * have shown a move inside its own rounding (T89).
 */
export function refinesPrecision(previous: number, next: number): boolean {
  const places = decimals(previous);
  if (places < 2 || decimals(next) <= places) return false;
  return Math.abs(next - previous) <= 0.5 * 10 ** -places * (1 + 1e-9);
}

/** Digits after the decimal point of an amount as JSON writes it (D7: at most 10 significant). */
function decimals(x: number): number {
  const [mantissa, exponent] = x.toExponential().split("e") as [string, string];
  const digits = mantissa.replace("-", "").split(".")[1]?.length ?? 0;
  return Math.max(0, digits - Number(exponent));
}

/** Both statements quote the same listing of their source (or one predates listings being kept). */
function sameListing(a: PriceEvidence, b: PriceEvidence): boolean {
  return a.listing === undefined || b.listing === undefined || a.listing === b.listing;
}

/** D5: (new − old) / old × 100 rounded to 2 decimals; null when old is 0. */
export function deltaPct(oldAmount: number, newAmount: number): number | null {
  if (oldAmount === 0) return null;
  return Math.round(roundAmount(((newAmount - oldAmount) / oldAmount) * 100) * 100) / 100;
}

/**
 * The history points a run adds (D17): for every direct price of `next` whose amount differs from
 * its series' last point (or that starts a series). `lastPoints` holds the last amount per
 * `modelId|seriesKey` before this run. Equal consecutive amounts are folded (api-v1.md point rule 2).
 */
export function newHistoryPoints(next: Dataset, lastPoints: ReadonlyMap<string, number>): HistoryPoint[] {
  const date = next.run.datasetVersion.slice(0, 10);
  const seq = Date.parse(next.run.datasetVersion) % 86_400_000;
  const points: HistoryPoint[] = [];
  for (const p of next.prices) {
    if (p.channel !== "direct") continue;
    const key = seriesKey(p);
    if (lastPoints.get(`${p.modelId}|${key}`) === p.amount) continue;
    points.push({
      modelId: p.modelId,
      seriesKey: key,
      label: p.label,
      displayUnit: p.displayUnit,
      date,
      amount: p.amount,
      seq,
      recordedBy: next.run.id,
    });
  }
  return points;
}

/** Identity of a price across versions without its unit (so a unit change is one change, not two). */
function changeKey(p: PublishedPrice): string {
  return `${p.modelId}|${p.channel}|${p.seller}|${dimensionKey(p)}`;
}

function sellingKey(p: PublishedPrice): string {
  return `${p.modelId}|${p.channel}|${p.seller}`;
}

function indexPrices(prices: readonly PublishedPrice[]): Map<string, PublishedPrice> {
  const map = new Map<string, PublishedPrice>();
  for (const p of prices) {
    const key = changeKey(p);
    // Two units of one dimension at once (rare, T6): keep the first in publication order.
    if (!map.has(key)) map.set(key, p);
  }
  return map;
}

/**
 * The model and provider display names of a model id, looked up in `next` then `previous` (the id
 * and the id's provider slug when neither has it).
 */
export function namesOf(next: Dataset, previous: Dataset): (id: string) => { model: string; provider: string } {
  const models = new Map([...previous.models, ...next.models].map((m) => [m.id, m]));
  const providers = new Map([...previous.providers, ...next.providers].map((p) => [p.slug, p.name]));
  return (id: string) => {
    const m = models.get(id);
    const provider = m?.provider ?? id.split("/")[0] ?? id;
    return { model: m?.name ?? id, provider: providers.get(provider) ?? provider };
  };
}

/** A change record of `kind` for price `p`, its names from {@link namesOf}; amounts in `p`'s unit. */
export function changeRecordOf(
  kind: ChangeRecord["kind"],
  p: PublishedPrice,
  names: { model: string; provider: string },
  amounts: Pick<ChangeRecord, "oldAmount" | "newAmount" | "deltaPct" | "occurredAt">,
): ChangeRecord {
  return {
    kind,
    modelId: p.modelId,
    modelName: names.model,
    providerName: names.provider,
    channel: p.channel,
    seller: p.seller,
    label: p.label,
    displayUnit: p.displayUnit,
    ...amounts,
  };
}

function compareChanges(a: ChangeRecord, b: ChangeRecord): number {
  return (
    (a.modelId < b.modelId ? -1 : a.modelId > b.modelId ? 1 : 0) ||
    (a.channel < b.channel ? -1 : a.channel > b.channel ? 1 : 0) ||
    (a.seller < b.seller ? -1 : a.seller > b.seller ? 1 : 0) ||
    (a.label < b.label ? -1 : a.label > b.label ? 1 : 0)
  );
}
