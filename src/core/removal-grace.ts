import type { PublishedModel, PublishedPrice } from "../domain/dataset.js";
import { priceKey } from "../domain/dataset.js";
import { dimensionKey } from "../domain/dimension.js";
import type { SourceId } from "../domain/observation.js";
import { comparePrices } from "../domain/price-order.js";
import type { BuildInput } from "./build-input.js";
import { heldRemoval } from "./held-removals.js";
import type { ListedIndex } from "./listed-index.js";
import { type ListingIndex, movedTo } from "./moved-listings.js";

/**
 * T85: a price gone from every source is served one more run, with `staleSince` and every
 * observation marked not fresh, and removed only when a second run in a row has no fresh evidence
 * for it. Its model must still be listed and its label free in its channel. Not graced (T87, T173,
 * T175): a price whose listing moved to another model (its evidence went elsewhere), a context
 * bracket (a bracket no source states goes in that run), and a price a source still lists but the
 * guards quarantined (its evidence is there and was judged). A graced price whose listings are gone
 * from their payloads records the run they went (`absentSince`): its removal is dated then (T174).
 * A price whose recorders dropped their listings while another source still lists the offer is
 * held instead (issue 52 §3, T495, `held-removals.ts`): served on, stale, every run until that source
 * drops the offer too; returned per recorder, counted `removal_held` in `/sources`.
 * Nor a price only makers' pages stated, each read fresh in this run and each first stating it in
 * its last good copy (issue 46 §4, T467): the copy that added it was corrected by the one read now,
 * so it is withdrawn now (`price_removed`), not served on at `medium`. A price a page stated for
 * longer keeps its grace (a row the page made unreadable is not a withdrawal).
 */
export function withRemovalGrace(
  prices: PublishedPrice[],
  models: readonly PublishedModel[],
  input: BuildInput,
  listings: ListingIndex,
  listed: ListedIndex,
): { prices: PublishedPrice[]; held: Map<SourceId, number> } {
  const held = new Map<SourceId, number>();
  const prior = input.prior?.published;
  if (!prior || prior.length === 0) return { prices, held };
  const keys = new Set(prices.map((p) => priceKey(p, dimensionKey(p))));
  const labels = new Set(prices.map((p) => `${p.modelId}|${p.channel}|${p.seller}|${p.label}`));
  const listedModels = new Set(models.filter((m) => m.listed).map((m) => m.id));
  const pagesReadNow = new Set<string>();
  for (const s of input.sources)
    if (s.firstPartyPage && s.fresh) for (const l of s.listings) pagesReadNow.add(`${s.source}\u0000${l.model}`);
  const graced: PublishedPrice[] = [];
  for (const p of prior) {
    const key = priceKey(p, dimensionKey(p));
    if (keys.has(key) || !listedModels.has(p.modelId)) continue;
    const label = `${p.modelId}|${p.channel}|${p.seller}|${p.label}`;
    // Another source still lists the offer: the recorders' drop waits, run after run (T495).
    const waiting = p.contextMin > 0 ? null : heldRemoval(p, listed);
    if (!waiting && !p.observations.some((o) => o.fresh)) continue; // already graced once: now removed
    if (movedTo(p, listings) !== null) continue; // its listing backs another model now (T87)
    if (p.contextMin > 0) continue; // a bracket no source states any more goes now (T173)
    if (correctedAway(p, pagesReadNow, input)) continue; // the maker's page read now took it back (T467)
    const where = listed.whereListed(p);
    if (where === "placed") continue; // still listed, quarantined by the guards (T175)
    if (labels.has(label)) continue;
    labels.add(label);
    for (const source of waiting ?? []) held.set(source, (held.get(source) ?? 0) + 1);
    graced.push({
      ...staled(p, input.runTime),
      // Gone from the payloads now (not merely unplaced by identity): the market moved in this run;
      // a held removal has not happened yet (it is dated when the last listing goes, T495).
      observations: p.observations.map(({ absentSince, ...o }) => ({
        ...o,
        fresh: false,
        ...(waiting ? {} : where === "absent" ? { absentSince: absentSince ?? input.runTime } : {}),
      })),
    });
  }
  return { prices: graced.length === 0 ? prices : [...prices, ...graced].sort(comparePrices), held };
}

/**
 * Whether only makers' pages read now stated `p`, it took effect with their last good copies (the
 * ones before this), and each still lists the model (T467): what those copies added, their
 * successors took back. A page that no longer lists the model at all (a row made unreadable) took
 * nothing back: the grace holds. `pagesReadNow`: `<source>\0<listing>` of each page parsed now.
 */
function correctedAway(p: PublishedPrice, pagesReadNow: ReadonlySet<string>, input: BuildInput): boolean {
  if (p.sources.length === 0) return false;
  return p.sources.every((s) => {
    const listing = p.observations.find((o) => o.source === s)?.listing;
    return (
      listing !== undefined &&
      pagesReadNow.has(`${s}\u0000${listing}`) &&
      p.effectiveFrom === input.prior?.sources.get(s)?.lastSuccessAt
    );
  });
}

/** `p` served on without fresh evidence: stale since this run (or before), at most `medium` (T75, T85). */
function staled(p: PublishedPrice, runTime: string): PublishedPrice {
  return {
    ...p,
    ...(p.confidence === "verified" || p.confidence === "high"
      ? { confidence: "medium" as const, confidenceScore: Math.min(p.confidenceScore, 0.749) }
      : {}),
    staleSince: p.staleSince ?? runTime,
  };
}
