import { closest } from "fastest-levenshtein";
import { type Channel, MULTI_SELLER_CHANNELS } from "../../domain/channel.js";
import type { Listing, SourceId } from "../../domain/observation.js";
import { channelOf } from "../../domain/sellers.js";
import { screenIds } from "./canonical-id.js";
import { MakerCatalogue } from "./catalogue.js";
import { foundOwn } from "./found-own.js";
import { familyOf, hostedMaker, isOpenWeightsFamily, orgMaker, platformMaker, readMaker } from "./maker.js";
import { mergeByName } from "./merge-by-name.js";
import { FAMILY_IDS } from "./overrides.js";
import {
  cmp,
  type Item,
  modelOf,
  namesAKind,
  normalizeName,
  type Placement,
  signatureOf,
  slugFor,
} from "./placement.js";
import { isMoving, keyOf, parseSpelling, type Spelling, strippedForms } from "./spelling.js";
import { SIZE_TOKEN, SNAPSHOT_DATE } from "./spelling-rules.js";

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

export { normalizeName } from "./placement.js";

/** What an earlier run tells this one (issue 25 §5). */
export interface IdentityMemory {
  /**
   * `<maker>/<moving alias key>` → the model id the moving alias (`mistral-small-latest`) pointed at
   * in the previous version: it never moves back to an older snapshot (T184).
   */
  readonly movingAliases?: ReadonlyMap<string, string>;
}

