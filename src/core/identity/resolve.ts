import { closest } from "fastest-levenshtein";
import { type Channel, MULTI_SELLER_CHANNELS } from "../../domain/channel.js";
import type { Listing, SourceId } from "../../domain/observation.js";
import { channelOf } from "../../domain/sellers.js";
import { MakerCatalogue } from "./catalogue.js";
import { familyOf, type MakerEvidence, orgMaker, platformMaker, readMaker } from "./maker.js";
import { DISTINCT } from "./overrides.js";
import {
  coreFor,
  isDated,
  isMoving,
  keyOf,
  parseSpelling,
  type Spelling,
  sortedKey,
  strippedForms,
} from "./spelling.js";
import { SELLER_PREFIXES, SNAPSHOT_DATE, VERSION_TAG } from "./spelling-rules.js";

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

interface Item {
  readonly source: SourceId;
  readonly makerSpellings: boolean;
  readonly listing: Listing;
  readonly spelling: Spelling;
  readonly maker: string;
  readonly evidence: MakerEvidence;
}

interface Placement {
  readonly slug: string;
  readonly key: string;
  readonly qualifiers: Readonly<Record<string, string>>;
}

/** Resolves every listing of a run; see the interface docs for the rules. */
export function resolveIdentities(inputs: readonly SourceListings[]): IdentityResult {
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

  const items: Item[] = [];
  for (const { source, listings, makerSpellings = false } of inputs) {
    for (const listing of listings) {
      const spelling = parseSpelling(listing.model);
      const reading = readMaker(listing, spelling, sellers);
      if (reading === null) miss(source, listing, "no maker: no organisation, family or maker seller names one");
      else if ("excluded" in reading) miss(source, listing, reading.excluded);
      else items.push({ source, makerSpellings, listing, spelling, maker: reading.maker, evidence: reading.evidence });
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
  for (const maker of ownMakers)
    foundOwn(
      catalogueOf(maker),
      own.filter((i) => i.maker === maker),
      placements,
      namesFamily(maker),
    );

  // 2b. open-weights evidence, 2c. publishers; 3. everything else attaches
  const attach = (item: Item, maker = item.maker, loose = true): Placement | null => {
    const catalogue = catalogues.get(maker);
    if (!catalogue) return null;
    const slug = catalogue.find(item.spelling.key, loose);
    if (slug) return { slug, key: item.spelling.key, qualifiers: {} };
    for (const form of strippedForms(item.spelling.key, namesFamily(maker))) {
      // A listing that may found its own model keeps a suffix that names a kind of model
      // (`ernie-4.5-21b-a3b-thinking` is no serving of `ernie-4.5-21b-a3b`).
      if (!loose && namesAKind(form)) continue;
      const hit = catalogue.find(form.key, loose);
      if (hit) return { slug: hit, key: form.key, qualifiers: form.qualifiers };
    }
    // Display names are evidence too (issue 12 §2): `DeepSeek V3.2` names deepseek-v3.2.
    const named = item.listing.name ? catalogue.byName(normalizeName(item.listing.name)) : undefined;
    if (named) return { slug: named, key: item.spelling.key, qualifiers: {} };
    return null;
  };
  const found = (item: Item): Placement => {
    const catalogue = catalogueOf(item.maker);
    // Founded under the spelling with every serving suffix off (the shortest such form).
    // (serving suffixes only: a `-thinking` or `-turbo` model founds under its own name)
    const form = strippedForms(item.spelling.key, namesFamily(item.maker))
      .filter((f) => !namesAKind(f))
      .sort((a, b) => a.key.length - b.key.length)[0];
    const key = form?.key ?? item.spelling.key;
    const slug = slugFor(item.spelling.core, key);
    catalogue.add(key, slug);
    if (item.listing.name) catalogue.addName(normalizeName(item.listing.name), slug);
    return { slug, key, qualifiers: form?.qualifiers ?? {} };
  };
  const mayFound = (item: Item) =>
    item.listing.openWeights === true || Boolean(item.listing.huggingFaceId) || !ownMakers.has(item.maker);
  for (const item of items.filter((i) => i.evidence === "org")) {
    // A listing that may found a model attaches only to one its spelling names without dropping a
    // snapshot date (`deepseek-r1-0528` is not `deepseek-r1`).
    // The others attach after every founding (below), so none lands on a base model first.
    if (mayFound(item)) placements.set(item, attach(item, item.maker, false) ?? found(item));
  }
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
  for (const item of items) {
    if (placements.has(item)) continue;
    const placed = attach(item);
    if (placed) placements.set(item, placed);
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
    if (!isMoving(placed.key)) {
      const k = `${item.source}|${item.listing.seller}|${modelOf(item, mirrors)}/${placed.slug}`;
      const set = fixedBy.get(k) ?? new Set<string>();
      set.add(signature(item.listing));
      fixedBy.set(k, set);
    }
  const pointerAliases: [string, string][] = [];
  for (const [item, placed] of [...placements]) {
    if (!isMoving(item.spelling.key)) continue;
    const maker = modelOf(item, mirrors);
    const keys = catalogues.get(maker)?.keysOf.get(placed.slug);
    if (!keys || [...keys].every(isMoving)) continue;
    const fixed = fixedBy.get(`${item.source}|${item.listing.seller}|${maker}/${placed.slug}`);
    if (fixed?.has(signature(item.listing))) continue;
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
      canonicalSpelling: item.spelling.key === keyOf(slug) && Object.keys(placed.qualifiers).length === 0,
    });
    const set = aliasSets.get(modelId) ?? new Set<string>();
    // D1: the spellings as sources write them; never one whose organisation names another maker (§5).
    // D1: the spellings as sources write them; never one whose organisation names another maker (§5).
    const ownOrg = item.spelling.org ? orgMaker(item.spelling.org) : null;
    if (ownOrg === null || ownOrg === maker) set.add(item.listing.model);
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
      const hit = catalogues.get(maker)?.find(keyOf(slug));
      return hit ? finalId(`${maker}/${hit}`) : null;
    },
  };
}

