import type { Channel } from "../../domain/channel.js";
import type { Listing, SourceId } from "../../domain/observation.js";
import { type KnownSpelling, screenIds } from "./canonical-id.js";
import { type AliasStatement, findAliasStatements } from "./passes/alias-snapshots.js";
import { attachTheRest } from "./passes/attach-rest.js";
import { mergeNames } from "./passes/merge-names.js";
import { checkMovingAliases } from "./passes/moving-aliases.js";
import { foundOrgModels } from "./passes/org-models.js";
import { placeOrphans } from "./passes/orphans.js";
import { foundOwnModels } from "./passes/own-models.js";
import { foundPlainReleases } from "./passes/plain-releases.js";
import { placePublishers } from "./passes/publishers.js";
import { readMakers } from "./passes/read-makers.js";
import { resolveListings } from "./passes/resolved.js";
import { resultOf } from "./passes/result.js";
import { dropRouterVariants } from "./passes/router-variants.js";
import { type IdentityState, miss, newState } from "./passes/state.js";
import { placeUnplaced } from "./passes/unplaced.js";
import { isMoving, parseSpelling } from "./spelling.js";

/**
 * Identity resolution (D1, D2; issue 12 T60–T66): every listing of a run lands on one model
 * `<maker>/<slug>` and one channel, or is counted unmatched with its reason. Pure.
 *
 * 1. Each listing's maker is read from evidence (`maker.ts`): its maker's own listing, the maker's
 *    organisation in the spelling, a third party's organisation (its fine-tune), or the family table.
 * 2. Models are founded by the maker's own listings (dated snapshots each a model; undated aliases
 *    join the snapshot whose prices they repeat), then by open-weights evidence (the maker's org in
 *    the spelling with open weights stated, or a maker that sells nothing itself), then by
 *    publishers (a third party's fine-tune under its publisher).
 * 3. Every other listing attaches to the model its spelling names (`MakerCatalogue.find`), first as
 *    spelled, then with a seller prefix or a serving suffix off (the suffix becomes a qualifier of
 *    that seller's price); a listing that names no model is unmatched, never founded.
 * 4. A moving alias (`-latest`) votes on a model only when the same source, in the same run, lists
 *    that model under a fixed spelling at the same prices (T64).
 * 5. Models of one maker with one display name whose keys agree but for order or loose tokens merge.
 */
export interface ResolvedListing {
  readonly source: SourceId;
  readonly listing: Listing;
  readonly modelId: string;
  readonly maker: string;
  readonly channel: Channel;
  /**
   * The seller the prices are published under (`PublishedPrice.seller`): the listing's seller, or the
   * maker where the seller is the maker's own cloud (Bedrock for Amazon's models, T325).
   */
  readonly seller: string;
  /** Qualifiers from the spelling (`region`, router or serving `variant`, `quantization`) plus `seller` in multi-seller channels (D2). */
  readonly qualifiers: Readonly<Record<string, string>>;
  /** True when this listing spells the model exactly as its canonical slug (its vote wins within a source). */
  readonly canonicalSpelling: boolean;
}

/** A listing no model could take, with the reason and the nearest model id (issue 12 §4). */
export interface UnmatchedListing {
  readonly source: SourceId;
  readonly seller: string;
  readonly model: string;
  readonly reason: string;
  readonly nearest: string | null;
  /** Price observations the listing carried (the sum check counts them). */
  readonly observations: number;
}

export interface IdentityResult {
  readonly resolved: readonly ResolvedListing[];
  /** model id → other spellings of it (D1 `aliases`), its own slug and other models' slugs excluded. */
  readonly aliases: ReadonlyMap<string, readonly string[]>;
  /** Listings no model took, per source (count), for `/sources` `unmatchedLastRun`. */
  readonly unresolved: ReadonlyMap<SourceId, number>;
  readonly unmatched: readonly UnmatchedListing[];
  /** The model id a spelling names under a maker now, for ids of earlier runs (T66), or null. */
  lookup(maker: string, slug: string): string | null;
  /** Publisher display names sources gave (`thedrummer` → `TheDrummer`). */
  readonly publisherNames: ReadonlyMap<string, string>;
  /**
   * API alias model id → the listings that say which snapshot it serves in this run (issue 36 §5,
   * T327); at the maker's price, the alias's direct prices are the snapshot's too (`servedSnapshots`).
   */
  readonly aliasStatements: ReadonlyMap<string, readonly AliasStatement[]>;
}