/** Resolves every listing of a run; see the interface docs for the rules. */
export function resolveIdentities(given: readonly SourceListings[], memory: IdentityMemory = {}): IdentityResult {
  // Ids that are no canonical text (control, format, non-NFKC, lookalike) are never placed (T254, T255).
  const { inputs, refused } = screenIds(given);
  const sellers = new Set<string>();
  for (const { listings } of inputs) for (const l of listings) sellers.add(l.seller);
  const unmatched: UnmatchedListing[] = [];
  const miss = (source: SourceId, listing: Listing, reason: string, nearest: string | null = null) =>
    unmatched.push({
      source,
      seller: listing.seller,
      model: listing.model,
      reason,
      nearest,
      observations: listing.prices.length,
    });
  for (const r of refused) miss(r.source, r.listing, r.reason);

  const items: Item[] = [];
  const orphans: Omit<Item, "maker" | "evidence" | "weights">[] = [];
  // What a seller says it serves under a spelling holds in every source that copies the spelling:
  // OpenRouter's own API names `deepseek/deepseek-chat` DeepSeek-V3's weights, so does every other
  // source's row of OpenRouter's `deepseek/deepseek-chat` (issue 25 §5).
  const servedAs = new Map<string, string>();
  for (const { listings } of inputs)
    for (const l of listings)
      if (l.huggingFaceId) servedAs.set(`${l.seller}|${parseSpelling(l.model).key}`, l.huggingFaceId);
  for (const { source, listings, makerSpellings = false } of inputs) {
    for (const listing of listings) {
      const spelling = parseSpelling(listing.model);
      const reading = readMaker(listing, spelling, sellers);
      if (reading === null) orphans.push({ source, makerSpellings, listing, spelling });
      else if ("excluded" in reading) miss(source, listing, reading.excluded);
      else
        items.push({
          source,
          makerSpellings,
          listing,
          spelling,
          maker: reading.maker,
          evidence: reading.evidence,
          weights: weightsSpelling(
            listing.huggingFaceId ?? servedAs.get(`${listing.seller}|${spelling.key}`) ?? null,
            reading.maker,
          ),
        });
    }
  }
  items.sort(
    (a, b) =>
      cmp(a.maker, b.maker) ||
      cmp(a.spelling.key, b.spelling.key) ||
      // Within one key, a dotted spelling (`llama-3.1-8b-instruct`, the makers' orthography) founds first.
      Number(b.spelling.core.includes(".")) - Number(a.spelling.core.includes(".")) ||
      cmp(a.source, b.source) ||
      cmp(a.listing.seller, b.listing.seller),
  );

  const catalogues = new Map<string, MakerCatalogue>();
  const catalogueOf = (maker: string) => {
    let c = catalogues.get(maker);
    if (!c) {
      c = new MakerCatalogue();
      catalogues.set(maker, c);
    }
    return c;
  };
  const placements = new Map<Item, Placement>();
  const namesFamily = (maker: string) => (key: string) => familyOf(key) === maker;

  // 2a. the makers' own listings found models
  const own = items.filter((i) => i.evidence === "own");
  const ownMakers = new Set(own.map((i) => i.maker));
  const pointers = new Map<string, Map<string, string>>();
  for (const [alias, id] of memory.movingAliases ?? []) {
    const maker = alias.slice(0, alias.indexOf("/"));
    if (!id.startsWith(`${maker}/`)) continue;
    const map = pointers.get(maker) ?? new Map<string, string>();
    map.set(alias.slice(maker.length + 1), keyOf(id.slice(maker.length + 1)));
    pointers.set(maker, map);
  }
  const heldBack = new Set<Item>();
  for (const maker of ownMakers) {
    const mine = own.filter((i) => i.maker === maker);
    const held = foundOwn(
      catalogueOf(maker),
      mine,
      placements,
      namesFamily(maker),
      pointers.get(maker),
      FAMILY_IDS[maker],
    );
    for (const item of mine)
      if (!placements.has(item) && held.has(item.spelling.key)) {
        heldBack.add(item);
        miss(
          item.source,
          item.listing,
          "moving alias: the snapshot it pointed at is not listed in this run, and it never moves back",
          `${maker}/${slugFor(held.get(item.spelling.key)!, held.get(item.spelling.key)!)}`,
        );
      }
  }

  // 2b. open-weights evidence, 2c. publishers; 3. everything else attaches
  const attach = (item: Item, maker = item.maker, loose = true, sizeless = loose): Placement | null => {
    const catalogue = catalogues.get(maker);
    if (!catalogue) return null;
    // The maker's weights the source names say which model a short id is (`meta-llama/llama-4-maverick`).
    const weights = item.weights
      ? (catalogue.exactly(item.weights.key) ?? catalogue.find(item.weights.key, loose, sizeless))
      : undefined;
    if (weights) return { slug: weights, key: item.spelling.key, qualifiers: {} };
    const slug = catalogue.find(item.spelling.key, loose, sizeless);
    if (slug) return { slug, key: item.spelling.key, qualifiers: {} };
    for (const form of strippedForms(item.spelling.key, namesFamily(maker))) {
      // A listing that may found its own model keeps a suffix that names a kind of model
      // (`ernie-4.5-21b-a3b-thinking` is no serving of `ernie-4.5-21b-a3b`).
      if (!loose && namesAKind(form)) continue;
      const hit = catalogue.find(form.key, loose, sizeless);
      if (hit) return { slug: hit, key: form.key, qualifiers: form.qualifiers };
    }
    // Display names are evidence too (issue 12 §2): `DeepSeek V3.2` names deepseek-v3.2.
    // A reseller that drops the release stage of a model whose only release is a preview
    // (`gemini-3-flash` for `gemini-3-flash-preview`, issue 25 §6).
    const preview = loose ? catalogue.exactly(`${item.spelling.key}-preview`) : undefined;
    if (preview) return { slug: preview, key: item.spelling.key, qualifiers: {} };
    // The spelling read as a name: a family id with sizes (`mistral-large-3-675b-instruct`) names the
    // model its maker calls "Mistral Large 3" (issue 25 §1).
    const tokens = item.spelling.key.split("-");
    const spelled = tokens.some((t) => SIZE_TOKEN.test(t))
      ? catalogue.byName(tokens.filter((t) => !SIZE_TOKEN.test(t) && t !== "instruct").join(""))
      : undefined;
    if (spelled) return { slug: spelled, key: item.spelling.key, qualifiers: {} };
    const named = item.listing.name ? catalogue.byName(normalizeName(item.listing.name)) : undefined;
    // (a snapshot date in the spelling is identity: io-net's R1-0528 named "DeepSeek R1" is no R1)
    const date = SNAPSHOT_DATE.exec(item.spelling.key)?.[1];
    const dated = (slug: string) => [...(catalogue.keysOf.get(slug) ?? [])].some((k) => !date || k.endsWith(date));
    if (named && dated(named)) return { slug: named, key: item.spelling.key, qualifiers: {} };
    return null;
  };
  const found = (item: Item): Placement => {
    const catalogue = catalogueOf(item.maker);
    // Founded under the spelling with every serving suffix off (the shortest such form).
    // (serving suffixes only: a `-thinking` or `-turbo` model founds under its own name)
    const bare = (spelling: Spelling) =>
      strippedForms(spelling.key, namesFamily(item.maker))
        .filter((f) => !namesAKind(f))
        .sort((a, b) => a.key.length - b.key.length)[0];
    const form = bare(item.spelling);
    const key = form?.key ?? item.spelling.key;
    // Under the maker's weights when the source names them: the short id becomes a spelling of it.
    const weights = item.weights ? (bare(item.weights)?.key ?? item.weights.key) : null;
    const slug = weights && item.weights ? slugFor(item.weights.core, weights) : slugFor(item.spelling.core, key);
    if (weights) catalogue.add(weights, slug);
    catalogue.add(key, slug);
    if (item.listing.name) catalogue.addName(normalizeName(item.listing.name), slug);
    return { slug, key, qualifiers: form?.qualifiers ?? {} };
  };
  const mayFound = (item: Item) =>
    item.listing.openWeights === true || Boolean(item.listing.huggingFaceId) || !ownMakers.has(item.maker);
  const unsized: Item[] = [];
  // An org listing that attaches teaches the catalogue its spelling, as founding does, so a reseller's
  // shorter spelling of it finds it (`mistral-large-3:675b` after `mistral-large-3-675b-instruct-2512`).
  const learn = (item: Item, placed: Placement) => {
    const catalogue = catalogueOf(item.maker);
    // (never onto a model only a moving alias names: its vote still needs a fixed spelling, T64)
    const fixed = [...(catalogue.keysOf.get(placed.slug) ?? [])].some((k) => !isMoving(k));
    if (placed.key === item.spelling.key && fixed) catalogue.add(placed.key, placed.slug);
    return placed;
  };
  const foundOrg = (item: Item) => {
    const placed = attach(item, item.maker, false);
    if (placed) placements.set(item, learn(item, placed));
    // A spelling without sizes (`meta-llama/llama-4-maverick`) founds only after the sized ones did:
    // it may be the maker's one model of that name (the sizeless level, issue 25 §1).
    else if (!item.spelling.key.split("-").some((t) => SIZE_TOKEN.test(t))) unsized.push(item);
    else placements.set(item, found(item));
  };
  const org = items.filter((i) => i.evidence === "org");
  // A listing that may found a model attaches only to one its spelling names without dropping a
  // snapshot date (`deepseek-r1-0528` is not `deepseek-r1`). The others attach after every founding
  // (below), so none lands on a base model first. A source's own open-weights evidence founds first;
  // the open-weights family table only then (T183), so the tuned release sources name as open weights
  // (`llama-3.1-8b-instruct`) is the model a host's base spelling (`llama-3.1-8b`) attaches to.
  for (const item of org) if (mayFound(item)) foundOrg(item);
  for (const item of org)
    if (!mayFound(item) && isOpenWeightsFamily(item.maker, item.spelling.key) && ownMakers.has(item.maker))
      foundOrg(item);
  for (const item of unsized) placements.set(item, learn(item, attach(item, item.maker, false, true) ?? found(item)));
  const publisherNames = new Map<string, string>();
  const mirrors = new Map<Item, string>();
  for (const item of items.filter((i) => i.evidence === "publisher")) {
    if (item.listing.publisherName) publisherNames.set(item.maker, item.listing.publisherName);
    // A re-upload of a maker's model under another org attaches to the maker's model (a mirror).
    const family = familyOf(item.spelling.core);
    const mirrored = family && family !== item.maker ? exactOrLoose(catalogues.get(family), item.spelling.key) : null;
    if (mirrored && family) {
      placements.set(item, { slug: mirrored, key: item.spelling.key, qualifiers: {} });
      mirrors.set(item, family);
      continue;
    }
    placements.set(item, attach(item) ?? found(item));
  }
  const unplaced: Item[] = [];
  for (const item of items) {
    if (placements.has(item) || heldBack.has(item)) continue;
    const placed = attach(item);
    if (placed) placements.set(item, placed);
    else unplaced.push(item);
  }
  // A host's plain spelling of a family whose maker published the weights, or of a maker that sells
  // nothing itself, founds the model even without the maker's organisation in it (issue 25 §6, T183):
  // Fireworks' `qwen2p5-coder-14b-instruct`, `starcoder2-15b`. Never a third party's fine-tune of it
  // (`Llama-3.3-70B-Anthrobomination` has a word no release of Llama has).
  for (const item of unplaced)
    if (
      item.evidence === "family" &&
      (isOpenWeightsFamily(item.maker, item.spelling.key) || !ownMakers.has(item.maker)) &&
      isPlainRelease(item.spelling.key)
    )
      placements.set(item, attach(item) ?? found(item));
  // The one model of any maker a spelling names exactly, when its own maker has none: a third
  // party's fine-tune named after its base family (nano-gpt's `QwQ-32B-ArliAI-RpR-v1` is ArliAI's).
  const elsewhere = (key: string, exact: boolean, except?: string): string | null => {
    const hits = new Set<string>();
    for (const [maker, catalogue] of catalogues) {
      if (maker === except) continue;
      const slug = catalogue.exactly(key) ?? (exact ? undefined : catalogue.find(key, true, false));
      if (slug) hits.add(`${maker}/${slug}`);
    }
    const [only] = hits;
    return hits.size === 1 && only ? only : null;
  };
  const placeElsewhere = (item: Omit<Item, "maker" | "evidence" | "weights">, id: string) => {
    const maker = id.slice(0, id.indexOf("/"));
    const moved: Item = { ...item, maker, evidence: "family", weights: null };
    placements.set(moved, { slug: id.slice(maker.length + 1), key: item.spelling.key, qualifiers: {} });
  };
  for (const item of unplaced) {
    if (placements.has(item)) continue;
    const placed = attach(item);
    const other = placed || item.evidence !== "family" ? null : elsewhere(item.spelling.key, true, item.maker);
    if (placed) placements.set(item, placed);
    else if (other) placeElsewhere(item, other);
    else {
      const catalogue = catalogues.get(item.maker);
      const nearest = catalogue ? closest(item.spelling.key, catalogue.slugs()) : null;
      miss(
        item.source,
        item.listing,
        item.evidence === "org"
          ? `${item.maker} model not listed by its maker, and no source says it is open weights`
          : `names no ${item.maker} model`,
        nearest ? `${item.maker}/${nearest}` : null,
      );
    }
  }
  // A spelling no maker's name reaches still names a model when exactly one model of any maker
  // answers it (genai-prices' `rocinante-12b` for OpenRouter's `thedrummer/rocinante-12b`, issue 25 §6).
  for (const orphan of orphans) {
    // (a bare word names nothing across makers: fal's `…/preview/ultra` is no `stability-ai/ultra`)
    const word = !/\d/.test(orphan.spelling.key) && !orphan.spelling.key.includes("-");
    const only = word ? null : elsewhere(orphan.spelling.key, false);
    if (only) placeElsewhere(orphan, only);
    else
      miss(orphan.source, orphan.listing, "no maker: no organisation, family or maker seller names one, nor one model");
  }

  // A router's variant filed under the maker by a source (genai-prices' `openai` `gpt-4o:extended`)
  // is the router's price, never the maker's (§6): counted, not published as direct.
  for (const [item] of [...placements]) {
    const variant = item.spelling.qualifiers.variant;
    if (variant && channelFor(item.listing.seller, modelOf(item, mirrors)) === "direct") {
      placements.delete(item);
      miss(item.source, item.listing, `a router's :${variant} variant filed under the maker: not the maker's price`);
    }
  }

  // 4. moving aliases vote only with same-run evidence of their target
  const signature = signatureOf;
  const fixedBy = new Map<string, Set<string>>();
  for (const [item, placed] of placements)
    if (!isMoving(placed.key) && !item.spelling.qualifiers.fine_tuning && !placed.qualifiers.fine_tuning) {
      const k = `${item.source}|${item.listing.seller}|${modelOf(item, mirrors)}/${placed.slug}`;
      const set = fixedBy.get(k) ?? new Set<string>();
      set.add(signature(item.listing));
      fixedBy.set(k, set);
    }
  // What the fixed spellings of each model say it is: names and release dates (issue 25 §5).
  const described = new Map<string, { names: Set<string>; released: Set<string> }>();
  for (const [item, placed] of placements) {
    if (isMoving(placed.key)) continue;
    const id = `${modelOf(item, mirrors)}/${placed.slug}`;
    const d = described.get(id) ?? { names: new Set<string>(), released: new Set<string>() };
    if (item.listing.name) d.names.add(normalizeName(item.listing.name));
    if (item.listing.releasedOn) d.released.add(item.listing.releasedOn);
    described.set(id, d);
  }
  const pointerAliases: [string, string][] = [];
  for (const [item, placed] of [...placements]) {
    if (!isMoving(item.spelling.key)) continue;
    const maker = modelOf(item, mirrors);
    const keys = catalogues.get(maker)?.keysOf.get(placed.slug);
    if (!keys || [...keys].every(isMoving)) continue;
    const fixed = fixedBy.get(`${item.source}|${item.listing.seller}|${maker}/${placed.slug}`);
    if (fixed?.has(signature(item.listing))) continue;
    // Or the listing says what it serves: the target's own name, or its release (T184).
    if (servesTarget(item.listing, placed.slug, described.get(`${maker}/${placed.slug}`))) continue;
    placements.delete(item);
    pointerAliases.push([`${maker}/${placed.slug}`, item.spelling.core]);
    miss(
      item.source,
      item.listing,
      "moving alias: the source does not show in this run which snapshot it points at",
      `${maker}/${placed.slug}`,
    );
  }

  // 5. one maker, one display name, keys that agree but for order or loose tokens: one model
  const renames = mergeByName(placements, mirrors, catalogues);

  const resolved: ResolvedListing[] = [];
  const aliasSets = new Map<string, Set<string>>();
  const slugsByMaker = new Map<string, Set<string>>();
  const finalId = (id: string) => {
    let x = id;
    for (let i = 0; i < 5 && renames.has(x); i++) x = renames.get(x)!;
    return x;
  };
  for (const [item, placed] of placements) {
    const maker = modelOf(item, mirrors);
    const modelId = finalId(`${maker}/${placed.slug}`);
    const channel = channelFor(item.listing.seller, maker);
    // A router's variant (`:free`) says more about the price than a serving suffix does: it wins.
    const qualifiers: Record<string, string> = { ...placed.qualifiers, ...item.spelling.qualifiers };
    // A maker's own platform under another seller slug (Bedrock for Nova) is named in direct (§6).
    if (MULTI_SELLER_CHANNELS.has(channel) || (channel === "direct" && item.listing.seller !== maker))
      qualifiers.seller = item.listing.seller;
    const slug = modelId.slice(maker.length + 1);
    resolved.push({
      source: item.source,
      listing: item.listing,
      modelId,
      maker,
      channel,
      qualifiers,
      canonicalSpelling:
        item.spelling.key === keyOf(slug) &&
        Object.keys(placed.qualifiers).length === 0 &&
        item.spelling.qualifiers.fine_tuning === undefined,
    });
    const set = aliasSets.get(modelId) ?? new Set<string>();
    // D1: the spellings as sources write them; never one whose organisation names another maker (§5).
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
      const owner = catalogues.get(maker)?.find(spelling.key);
      if ((named === null || named === maker) && (owner === undefined || finalId(`${maker}/${owner}`) === modelId))
        set.add(alias);
    }
    aliasSets.set(modelId, set);
    const slugs = slugsByMaker.get(maker) ?? new Set<string>();
    slugs.add(slug);
    slugsByMaker.set(maker, slugs);
  }
  for (const [id, core] of pointerAliases) {
    const target = finalId(id);
    aliasSets.get(target)?.add(core);
  }
  const aliases = new Map<string, readonly string[]>();
  for (const [id, set] of aliasSets) {
    const maker = id.slice(0, id.indexOf("/"));
    const slug = id.slice(maker.length + 1);
    const others = slugsByMaker.get(maker) ?? new Set<string>();
    const otherKeys = new Set([...others].filter((s) => s !== slug).map(keyOf));
    aliases.set(
      id,
      [...set]
        .filter((a) => {
          const key = parseSpelling(a).key;
          return a !== slug && !others.has(a) && !otherKeys.has(key);
        })
        .sort(),
    );
  }
  const unresolved = new Map<SourceId, number>();
  for (const u of unmatched) unresolved.set(u.source, (unresolved.get(u.source) ?? 0) + 1);
  return {
    resolved,
    aliases,
    unresolved,
    unmatched,
    publisherNames,
    lookup(maker, slug) {
      // An earlier version's id under a host names its maker's model now (`togethercomputer/llama-2-7b`
      // is meta/llama-2-7b, T183).
      const owner = hostedMaker(maker, slug) ?? maker;
      const catalogue = catalogues.get(owner);
      // An earlier version's slug may carry a decoration the grammar now reads off (`ft-gpt-4o`, T181).
      const hit =
        catalogue?.find(keyOf(slug)) ??
        strippedForms(keyOf(slug), namesFamily(owner))
          .map((f) => catalogue?.find(f.key))
          .find((x) => x !== undefined);
      return hit ? finalId(`${owner}/${hit}`) : null;
    },
  };
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