/** The channel (D2) of a seller's listing of a maker's model; the maker's own platform is direct (§6). */
export function channelFor(seller: string, maker: string): Channel {
  return platformMaker(seller) === maker ? "direct" : channelOf(seller, maker);
}

function modelOf(item: Item, mirrors: ReadonlyMap<Item, string>): string {
  return mirrors.get(item) ?? item.maker;
}

function exactOrLoose(catalogue: MakerCatalogue | undefined, key: string): string | null {
  if (!catalogue) return null;
  return catalogue.exactly(key) ?? catalogue.find(key) ?? null;
}

/**
 * Founds one maker's models from its own listings (rule 2). Keys group by base; each dated key is a
 * model; an undated key joins the newest snapshot whose prices it repeats in every source that lists
 * both, else the undated keys that agree form one model. A key that is another own key with a seller
 * prefix or serving suffix joins that key. The slug is the preferred spelling: undated before dated
 * before moving, a models.dev spelling, the shortest, then byte order.
 */
function foundOwn(
  catalogue: MakerCatalogue,
  own: readonly Item[],
  placements: Map<Item, Placement>,
  namesFamily: (key: string) => boolean,
): void {
  const ownKeys = new Set(own.map((i) => i.spelling.key));
  const keyed = own.map((item) => {
    // A maker's own id that is another own id with a seller prefix or a quantization suffix joins it;
    // a variant suffix (`gpt-4-turbo`, `grok-4-fast`) on the maker's own id names a model of its own.
    const form = strippedForms(item.spelling.key, namesFamily).find(
      (f) => ownKeys.has(f.key) && f.qualifiers.variant === undefined,
    );
    return { item, key: form?.key ?? item.spelling.key, qualifiers: form?.qualifiers ?? {} };
  });
  const keys = [...new Set(keyed.map((k) => k.key))];
  const signatures = new Map<string, string>();
  for (const { item, key } of keyed) {
    const s = signatureOf(item.listing);
    if (s) signatures.set(`${key}|${item.source}`, s);
  }
  const sources = [...new Set(own.map((i) => i.source))];
  const compatible = (a: string, b: string) =>
    sources.every((s) => {
      const x = signatures.get(`${a}|${s}`);
      const y = signatures.get(`${b}|${s}`);
      return x === undefined || y === undefined || x === y;
    });
  // Positive evidence that an alias is that snapshot: some source prices the alias exactly as some
  // source prices the snapshot (a stale `mistral-small` at 0.1 / 0.3 is not `mistral-small-2603`).
  const confirmed = (a: string, b: string) =>
    sources.some((s) => {
      const x = signatures.get(`${a}|${s}`);
      return x !== undefined && sources.some((t) => signatures.get(`${b}|${t}`) === x);
    });
  const groups = new Map<string, string[]>();
  for (const key of keys) groups.set(sortedKey(key), [...(groups.get(sortedKey(key)) ?? []), key]);
  const preferred = (cluster: readonly string[]) => {
    const spellings = keyed.filter((k) => cluster.includes(k.key));
    return [...spellings].sort(
      (a, b) =>
        // Never a moving alias while a fixed spelling exists; then models.dev's spelling (the maker's
        // API id), then plain before dated.
        Number(isMoving(a.key)) - Number(isMoving(b.key)) ||
        Number(b.item.makerSpellings) - Number(a.item.makerSpellings) ||
        rank(a.key) - rank(b.key) ||
        Number(b.key === b.item.spelling.key) - Number(a.key === a.item.spelling.key) ||
        // The maker's version orthography: `qwen2.5-72b-instruct` over `qwen2-5-72b-instruct`.
        Number(b.item.spelling.core.includes(".")) - Number(a.item.spelling.core.includes(".")) ||
        a.key.length - b.key.length ||
        cmp(a.key, b.key),
    )[0]!;
  };
  const slugOfKey = new Map<string, string>();
  for (const group of [...groups.values()].sort((a, b) => cmp(a[0]!, b[0]!))) {
    const dated = group.filter((k) => isDated(k) || VERSION_TAG.test(k)).sort();
    const clusters: string[][] = dated.map((k) => [k]);
    const undated: string[][] = [];
    const fixed = group.filter((k) => !isDated(k) && !VERSION_TAG.test(k) && !isMoving(k));
    const moving = group.filter(isMoving);
    for (const key of fixed.sort((a, b) => a.length - b.length || cmp(a, b))) {
      const home = undated.find((cl) => cl.every((k) => compatible(k, key)));
      if (home) home.push(key);
      else undated.push([key]);
    }
    for (const cluster of undated) {
      // An alias joins a snapshot only on positive evidence: a source listing both at the same prices (T64).
      const target = [...clusters]
        .reverse()
        .find(
          (cl) =>
            cl.length === 1 && cluster.every((a) => compatible(a, cl[0]!)) && cluster.some((a) => confirmed(a, cl[0]!)),
        );
      if (target && dated.length > 0) target.push(...cluster);
      else clusters.push(cluster);
    }
    // A moving alias (`-latest`) joins, on its own, the newest model whose prices it repeats; a source
    // that still shows an old amount under it cannot pull the alias away (its vote is checked later).
    for (const key of moving) {
      const target =
        [...clusters]
          .reverse()
          .find((cl) => cl.every((k) => compatible(key, k)) && cl.some((k) => confirmed(key, k))) ??
        [...clusters].reverse().find((cl) => cl.some((k) => confirmed(key, k))) ??
        (clusters.length === 1 ? clusters[0] : undefined);
      if (target) target.push(key);
      else clusters.push([key]);
    }
    for (const cluster of clusters) {
      const best = preferred(cluster);
      const slug = slugFor(best.item.spelling.core, best.key);
      // Undated first, so a base-key lookup finds the model that holds the maker's undated alias.
      for (const key of [...cluster].sort((a, b) => rank(a) - rank(b))) {
        catalogue.add(key, slug);
        slugOfKey.set(key, slug);
      }
    }
  }
  for (const { item, key, qualifiers } of keyed) {
    const slug = slugOfKey.get(key)!;
    placements.set(item, { slug, key, qualifiers });
    if (item.listing.name) catalogue.addName(normalizeName(item.listing.name), slug);
  }
}

