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
    for (const spelling of [c.listing.model, ...(c.listing.aliases ?? [])]) if (spelling !== slug) set.add(spelling);
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
  if (isMaker(listing.seller)) return listing.seller;
  if (vendor) return vendor;
  // A `vendor/model` spelling whose vendor is no known seller names an unlisted maker (D1 "…").
  const prefix = listing.model.includes("/") ? canonicalSeller(listing.model.split("/")[0] ?? "") : "";
  const family = makerFromFamily(slug) ?? (listing.name ? makerFromFamily(listing.name) : null);
  if (family) return family;
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
]);

interface MakerCatalogue {
  /** key (exact, base or sorted-token) → canonical slug */
  lookup(key: string): string | undefined;
  add(key: string, slug: string): void;
}

function emptyCatalogue(): MakerCatalogue {
  const exact = new Map<string, string>();
  const byBase = new Map<string, string>();
  const bySorted = new Map<string, string>();
  return {
    lookup: (key) => exact.get(key) ?? byBase.get(baseKey(key)) ?? bySorted.get(sortedTokenKey(key)),
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
 * Builds each maker's model catalogue from its own listings (rule 2). Keys sharing a base key
 * merge unless some source prices them differently; within a merged group the canonical slug
 * is the one without a snapshot marker (else the shortest, then byte order).
 */
function buildMakerCatalogues(direct: readonly Candidate[]): Map<string, MakerCatalogue> {
  const byMaker = new Map<string, Candidate[]>();
  for (const c of direct) byMaker.set(c.maker, [...(byMaker.get(c.maker) ?? []), c]);

  const result = new Map<string, MakerCatalogue>();
  for (const [maker, list] of [...byMaker].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const catalogue = emptyCatalogue();
    const slugByKey = new Map<string, string>();
    for (const c of [...list].sort(bySpellingPreference)) if (!slugByKey.has(c.key)) slugByKey.set(c.key, c.slug);
    const groups = new Map<string, string[]>();
    for (const key of slugByKey.keys()) groups.set(baseKey(key), [...(groups.get(baseKey(key)) ?? []), key]);
    for (const keys of groups.values()) {
      for (const cluster of clusterByPrice(keys, list)) {
        const canonicalKey = [...cluster].sort(byKeyPreference)[0] ?? cluster[0]!;
        const slug = slugByKey.get(canonicalKey)!;
        for (const key of cluster) catalogue.add(key, slug);
      }
    }
    // Ensure base-key lookups prefer the undated member when several clusters share a base key.
    result.set(maker, catalogue);
  }
  return result;
}

function bySpellingPreference(a: Candidate, b: Candidate): number {
  // models.dev spells slugs the way the maker's API does; prefer it, then byte order.
  const rank = (c: Candidate) => (c.source === "models-dev" ? 0 : 1);
  return rank(a) - rank(b) || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);
}

function byKeyPreference(a: string, b: string): number {
  return Number(isSnapshotKey(a)) - Number(isSnapshotKey(b)) || a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** Splits keys of one base key into clusters whose base input/output prices agree in every source. */
function clusterByPrice(keys: readonly string[], listings: readonly Candidate[]): string[][] {
  if (keys.length === 1) return [[...keys]];
  const sorted = [...keys].sort(byKeyPreference);
  const signature = (key: string, source: SourceId): string | null => {
    const l = listings.find((c) => c.key === key && c.source === source);
    if (!l) return null;
    const base = l.listing.prices
      .filter((p) => p.dimension.cache === "none" && p.dimension.tier === "standard" && p.dimension.contextMin === 0)
      .filter(
        (p) =>
          p.dimension.modality === "text" && (p.dimension.direction === "input" || p.dimension.direction === "output"),
      )
      .map((p) => `${p.dimension.direction}=${p.amount}`)
      .sort()
      .join(",");
    return base;
  };
  const sources = [...new Set(listings.map((l) => l.source))];
  const compatible = (a: string, b: string) =>
    sources.every((s) => {
      const x = signature(a, s);
      const y = signature(b, s);
      return x === null || y === null || x === y;
    });
  const clusters: string[][] = [];
  for (const key of sorted) {
    const home = clusters.find((cl) => cl.every((k) => compatible(k, key)));
    if (home) home.push(key);
    else clusters.push([key]);
  }
  return clusters;
}
