import { type Channel, MULTI_SELLER_CHANNELS } from "../domain/channel.js";
import type { Listing, SourceId } from "../domain/observation.js";
import { canonicalSeller, channelOf, isMaker } from "../domain/sellers.js";
import { baseKey, isSnapshotKey, makerFromFamily, parseModelSpelling, sortedTokenKey } from "./model-key.js";

/**
 * Identity resolution (D1, D2): every listing of every source gets a canonical model id
 * `<maker>/<model>` and a channel. Pure.
 *
 * Rules, in order:
 * 1. The maker is the source's explicit hint, else the seller when it is a maker, else the vendor
 *    named in the spelling, else a well-known family prefix (`claude` → anthropic). Listings whose
 *    maker stays unknown are left out and counted.
 * 2. The maker's own listings (seller = maker, any source) define its models. Snapshot spellings
 *    (`-20250514`, `-0`, `-latest`) of one base key merge into one model when no source lists them
 *    with different base prices; the canonical slug is the maker's undated spelling
 *    (`claude-opus-4-0` over `claude-opus-4-20250514`). Two ids with different prices stay two.
 * 3. Other listings match the maker's models by exact key, then base key, then word-order-insensitive
 *    key; otherwise they found a model of their own (`deepseek/deepseek-v3`).
 */
export interface ResolvedListing {
  readonly source: SourceId;
  readonly listing: Listing;
  readonly modelId: string;
  readonly maker: string;
  readonly channel: Channel;
  /** Qualifiers from the spelling (Bedrock `region`, OpenRouter `variant`) plus `seller` in multi-seller channels (D2). */
  readonly qualifiers: Readonly<Record<string, string>>;
  /** True when this listing's spelling is the model's canonical slug. */
  readonly canonicalSpelling: boolean;
}

export interface IdentityResult {
  readonly resolved: readonly ResolvedListing[];
  /** model id → every source spelling seen for it (D1 `aliases`), canonical slug excluded. */
  readonly aliases: ReadonlyMap<string, readonly string[]>;
  /** Listings left out because no maker could be told, per source. */
  readonly unresolved: ReadonlyMap<SourceId, number>;
}

/** Input of {@link resolveIdentities}: each source's listings. */
export interface SourceListings {
  readonly source: SourceId;
  readonly listings: readonly Listing[];
}

interface Candidate {
  readonly source: SourceId;
  readonly listing: Listing;
  readonly maker: string;
  readonly slug: string;
  readonly key: string;
  readonly qualifiers: Readonly<Record<string, string>>;
}

/** Resolves every listing to a canonical model id and channel. See the interface docs for the rules. */
export function resolveIdentities(inputs: readonly SourceListings[]): IdentityResult {
  const sellers = new Set<string>();
  for (const { listings } of inputs) for (const l of listings) sellers.add(l.seller);

  const unresolved = new Map<SourceId, number>();
  const candidates: Candidate[] = [];
  for (const { source, listings } of inputs) {
    for (const listing of listings) {
      const spelling = parseModelSpelling(listing.model);
      const maker = makerOf(listing, spelling.vendor, spelling.slug, sellers);
      if (!maker) {
        unresolved.set(source, (unresolved.get(source) ?? 0) + 1);
        continue;
      }
      candidates.push({
        source,
        listing,
        maker,
        slug: spelling.slug,
        key: spelling.key,
        qualifiers: spelling.qualifiers,
      });
    }
  }

  const catalogues = buildMakerCatalogues(candidates.filter((c) => c.listing.seller === c.maker));
  const aliasSets = new Map<string, Set<string>>();
  const resolved: ResolvedListing[] = [];
  for (const c of candidates) {
    const catalogue = catalogues.get(c.maker) ?? emptyCatalogue();
    const slug = catalogue.lookup(c.key) ?? foundModel(catalogue, c);
    const modelId = `${c.maker}/${slug}`;
    const channel = channelOf(c.listing.seller, c.maker);
    const qualifiers = MULTI_SELLER_CHANNELS.has(channel)
      ? { ...c.qualifiers, seller: c.listing.seller }
      : c.qualifiers;
    resolved.push({
      source: c.source,
      listing: c.listing,
      modelId,
      maker: c.maker,
      channel,
      qualifiers,
      canonicalSpelling: c.slug === slug,
    });
    const set = aliasSets.get(modelId) ?? new Set<string>();
    if (c.listing.model !== slug) set.add(c.listing.model);
    // A source's own alias claims (genai-prices match rules) count only where they name no other model.
    for (const alias of c.listing.aliases ?? []) {
      const owner = catalogue.lookup(parseModelSpelling(alias).key);
      if (alias !== slug && (owner === undefined || owner === slug)) set.add(alias);
    }
    aliasSets.set(modelId, set);
  }
  const aliases = new Map<string, readonly string[]>();
  for (const [id, set] of aliasSets) aliases.set(id, [...set].sort());
  return { resolved, aliases, unresolved };
}