/** A suffix that names a kind of model (`-thinking`, a reasoning effort), not a way of serving it. */
function namesAKind(form: { qualifiers: Readonly<Record<string, string>> }): boolean {
  return form.qualifiers.variant === "thinking" || form.qualifiers.reasoning_effort !== undefined;
}

/** A model slug from a core spelling read as `key`: the grammar's characters only, no dash at an end. */
function slugFor(core: string, key: string): string {
  return coreFor(core.replace(/[^a-z0-9.-]+/g, "-"), key)
    .replace(/-+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "");
}

/** Preference of a key as a model's slug: plain (0), dated snapshot (1), moving alias (2). */
function rank(key: string): number {
  return isMoving(key) ? 2 : isDated(key) ? 1 : 0;
}

function signatureOf(l: Listing): string {
  return l.prices
    .filter((p) => p.dimension.cache === "none" && p.dimension.tier === "standard" && p.dimension.contextMin === 0)
    .filter(
      (p) =>
        p.dimension.modality === "text" && (p.dimension.direction === "input" || p.dimension.direction === "output"),
    )
    .map((p) => `${p.dimension.direction}=${p.amount}`)
    .sort()
    .join(",");
}

/**
 * Rule 5: models of one maker whose display names normalize alike and whose keys agree but for word
 * order or loose tokens become one (the preferred slug survives). Returns old id → surviving id.
 */
