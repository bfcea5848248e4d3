import type { Listing, SourceId } from "../../../domain/observation.js";
import { MakerCatalogue } from "../catalogue.js";
import { familyOf } from "../maker.js";
import type { Item, Placement } from "../placement.js";
import type { IdentityMemory, ResolvedListing, SourceListings, UnmatchedListing } from "../resolve.js";
import type { AliasStatement } from "./alias-snapshots.js";

/**
 * The explicit state the passes of identity resolution share (issue 34 §4, T280): each pass reads
 * what the passes before it wrote and adds its own part. Containers are created once, here, and
 * filled in place, so the order of every insertion (the order of `resolved`, `unmatched`, aliases)
 * is the order of the passes. Pure.
 */

/** A listing no maker reading took (no organisation, family or maker seller): placed across makers or unmatched. */
export type Orphan = Omit<Item, "maker" | "evidence" | "weights">;

/** What the passes of {@link resolveIdentities} share; see each field for the pass that fills it. */
export interface IdentityState {
  /** The run's input: each source's listings (read by `readMakers`). */
  readonly inputs: readonly SourceListings[];
  /** What the previous version tells this run (moving aliases' targets, T184). */
  readonly memory: IdentityMemory;
  /** Every seller of the run, of every source: a maker seller is evidence of its maker (`maker.ts`). */
  readonly sellers: Set<string>;
  /** Listings no model took, with their reasons, in the order the passes gave up on them (issue 12 §4). */
  readonly unmatched: UnmatchedListing[];
  /** Listings whose maker was read, sorted by maker, key, dotted spelling first, source, seller (`readMakers`). */
  readonly items: Item[];
  /** Listings whose maker nothing names (`readMakers`; `placeOrphans` places them or counts them). */
  readonly orphans: Orphan[];
  /** maker → the catalogue of its models and the keys and names that reach them (filled by every founding pass). */
  readonly catalogues: Map<string, MakerCatalogue>;
  /** listing → where it landed under its maker (model slug, matched key, qualifiers); the heart of the result. */
  readonly placements: Map<Item, Placement>;
  /** Makers that list models themselves in this run (`foundOwnModels`): their org listings found less. */
  readonly ownMakers: Set<string>;
  /** Own listings of a moving alias whose last snapshot is not listed in this run: never attached (T184). */
  readonly heldBack: Set<Item>;
  /** publisher org → the display name a source gave it (`thedrummer` → `TheDrummer`; `placePublishers`). */
  readonly publisherNames: Map<string, string>;
  /** A publisher's re-upload → the family maker whose model it mirrors (`placePublishers`; see `modelOf`). */
  readonly mirrors: Map<Item, string>;
  /** Listings no pass through `attachTheRest` placed (`attachTheRest`; later passes place or count them). */
  readonly unplaced: Item[];
  /** [model id, core spelling] of moving aliases that lost their vote: still aliases of the model (`checkMovingAliases`). */
  readonly pointerAliases: [id: string, core: string][];
  /** model id → the id it merged into (rule 5, `mergeNames`); chains are followed by {@link finalId}. */
  readonly renames: Map<string, string>;
  /** The resolved listings, in placement order (`resolveListings`). */
  readonly resolved: ResolvedListing[];
  /** model id → every spelling that may answer as it, before other models' slugs are taken out (`resolveListings`). */
  readonly aliasSets: Map<string, Set<string>>;
  /** maker → the slugs of its models that carry a listing (`resolveListings`). */
  readonly slugsByMaker: Map<string, Set<string>>;
  /** API alias model id → the listings that name the snapshot it serves (`findAliasStatements`, T327). */
  readonly aliasStatements: Map<string, AliasStatement[]>;
}

/** A fresh state for one run: the inputs and the memory, every container empty. */
export function newState(inputs: readonly SourceListings[], memory: IdentityMemory): IdentityState {
  return {
    inputs,
    memory,
    sellers: new Set(),
    unmatched: [],
    items: [],
    orphans: [],
    catalogues: new Map(),
    placements: new Map(),
    ownMakers: new Set(),
    heldBack: new Set(),
    publisherNames: new Map(),
    mirrors: new Map(),
    unplaced: [],
    pointerAliases: [],
    renames: new Map(),
    resolved: [],
    aliasSets: new Map(),
    slugsByMaker: new Map(),
    aliasStatements: new Map(),
  };
}

/** Counts `listing` of `source` unmatched with `reason` and the nearest model id, if any. */
export function miss(
  state: IdentityState,
  source: SourceId,
  listing: Listing,
  reason: string,
  nearest: string | null = null,
): void {
  state.unmatched.push({
    source,
    seller: listing.seller,
    model: listing.model,
    reason,
    nearest,
    observations: listing.prices.length,
  });
}

/** The catalogue of `maker`'s models, created empty on first use. */
export function catalogueOf(state: IdentityState, maker: string): MakerCatalogue {
  let c = state.catalogues.get(maker);
  if (!c) {
    c = new MakerCatalogue();
    state.catalogues.set(maker, c);
  }
  return c;
}

/** A test of whether a key names a family of `maker` (the family table), for `strippedForms`. */
export function namesFamily(maker: string): (key: string) => boolean {
  return (key: string) => familyOf(key) === maker;
}

/** The id `id` ends up as after rule 5's merges (at most five renames followed). */
export function finalId(state: IdentityState, id: string): string {
  let x = id;
  for (let i = 0; i < 5 && state.renames.has(x); i++) x = state.renames.get(x)!;
  return x;
}