function makerOf(listing: Listing, vendor: string | null, slug: string, sellers: ReadonlySet<string>): string | null {
  if (listing.makerHint) {
    const hint = canonicalSeller(listing.makerHint);
    if (isMaker(hint)) return hint;
  }
  if (vendor) return vendor;
  const family = makerFromFamily(slug) ?? (listing.name ? makerFromFamily(listing.name) : null);
  // A maker that also hosts others' models (NVIDIA's API serves Llama) sells those as a reseller.
  if (isMaker(listing.seller)) return family ?? listing.seller;
  if (family) return family;
  // A `vendor/model` spelling whose vendor is no known seller names an unlisted maker (D1 "…").
  const prefix = listing.model.includes("/") ? canonicalSeller(listing.model.split("/")[0] ?? "") : "";
  if (/^[a-z0-9][a-z0-9-]*$/.test(prefix) && !sellers.has(prefix) && !NON_MAKER_PREFIXES.has(prefix)) return prefix;
  return null;
}

/** Prefixes that are routing, not makers (gateways' own namespaces). */
const NON_MAKER_PREFIXES = new Set([
  "accounts",
  "models",
  "openrouter",
  "hf",
  "huggingface",
  "custom",
  "ft",
  "us",
  "eu",
  "auto",
  "route",
  "speech",
  "kilo-auto",
  // Together's own namespace for mirrors of other labs' checkpoints
  "togethercomputer",
]);

interface MakerCatalogue {
  /** key (exact, base or sorted-token) → canonical slug */
  lookup(key: string): string | undefined;
  /** True when the exact key is known. */
  has(key: string): boolean;
  add(key: string, slug: string): void;
}

function emptyCatalogue(): MakerCatalogue {
  const exact = new Map<string, string>();
  const byBase = new Map<string, string>();
  const bySorted = new Map<string, string>();
  return {
    lookup: (key) => exact.get(key) ?? byBase.get(baseKey(key)) ?? bySorted.get(sortedTokenKey(key)),
    has: (key) => exact.has(key),
    add(key, slug) {
      exact.set(key, slug);
      if (!byBase.has(baseKey(key))) byBase.set(baseKey(key), slug);
      if (!bySorted.has(sortedTokenKey(key))) bySorted.set(sortedTokenKey(key), slug);
    },
  };
}

function foundModel(catalogue: MakerCatalogue, c: Candidate): string {
  catalogue.add(c.key, c.slug);
  return c.slug;
}

/**
 * Builds each maker's model catalogue from its own listings (rule 2).
 *
 * models.dev lists the maker's API ids, so its keys define the catalogue first; the maker's listings
 * in other sources then join a model they match, or found their own. Within one base key, each
 * dated snapshot (`-20241022`) is a model of its own (the maker lists it separately, D1); undated
 * aliases (`claude-opus-4-0`, `-latest`, the bare name) merge with each other when their prices
 * agree, and with the newest dated snapshot whose prices agree. A merged model is named by its
 * preferred spelling: an API id, undated, shortest, then byte order.
 */
