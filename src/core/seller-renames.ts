import { NAMED_RESELLERS } from "../domain/channel.js";
import type { Dataset, PublishedPrice } from "../domain/dataset.js";
import type { Listing, SourceId } from "../domain/observation.js";
import { isMaker } from "../domain/sellers.js";

/**
 * Seller identity across runs (issue 52 §1, T493). Pure.
 *
 * A seller that leaves a source's payload in the same run as a new seller appears in it, where the
 * new one lists the same listings at the same amounts, is the old seller renamed, not one seller's
 * prices removed and another's added: models.dev's provider `firmware` became `frogbot` on
 * 2026-06-01 (same API host `app.frogbot.ai`, 20 of its 25 models kept at the same prices). The
 * run reads its previous version as if the old name had always been the new one
 * ({@link withSellerRenames}), so a kept offer is no change, a dropped one a removal and a new one
 * an addition, as for any seller; the run records the rename once, both names kept
 * (`RunSummary.sellerRenames`).
 *
 * The API base URL (T515): where the source states the seller's API base URL on both sides (the
 * old name's in the source's last good listings, the new name's now: models.dev's provider `api`),
 * they must be the same URL; a different one is another seller, however alike the listings. Where a
 * side states none (a source that gives none, or last good listings stored before T515), the
 * listings rule decides alone.
 */
export interface SellerRename {
  readonly source: SourceId;
  /** The seller slug of the previous version. */
  readonly from: string;
  /** The seller slug now. */
  readonly to: string;
  /** Listings the two names list alike (same spelling, same amounts). */
  readonly sameListings: number;
  /** The API base URL both names state (T515); null when a side states none (the listings rule alone). */
  readonly sameApi: string | null;
}

/** Share of each name's listings the other must list alike (same spelling, same amounts). */
export const RENAME_OVERLAP = 2 / 3;
/** Fewest listings listed alike for a rename. */
export const RENAME_MIN_LISTINGS = 3;

/**
 * The seller renames of this run: per fresh source, each seller it listed last version (by the
 * previous version's evidence) and lists no more, paired with the one seller it lists now and did not
 * then that lists at least {@link RENAME_OVERLAP} of each one's listings alike (the same spelling at
 * the same set of amounts, at least {@link RENAME_MIN_LISTINGS}) and states no other API base URL
 * (T515). Makers and the named reseller channels are never renamed (their channel is their name).
 * Ambiguous pairs are no rename.
 * @param lastGood each source's last good listings (the run's carried state): the old names' API base URLs
 */
export function detectSellerRenames(
  previous: Dataset,
  sources: readonly { source: SourceId; fresh: boolean; listings: readonly Listing[] }[],
  lastGood: ReadonlyMap<SourceId, readonly Listing[]> = new Map(),
): SellerRename[] {
  const renames: SellerRename[] = [];
  for (const s of sources) {
    if (!s.fresh) continue;
    const then = listedThen(previous.prices, s.source);
    const now = listedNow(s.listings);
    const apiThen = sellerApis(lastGood.get(s.source) ?? []);
    const apiNow = sellerApis(s.listings);
    const gone = [...then.keys()].filter((seller) => !now.has(seller) && renameable(seller));
    const appeared = [...now.keys()].filter((seller) => !then.has(seller) && renameable(seller));
    for (const from of gone) {
      const matches = appeared.flatMap((to) => {
        const same = alike(then.get(from)!, now.get(to)!);
        const api = sameApi(apiThen.get(from), apiNow.get(to));
        return api !== false &&
          same >= RENAME_MIN_LISTINGS &&
          same >= RENAME_OVERLAP * then.get(from)!.size &&
          same >= RENAME_OVERLAP * now.get(to)!.size
          ? [{ source: s.source, from, to, sameListings: same, sameApi: api }]
          : [];
      });
      if (matches.length === 1) renames.push(matches[0]!);
    }
  }
  // One new name takes one old name: a name two old ones would take is no rename.
  return renames.filter((r) => renames.filter((o) => o.source === r.source && o.to === r.to).length === 1);
}

/**
 * The previous version with each renamed seller's prices under the new name (seller, its `seller`
 * qualifier and the label that shows it), as if it had always been called so.
 */
export function withSellerRenames(previous: Dataset, renames: readonly SellerRename[]): Dataset {
  if (renames.length === 0) return previous;
  const to = new Map(renames.map((r) => [r.from, r.to]));
  return { ...previous, prices: previous.prices.map((p) => renamed(p, to.get(p.seller))) };
}

function renamed(p: PublishedPrice, to: string | undefined): PublishedPrice {
  if (to === undefined) return p;
  const from = p.seller;
  return {
    ...p,
    seller: to,
    qualifiers: p.qualifiers.seller === from ? { ...p.qualifiers, seller: to } : p.qualifiers,
    label: p.label.replace(`seller: ${from}`, `seller: ${to}`),
  };
}

/** Per seller, the API base URLs its listings state, as compared (host and path, lower case, no trailing `/`). */
function sellerApis(listings: readonly Listing[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const l of listings)
    if (l.sellerApi) out.set(l.seller, (out.get(l.seller) ?? new Set()).add(comparableApi(l.sellerApi)));
  return out;
}

/** `https://App.Frogbot.ai/api/v1/` → `app.frogbot.ai/api/v1`; a value that is no URL, trimmed and lower-cased. */
function comparableApi(url: string): string {
  const trimmed = url.trim().toLowerCase();
  return trimmed.replace(/^[a-z][a-z0-9+.-]*:\/\//, "").replace(/\/+$/, "");
}

/**
 * The URL both sides state; null when a side states none (the listings decide alone); false when
 * both state one and they share none.
 */
function sameApi(then: ReadonlySet<string> | undefined, now: ReadonlySet<string> | undefined): string | null | false {
  if (!then || !now) return null;
  for (const url of now) if (then.has(url)) return url;
  return false;
}

function renameable(seller: string): boolean {
  return !isMaker(seller) && !Object.values(NAMED_RESELLERS).some((r) => r.seller === seller);
}

/** Per seller, each listing `source` stated last version → the set of its amounts (sorted, joined). */
function listedThen(prices: readonly PublishedPrice[], source: SourceId): Map<string, Map<string, string>> {
  const amounts = new Map<string, Map<string, Set<number>>>();
  for (const p of prices)
    for (const o of p.observations) {
      if (o.source !== source || !o.fresh || o.listing === undefined) continue;
      const listings = amounts.get(p.seller) ?? new Map<string, Set<number>>();
      listings.set(o.listing, (listings.get(o.listing) ?? new Set()).add(o.amount));
      amounts.set(p.seller, listings);
    }
  return new Map([...amounts].map(([seller, l]) => [seller, new Map([...l].map(([m, a]) => [m, amountSet(a)]))]));
}

/** Per seller, each listing now → the set of its amounts (sorted, joined). */
function listedNow(listings: readonly Listing[]): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const l of listings) {
    if (l.prices.length === 0) continue;
    const bySeller = out.get(l.seller) ?? new Map<string, string>();
    bySeller.set(l.model, amountSet(new Set(l.prices.map((p) => p.amount))));
    out.set(l.seller, bySeller);
  }
  return out;
}

function amountSet(amounts: ReadonlySet<number>): string {
  return [...amounts].sort((a, b) => a - b).join(",");
}

/** Listings both maps hold at the same amounts. */
function alike(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): number {
  let n = 0;
  for (const [model, amounts] of a) if (b.get(model) === amounts) n++;
  return n;
}