/**
 * True when a moving alias's listing says it serves the model `slug` (issue 25 §5, T184): its display
 * name without a `latest` tag is the model's name (`GPT-5.2 Chat`), or its release date is the
 * model's (a date a fixed listing states, or the snapshot date of the slug: `2026-03-16` for
 * `mistral-small-2603`, `2025-12-11` for `gpt-5.2-chat-2025-12-11`).
 */
function servesTarget(
  listing: Listing,
  slug: string,
  target: { readonly names: ReadonlySet<string>; readonly released: ReadonlySet<string> } | undefined,
): boolean {
  const name = listing.name ? normalizeName(listing.name.replace(/\blatest\b/gi, "")) : "";
  if (name.length >= 3 && target?.names.has(name)) return true;
  const released = listing.releasedOn;
  if (!released) return false;
  if (target?.released.has(released)) return true;
  const date = SNAPSHOT_DATE.exec(keyOf(slug))?.[1]?.replace(/-/g, "");
  if (!date) return false;
  const ymd = released.replace(/-/g, "");
  return date.length === 8 ? date === ymd : date.length === 4 && /^2\d{3}$/.test(date) && date === ymd.slice(2, 6);
}

/**
 * True when a spelling names a size or a `v` version and every word of it is a family's name, a size, a version or a
 * word makers use for their own releases (`qwen2-5-coder-14b-instruct`, `starcoder2-15b`,
 * `deepseek-coder-v2-lite-base`); a third party's fine-tune adds a word of its own
 * (`llama-3-3-70b-anthrobomination`), a host's preview or default tag names no release.
 */