function buildMakerCatalogues(direct: readonly Candidate[]): Map<string, MakerCatalogue> {
  const byMaker = new Map<string, Candidate[]>();
  for (const c of direct) byMaker.set(c.maker, [...(byMaker.get(c.maker) ?? []), c]);

  const result = new Map<string, MakerCatalogue>();
  for (const [maker, list] of [...byMaker].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const catalogue = emptyCatalogue();
    const apiIds = new Set(list.filter((c) => c.source === "models-dev").map((c) => c.key));
    const slugByKey = new Map<string, string>();
    for (const c of [...list].sort(bySpellingPreference)) if (!slugByKey.has(c.key)) slugByKey.set(c.key, c.slug);
    const preference = (a: string, b: string) =>
      Number(!apiIds.has(a)) - Number(!apiIds.has(b)) || byKeyPreference(a, b);
    const addGroups = (keys: readonly string[]) => {
      const groups = new Map<string, string[]>();
      for (const key of keys) groups.set(baseKey(key), [...(groups.get(baseKey(key)) ?? []), key]);
      for (const group of groups.values()) {
        // Clusters holding an undated alias go first, so base-key lookups land on them.
        const newest = (cl: readonly string[]) => [...cl].sort().at(-1) ?? "";
        const clusters = clusterGroup(group, list).sort(
          (a, b) => Number(a.every(isDatedKey)) - Number(b.every(isDatedKey)) || (newest(a) > newest(b) ? -1 : 1),
        );
        for (const cluster of clusters) {
          const slug = slugByKey.get([...cluster].sort(preference)[0]!)!;
          for (const key of cluster) catalogue.add(key, slug);
        }
      }
    };
    addGroups([...apiIds]);
    const rest = [...new Set(list.filter((c) => !apiIds.has(c.key)).map((c) => c.key))].sort();
    addGroups(rest.filter((key) => catalogue.lookup(key) === undefined));
    for (const key of rest)
      if (catalogue.lookup(key) !== undefined && !catalogue.has(key)) catalogue.add(key, catalogue.lookup(key)!);
    result.set(maker, catalogue);
  }
  return result;
}

const DATED = /-(\d{8}|\d{4}-\d{2}-\d{2}|\d{4})$/;

/** A key ending in a snapshot date (`-20250514`, `-2024-08-06`, `-0613`). */
function isDatedKey(key: string): boolean {
  return DATED.test(key);
}

/** Splits one base key's keys into models (see {@link buildMakerCatalogues}). */
function clusterGroup(keys: readonly string[], listings: readonly Candidate[]): string[][] {
  const dated = keys.filter(isDatedKey).sort();
  const aliases = keys.filter((k) => !isDatedKey(k)).sort(byKeyPreference);
  const sources = [...new Set(listings.map((l) => l.source))];
  const signature = (key: string, source: SourceId): string | null => {
    const l = listings.find((c) => c.key === key && c.source === source);
    if (!l) return null;
    return l.listing.prices
      .filter((p) => p.dimension.cache === "none" && p.dimension.tier === "standard" && p.dimension.contextMin === 0)
      .filter(
        (p) =>
          p.dimension.modality === "text" && (p.dimension.direction === "input" || p.dimension.direction === "output"),
      )
      .map((p) => `${p.dimension.direction}=${p.amount}`)
      .sort()
      .join(",");
  };
  const compatible = (a: string, b: string) =>
    sources.every((s) => {
      const x = signature(a, s);
      const y = signature(b, s);
      return x === null || y === null || x === y;
    });
  const clusters: string[][] = dated.map((k) => [k]);
  const aliasClusters: string[][] = [];
  for (const key of aliases) {
    const home = aliasClusters.find((cl) => cl.every((k) => compatible(k, key)));
    if (home) home.push(key);
    else aliasClusters.push([key]);
  }
  for (const cluster of aliasClusters) {
    // The newest dated snapshot the alias agrees with is the one it points to.
    const target = [...clusters]
      .reverse()
      .find((cl) => cl.length === 1 && cl.every((k) => cluster.every((a) => compatible(a, k))));
    if (target && dated.length > 0) target.push(...cluster);
    else clusters.push(cluster);
  }
  return clusters;
}

function bySpellingPreference(a: Candidate, b: Candidate): number {
  // models.dev spells slugs the way the maker's API does; prefer it, then byte order.
  const rank = (c: Candidate) => (c.source === "models-dev" ? 0 : 1);
  return rank(a) - rank(b) || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);
}

function byKeyPreference(a: string, b: string): number {
  return Number(isSnapshotKey(a)) - Number(isSnapshotKey(b)) || a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
