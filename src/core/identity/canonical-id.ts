import type { PublishedModel } from "../../domain/dataset.js";
import type { Listing, SourceId } from "../../domain/observation.js";
import { canonicalSeller } from "../../domain/sellers.js";
import type { SourceListings } from "./resolve.js";
import { parseSpelling } from "./spelling.js";

/**
 * Canonical ids (issue 33 §3, T254, T255). Pure. Before identity places a listing, its model id and
 * seller must be canonical text: NFKC (no full-width or compatibility forms), no control character
 * (nor the U+FFFD the adapter boundary puts for one, `listing-boundary.ts`), no Unicode format
 * character (zero-width, bidi embedding/override/isolate, BOM, soft hyphen), no lone surrogate;
 * and its spelling must not be a lookalike of another spelling of the same organisation in the run
 * (same skeleton, {@link skeleton}: Cyrillic `о` in `gpt-4о` beside `gpt-4o`), nor of a spelling the
 * previous dataset version published under that maker (T316). A listing that fails
 * is counted unmatched with its reason and never published; an alias that fails is dropped.
 */

/** Control characters (`Cc`), U+FFFD (a control the boundary marked), and lone surrogates (`Cs`). */
const CONTROL = /\p{Cc}|\ufffd|\p{Cs}/u;
/** Unicode format characters: zero-width (U+200B–U+200D, U+2060), bidi controls (U+200E/F, U+202A–U+202E, U+2066–U+2069), BOM, soft hyphen… */
const FORMAT = /\p{Cf}/u;

/**
 * Why `id` is no canonical id, or null when it is one.
 * @param what what the id is, for the reason (`model id`, `seller`)
 */
export function idFlaw(id: string, what = "model id"): string | null {
  if (CONTROL.test(id)) return `${what} holds a control character`;
  if (FORMAT.test(id)) return `${what} holds an invisible format character (zero-width or bidirectional)`;
  if (id.normalize("NFKC") !== id) return `${what} is not in NFKC form (full-width or compatibility characters)`;
  return null;
}

/**
 * Letters of other scripts that render as a Latin letter or digit (Unicode's confusables for the
 * characters model ids use; the lower-case forms, NFKC already applied): Cyrillic, Greek,
 * Armenian and Latin lookalikes.
 */
const HOMOGLYPHS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    a: "аɑα",
    b: "ьƅ",
    c: "сϲⅽ",
    d: "ԁⅾ",
    e: "еҽ",
    g: "ɡ",
    h: "һ",
    i: "іιıɩӏ",
    j: "јϳ",
    k: "κ",
    l: "ⅼǀ",
    m: "ⅿ",
    n: "ո",
    o: "оοօσ",
    p: "рρ",
    q: "ԛ",
    s: "ѕ",
    u: "υս",
    v: "νѵⅴ",
    w: "ԝѡ",
    x: "хχⅹ",
    y: "уγ",
    "3": "з",
  }).flatMap(([latin, lookalikes]) => [...lookalikes].map((c): [string, string] => [c, latin])),
);

/**
 * The skeleton of an id: NFKC, lower case, format characters removed, every homoglyph as the Latin
 * letter it imitates. Two ids with one skeleton look the same to a reader.
 */
export function skeleton(id: string): string {
  const folded = id
    .normalize("NFKC")
    .toLowerCase()
    .replace(/\p{Cf}/gu, "");
  return [...folded].map((c) => HOMOGLYPHS.get(c) ?? c).join("");
}

/** A listing {@link screenIds} refused, with why. */
export interface RefusedListing {
  readonly source: SourceId;
  readonly listing: Listing;
  readonly reason: string;
}

/** The organisation a listing's id is judged within: the spelling's org, else the maker hint, else the seller. */
function groupOf(listing: Listing): string {
  return canonicalSeller(parseSpelling(listing.model).org ?? listing.makerHint ?? listing.seller);
}

/** A spelling the previous dataset version published: a model's id, former id or alias, with the model and its maker. */
export interface KnownSpelling {
  readonly spelling: string;
  readonly modelId: string;
  /** The maker (provider slug) the model was published under. */
  readonly maker: string;
}

const PLAIN = /^[\x20-\x7e]*$/;

/**
 * The plain-ASCII spellings of a dataset version's models, tombstones included (ids are permanent,
 * T66): each model's id, former ids and aliases. What a lookalike of an earlier run is judged
 * against (T316).
 */
export function knownSpellingsOf(
  models: readonly Pick<PublishedModel, "id" | "provider" | "aliases" | "formerIds">[],
): KnownSpelling[] {
  const known: KnownSpelling[] = [];
  for (const m of models)
    for (const spelling of [m.id, ...m.formerIds, ...m.aliases])
      if (PLAIN.test(spelling)) known.push({ spelling, modelId: m.id, maker: m.provider });
  return known;
}

/**
 * Splits a run's listings into those with canonical ids (aliases that are not canonical dropped)
 * and those refused, with the reason identity counts them unmatched under (T254, T255). A spelling
 * outside plain ASCII is a lookalike when its skeleton is that of a plain spelling of the same
 * organisation in the run, or of a spelling of `known` (the previous version's models, T316: a
 * lookalike of last run's id is refused even when the id itself is not listed this run); the run's
 * own twin is named first.
 * @param known the previous version's spellings ({@link knownSpellingsOf}); none on a first run
 */
export function screenIds(
  inputs: readonly SourceListings[],
  known: readonly KnownSpelling[] = [],
): {
  readonly inputs: SourceListings[];
  readonly refused: RefusedListing[];
} {
  const refused: RefusedListing[] = [];
  const flawOf = (l: Listing) => idFlaw(l.model) ?? idFlaw(l.seller, "seller");
  // Spellings written in plain ASCII, per organisation and skeleton: the ids a lookalike imitates.
  const plain = new Map<string, string>();
  for (const { listings } of inputs)
    for (const l of listings)
      if (PLAIN.test(l.model)) plain.set(`${groupOf(l)}|${skeleton(parseSpelling(l.model).key)}`, l.model);
  // The previous version's spellings, under the organisation they name, else their model's maker.
  const published = new Map<string, string>();
  for (const k of known) {
    const spelling = parseSpelling(k.spelling);
    const key = `${canonicalSeller(spelling.org ?? k.maker)}|${skeleton(spelling.key)}`;
    if (!published.has(key)) published.set(key, k.modelId);
  }
  const lookalikeOf = (l: Listing): string | null => {
    if (PLAIN.test(l.model)) return null;
    const key = `${groupOf(l)}|${skeleton(parseSpelling(l.model).key)}`;
    const twin = plain.get(key);
    if (twin !== undefined) return `model id is a lookalike of ${twin} (homoglyphs of another script)`;
    const earlier = published.get(key);
    return earlier === undefined
      ? null
      : `model id is a lookalike of ${earlier}, published in the previous version (homoglyphs of another script)`;
  };
  const kept = inputs.map((input) => ({
    ...input,
    listings: input.listings.flatMap((listing): Listing[] => {
      const reason = flawOf(listing) ?? lookalikeOf(listing);
      if (reason) {
        refused.push({ source: input.source, listing, reason });
        return [];
      }
      if (!listing.aliases?.some((a) => idFlaw(a) !== null)) return [listing];
      return [{ ...listing, aliases: listing.aliases.filter((a) => idFlaw(a) === null) }];
    }),
  }));
  return { inputs: kept, refused };
}
