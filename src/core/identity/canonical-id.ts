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
 * (same skeleton, {@link skeleton}: Cyrillic `о` in `gpt-4о` beside `gpt-4o`). A listing that fails
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

/**
 * Splits a run's listings into those with canonical ids (aliases that are not canonical dropped)
 * and those refused, with the reason identity counts them unmatched under (T254, T255).
 */
export function screenIds(inputs: readonly SourceListings[]): {
  readonly inputs: SourceListings[];
  readonly refused: RefusedListing[];
} {
  const refused: RefusedListing[] = [];
  const flawOf = (l: Listing) => idFlaw(l.model) ?? idFlaw(l.seller, "seller");
  // Spellings written in plain ASCII, per organisation and skeleton: the ids a lookalike imitates.
  const plain = new Map<string, string>();
  for (const { listings } of inputs)
    for (const l of listings)
      if (/^[\x20-\x7e]*$/.test(l.model)) plain.set(`${groupOf(l)}|${skeleton(parseSpelling(l.model).key)}`, l.model);
  const lookalikeOf = (l: Listing): string | null => {
    if (/^[\x20-\x7e]*$/.test(l.model)) return null;
    const twin = plain.get(`${groupOf(l)}|${skeleton(parseSpelling(l.model).key)}`);
    return twin === undefined ? null : `model id is a lookalike of ${twin} (homoglyphs of another script)`;
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