function mergeByName(
  placements: ReadonlyMap<Item, Placement>,
  mirrors: ReadonlyMap<Item, string>,
  catalogues: ReadonlyMap<string, MakerCatalogue>,
): Map<string, string> {
  const names = new Map<string, string>();
  // D1: two ids one source lists as the maker's own stay two models, whatever their names.
  const ownIn = new Map<string, Set<string>>();
  const uses = new Map<string, number>();
  for (const [item, placed] of placements) {
    const id = `${modelOf(item, mirrors)}/${placed.slug}`;
    uses.set(id, (uses.get(id) ?? 0) + 1);
    if (item.evidence === "own") ownIn.set(id, (ownIn.get(id) ?? new Set<string>()).add(item.source));
    const name = item.listing.name;
    if (name && (!names.has(id) || item.evidence === "own")) names.set(id, name);
  }
  const groups = new Map<string, string[]>();
  for (const [id, name] of names) {
    const k = `${id.slice(0, id.indexOf("/"))}|${normalizeName(name)}`;
    groups.set(k, [...(groups.get(k) ?? []), id]);
  }
  const distinct = new Set(DISTINCT.flatMap(([a, b]) => [`${a}|${b}`, `${b}|${a}`]));
  const renames = new Map<string, string>();
  // A model whose key is another model's key with a seller prefix (`nvidia-nemotron-nano-9b-v2`
  // beside `nemotron-nano-9b-v2`) is that model (T60), unless one source lists both as the maker's.
  const ids = new Set(uses.keys());
  for (const id of ids) {
    const maker = id.slice(0, id.indexOf("/"));
    const key = keyOf(slugOf(id));
    const prefix = SELLER_PREFIXES.find((p) => key.startsWith(`${p}-`));
    if (!prefix) continue;
    const rest = key.slice(prefix.length + 1);
    const target = [...ids].find((o) => o !== id && o.startsWith(`${maker}/`) && keyOf(slugOf(o)) === rest);
    if (!target || [...(ownIn.get(id) ?? [])].some((s) => ownIn.get(target)?.has(s))) continue;
    renames.set(id, target);
    const catalogue = catalogues.get(maker);
    for (const k of catalogue?.keysOf.get(slugOf(id)) ?? []) catalogue?.add(k, slugOf(target));
  }
  for (const ids of groups.values()) {
    if (ids.length < 2) continue;
    // The survivor: plain before dated before moving, then the spelling more listings use.
    const sorted = [...ids].sort(
      (a, b) =>
        rank(keyOf(slugOf(a))) - rank(keyOf(slugOf(b))) ||
        (uses.get(b) ?? 0) - (uses.get(a) ?? 0) ||
        a.length - b.length ||
        cmp(a, b),
    );
    const survivor = sorted[0]!;
    for (const other of sorted.slice(1)) {
      if (distinct.has(`${survivor}|${other}`)) continue;
      const a = keyOf(slugOf(survivor));
      const b = keyOf(slugOf(other));
      if (!keysAgree(a, b)) continue;
      const listedApart = [...(ownIn.get(survivor) ?? [])].some((source) => ownIn.get(other)?.has(source));
      if (listedApart) continue;
      renames.set(other, survivor);
      const maker = survivor.slice(0, survivor.indexOf("/"));
      const catalogue = catalogues.get(maker);
      for (const key of catalogue?.keysOf.get(slugOf(other)) ?? []) catalogue?.add(key, slugOf(survivor));
    }
  }
  return renames;
}

/**
 * Two keys of one display name name one model when they agree but for word order or loose tokens,
 * or when one's tokens are all in the other (`llama-3-2-11b` ⊂ `llama-3-2-11b-vision-instruct`),
 * both undated or of the same date: a dated snapshot never merges with another snapshot or alias.
 */
function keysAgree(a: string, b: string): boolean {
  const dateA = SNAPSHOT_DATE.exec(a)?.[1] ?? null;
  const dateB = SNAPSHOT_DATE.exec(b)?.[1] ?? null;
  if (dateA !== dateB) return false;
  const ta = new Set(a.split("-"));
  const tb = new Set(b.split("-"));
  const [small, large] = ta.size <= tb.size ? [ta, tb] : [tb, ta];
  // A token that names a product line (`chat`, `mini`, `pro`…) is identity, never an extra.
  if ([...large].some((t) => !small.has(t) && PRODUCT_TOKENS.has(t))) return false;
  if (sortedKey(a) === sortedKey(b)) return true;
  return [...small].every((t) => large.has(t));
}

/** Tokens that tell two models of one family apart, never dropped when merging by name. */
const PRODUCT_TOKENS: ReadonlySet<string> = new Set(
  "chat mini nano pro max turbo fast flash lite plus reasoning thinking coder code vl omni audio realtime search tts embed embedding image vision guard deep research multi agent beta experimental non".split(
    " ",
  ),
);

function slugOf(id: string): string {
  return id.slice(id.indexOf("/") + 1);
}

/** A display name's comparable form: vendor prefix, parentheses and punctuation off, lower case. */
export function normalizeName(name: string): string {
  return name
    .replace(/^[^:]+:\s+/, "")
    .toLowerCase()
    .replace(/\(.*?\)/g, "")
    .replace(/[^a-z0-9]/g, "");
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