export function isPlainRelease(key: string): boolean {
  const tokens = key.split("-");
  // (a release names its size or its version: Ollama's bare `codellama` is a default tag)
  return (
    tokens.some((t) => SIZE_TOKEN.test(t) || /^v\d+$/.test(t)) &&
    tokens.every((t) => SIZE_TOKEN.test(t) || /^v?\d+$/.test(t) || RELEASE_WORDS.has(t.replace(/\d+$/, "")))
  );
}

/** Family names and the words makers use for their own open-weights releases (T183). */
const RELEASE_WORDS: ReadonlySet<string> = new Set(
  (
    "llama codellama qwen qwq qvq deepseek starcoder gemma codegemma mistral mixtral phi falcon glm kimi minimax " +
    "dbrx kat yi internvl nemotron granite olmo " +
    "instruct chat base it hf python vision guard embed embedding reranker audio omni lite distill moe " +
    "coder code math vl dev mini small medium large nano long"
  ).split(" "),
);

/** The channel (D2) of a seller's listing of a maker's model; the maker's own platform is direct (§6). */
export function channelFor(seller: string, maker: string): Channel {
  return platformMaker(seller) === maker ? "direct" : channelOf(seller, maker);
}

/** A Hugging Face repo as a spelling when the repo's organisation is the maker's, else null. */
function weightsSpelling(repo: string | null, maker: string): Spelling | null {
  if (!repo) return null;
  const spelling = parseSpelling(repo);
  return spelling.org && orgMaker(spelling.org) === maker ? spelling : null;
}

function exactOrLoose(catalogue: MakerCatalogue | undefined, key: string): string | null {
  if (!catalogue) return null;
  return catalogue.exactly(key) ?? catalogue.find(key) ?? null;
}