/** Input of {@link resolveIdentities}: each source's listings. */
export interface SourceListings {
  readonly source: SourceId;
  readonly listings: readonly Listing[];
  /**
   * The source spells models as their makers' API ids (a capability of the source, T61, T160):
   * its spelling is preferred when several spell one model. Absent means false.
   */
  readonly makerSpellings?: boolean;
}

export { type AliasStatement, behindAliases, servedSnapshots } from "./passes/alias-snapshots.js";
export { channelFor } from "./passes/channel.js";
export { isPlainRelease } from "./passes/plain-releases.js";
export { normalizeName } from "./placement.js";

/** What an earlier run tells this one (issue 25 §5). */
export interface IdentityMemory {
  /**
   * `<maker>/<moving alias key>` → the model id the moving alias (`mistral-small-latest`) pointed at
   * in the previous version: it never moves back to an older snapshot (T184).
   */
  readonly movingAliases?: ReadonlyMap<string, string>;
  /**
   * The previous version's spellings (ids, former ids, aliases, `knownSpellingsOf`): a lookalike of
   * one is refused like a lookalike of a spelling of the run (T316).
   */
  readonly knownSpellings?: readonly KnownSpelling[];
}

/**
 * The passes of identity resolution, in order (T280): each reads what the ones before it wrote into
 * the shared {@link IdentityState} (`passes/state.ts` says which pass fills which part).
 */
const PASSES: readonly ((state: IdentityState) => void)[] = [
  readMakers, // 1. each listing's maker, from evidence
  foundOwnModels, // 2a. the makers' own listings found models
  foundOrgModels, // 2b. open-weights evidence under the maker's organisation
  placePublishers, // 2c. publishers' fine-tunes, and their mirrors of makers' models
  attachTheRest, // 3. everything else attaches to the model its spelling names
  foundPlainReleases, // 3b. a host's plain release of an open-weights family founds
  placeUnplaced, // 3c. attach now, or one model of another maker, or unmatched
  placeOrphans, // 3d. listings without a maker: one model of any maker, or unmatched
  dropRouterVariants, // 3e. a router's variant filed under the maker is no maker's price
  checkMovingAliases, // 4. moving aliases vote only with same-run evidence of their target
  mergeNames, // 5. one maker, one display name, keys that agree: one model
  resolveListings, // 6. final ids, channels, qualifiers, alias sets
  findAliasStatements, // 7. the snapshot an API alias serves, where a source says so (T327)
];

/** Resolves every listing of a run; see the interface docs for the rules. Pure. */
export function resolveIdentities(given: readonly SourceListings[], memory: IdentityMemory = {}): IdentityResult {
  // Ids that are no canonical text (control, format, non-NFKC, lookalike) are never placed (T254, T255).
  const { inputs, refused } = screenIds(given, memory.knownSpellings);
  const state = newState(inputs, memory);
  for (const r of refused) miss(state, r.source, r.listing, r.reason);
  for (const pass of PASSES) pass(state);
  return resultOf(state);
}

/**
 * The moving aliases of a previous version's listed models (`<maker>/<alias key>` → model id), the
 * memory that keeps a moving alias from moving back (T184).
 */
export function movingAliasesOf(
  models: readonly {
    readonly id: string;
    readonly provider: string;
    readonly listed: boolean;
    readonly aliases: readonly string[];
  }[],
): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of models) {
    if (!m.listed) continue;
    for (const alias of m.aliases) {
      const key = parseSpelling(alias).key;
      if (isMoving(key)) out.set(`${m.provider}/${key}`, m.id);
    }
  }
  return out;
}
