import { orgMaker } from "../maker.js";
import { type Item, modelOf, type Placement, slugFor } from "../placement.js";
import type { ResolvedListing } from "../resolve.js";
import { keyOf, parseSpelling } from "../spelling.js";
import { saleOf } from "./channel.js";
import { finalId, type IdentityState } from "./state.js";

/**
 * Pass 6 (T280): every placement becomes a resolved listing under its final model id (after rule 5's
 * merges), with its channel (D2) and qualifiers; every spelling that may answer as the model joins
 * its alias set (D1), the moving aliases that lost their vote included. Fills `resolved`,
 * `aliasSets`, `slugsByMaker`.
 */
export function resolveListings(state: IdentityState): void {
  const makerSells = modelsTheMakerSells(state);
  for (const [item, placed] of state.placements) {
    const listing = resolvedOf(state, item, placed, makerSells);
    state.resolved.push(listing);
    addSpellings(state, item, listing.maker, listing.modelId);
    const slugs = state.slugsByMaker.get(listing.maker) ?? new Set<string>();
    slugs.add(listing.modelId.slice(listing.maker.length + 1));
    state.slugsByMaker.set(listing.maker, slugs);
  }
  for (const [id, core] of state.pointerAliases) state.aliasSets.get(finalId(state, id))?.add(core);
}

/** The final ids of the models the maker's own API (seller = maker) lists in this run (T325). */
function modelsTheMakerSells(state: IdentityState): Set<string> {
  const ids = new Set<string>();
  for (const [item, placed] of state.placements) {
    const maker = modelOf(item, state.mirrors);
    if (item.listing.seller === maker) ids.add(finalId(state, `${maker}/${placed.slug}`));
  }
  return ids;
}

/** The resolved listing of a placement: final model id, channel, qualifiers, and whether it spells the slug exactly. */
function resolvedOf(
  state: IdentityState,
  item: Item,
  placed: Placement,
  makerSells: ReadonlySet<string>,
): ResolvedListing {
  const maker = modelOf(item, state.mirrors);
  const modelId = finalId(state, `${maker}/${placed.slug}`);
  const { channel, seller, qualified } = saleOf(item.listing.seller, maker, makerSells.has(modelId));
  // A router's variant (`:free`) says more about the price than a serving suffix does: it wins.
  const qualifiers: Record<string, string> = { ...placed.qualifiers, ...item.spelling.qualifiers };
  // A maker's platform under another seller slug (BytePlus for Seed) is named in direct (§6); its
  // own cloud (Bedrock for Nova) is not: that is the maker's price (T325).
  if (qualified) qualifiers.seller = item.listing.seller;
  const slug = modelId.slice(maker.length + 1);
  return {
    source: item.source,
    listing: item.listing,
    modelId,
    maker,
    channel,
    seller,
    qualifiers,
    canonicalSpelling:
      item.spelling.key === keyOf(slug) &&
      Object.keys(placed.qualifiers).length === 0 &&
      item.spelling.qualifiers.fine_tuning === undefined,
  };
}

/** Adds the spellings `item` gives model `modelId` of `maker` to its alias set (D1). */
function addSpellings(state: IdentityState, item: Item, maker: string, modelId: string): void {
  const set = state.aliasSets.get(modelId) ?? new Set<string>();
  // D1: the spellings as sources write them; never one whose organisation names another maker (§5).
  const ownOrg = item.spelling.org ? orgMaker(item.spelling.org) : null;
  if (ownOrg === null || ownOrg === maker) {
    set.add(item.listing.model);
    // …and as the id the spelling would have founded (`meta.llama4-maverick-17b-instruct-v1:0`
    // answers as `meta/llama4-maverick-17b-instruct`, the id an earlier version gave it; issue 25 §1)
    set.add(slugFor(item.spelling.core, item.spelling.key));
  }
  // A fine-tuning id also answers as the slug earlier versions gave it (`ft:gpt-4o` → `ft-gpt-4o`, T181).
  if (item.spelling.qualifiers.fine_tuning && /^ft:/i.test(item.listing.model))
    set.add(slugFor(`ft-${item.spelling.core}`, keyOf(`ft-${item.spelling.core}`)));
  // A source's own alias claims (genai-prices match rules) count only where they name no other model.
  for (const alias of item.listing.aliases ?? []) {
    const spelling = parseSpelling(alias);
    const named = spelling.org ? orgMaker(spelling.org) : null;
    const owner = state.catalogues.get(maker)?.find(spelling.key);
    if ((named === null || named === maker) && (owner === undefined || finalId(state, `${maker}/${owner}`) === modelId))
      set.add(alias);
  }
  state.aliasSets.set(modelId, set);
}
