import type { Listing } from "../../../domain/observation.js";
import { canonicalSeller } from "../../../domain/sellers.js";
import { orgMaker, readMaker } from "../maker.js";
import { SELLER_SPELLINGS } from "../overrides.js";
import { cmp } from "../placement.js";
import { parseSpelling, type Spelling } from "../spelling.js";
import { type IdentityState, miss } from "./state.js";

/**
 * Pass 1 (T280): reads each listing's maker from evidence (`maker.ts`): its maker's own listing, the
 * maker's organisation in the spelling, a third party's organisation (its fine-tune), or the family
 * table. Fills `sellers`, `items` (sorted so that founding is independent of input order), `orphans`
 * (no maker read), and counts excluded listings unmatched.
 */
export function readMakers(state: IdentityState): void {
  for (const { listings } of state.inputs) for (const l of listings) state.sellers.add(l.seller);
  const servedAs = servedAsOf(state);
  for (const { source, listings, makerSpellings = false } of state.inputs) {
    for (const listing of listings) {
      const spelling = sellerSpelling(listing);
      const reading = readMaker(listing, spelling, state.sellers);
      if (reading === null) state.orphans.push({ source, makerSpellings, listing, spelling });
      else if ("excluded" in reading) miss(state, source, listing, reading.excluded);
      else
        state.items.push({
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
  state.items.sort(
    (a, b) =>
      cmp(a.maker, b.maker) ||
      cmp(a.spelling.key, b.spelling.key) ||
      // Within one key, a dotted spelling (`llama-3.1-8b-instruct`, the makers' orthography) founds first.
      Number(b.spelling.core.includes(".")) - Number(a.spelling.core.includes(".")) ||
      cmp(a.source, b.source) ||
      cmp(a.listing.seller, b.listing.seller),
  );
}

/**
 * The spelling of a listing as identity reads it: the source's own, or the maker's spelling a reviewed
 * line says the seller means by it (`SELLER_SPELLINGS`, T367: Azure's `ada` is `text-embedding-ada-002`).
 */
export function sellerSpelling(listing: Listing): Spelling {
  const spelling = parseSpelling(listing.model);
  const meant = SELLER_SPELLINGS[canonicalSeller(listing.seller)]?.[spelling.key];
  if (!meant) return spelling;
  const read = parseSpelling(meant[0]);
  return { ...read, qualifiers: { ...spelling.qualifiers, ...read.qualifiers } };
}

/**
 * `<seller>|<key>` → the Hugging Face repo the seller says it serves under that spelling. What a
 * seller says holds in every source that copies the spelling: OpenRouter's own API names
 * `deepseek/deepseek-chat` DeepSeek-V3's weights, so does every other source's row of OpenRouter's
 * `deepseek/deepseek-chat` (issue 25 §5).
 */
function servedAsOf(state: IdentityState): Map<string, string> {
  const servedAs = new Map<string, string>();
  for (const { listings } of state.inputs)
    for (const l of listings)
      if (l.huggingFaceId) servedAs.set(`${l.seller}|${parseSpelling(l.model).key}`, l.huggingFaceId);
  return servedAs;
}

/** A Hugging Face repo as a spelling when the repo's organisation is the maker's, else null. */
function weightsSpelling(repo: string | null, maker: string): Spelling | null {
  if (!repo) return null;
  const spelling = parseSpelling(repo);
  return spelling.org && orgMaker(spelling.org) === maker ? spelling : null;
}
