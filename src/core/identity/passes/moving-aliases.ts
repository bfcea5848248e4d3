import type { Listing } from "../../../domain/observation.js";
import { modelOf, normalizeName, signatureOf } from "../placement.js";
import { isMoving, keyOf } from "../spelling.js";
import { SNAPSHOT_DATE } from "../spelling-rules.js";
import { type IdentityState, miss } from "./state.js";

/** What the fixed spellings of a model say it is: normalized display names and release dates (issue 25 §5). */
interface Described {
  readonly names: Set<string>;
  readonly released: Set<string>;
}

/**
 * Pass 4 (T280, T64, T184): a moving alias (`-latest`) votes on a model only when the same source,
 * in the same run, lists that model under a fixed spelling at the same prices, or the listing says
 * what it serves (the target's own name or release). Otherwise its placement is dropped, it is
 * counted unmatched, and its spelling stays an alias of the model (`pointerAliases`).
 */
export function checkMovingAliases(state: IdentityState): void {
  const fixedBy = fixedSignatures(state);
  const described = descriptions(state);
  for (const [item, placed] of [...state.placements]) {
    if (!isMoving(item.spelling.key)) continue;
    const maker = modelOf(item, state.mirrors);
    const keys = state.catalogues.get(maker)?.keysOf.get(placed.slug);
    if (!keys || [...keys].every(isMoving)) continue;
    const fixed = fixedBy.get(`${item.source}|${item.listing.seller}|${maker}/${placed.slug}`);
    if (fixed?.has(signatureOf(item.listing))) continue;
    if (servesTarget(item.listing, placed.slug, described.get(`${maker}/${placed.slug}`))) continue;
    state.placements.delete(item);
    state.pointerAliases.push([`${maker}/${placed.slug}`, item.spelling.core]);
    miss(
      state,
      item.source,
      item.listing,
      "moving alias: the source does not show in this run which snapshot it points at",
      `${maker}/${placed.slug}`,
    );
  }
}

/** `<source>|<seller>|<model id>` → the price signatures of the fixed spellings (no fine-tunes) that placed there. */
function fixedSignatures(state: IdentityState): Map<string, Set<string>> {
  const fixedBy = new Map<string, Set<string>>();
  for (const [item, placed] of state.placements)
    if (!isMoving(placed.key) && !item.spelling.qualifiers.fine_tuning && !placed.qualifiers.fine_tuning) {
      const k = `${item.source}|${item.listing.seller}|${modelOf(item, state.mirrors)}/${placed.slug}`;
      const set = fixedBy.get(k) ?? new Set<string>();
      set.add(signatureOf(item.listing));
      fixedBy.set(k, set);
    }
  return fixedBy;
}

/** model id → what the fixed spellings placed on it say it is (names and release dates). */
function descriptions(state: IdentityState): Map<string, Described> {
  const described = new Map<string, Described>();
  for (const [item, placed] of state.placements) {
    if (isMoving(placed.key)) continue;
    const id = `${modelOf(item, state.mirrors)}/${placed.slug}`;
    const d = described.get(id) ?? { names: new Set<string>(), released: new Set<string>() };
    if (item.listing.name) d.names.add(normalizeName(item.listing.name));
    if (item.listing.releasedOn) d.released.add(item.listing.releasedOn);
    described.set(id, d);
  }
  return described;
}

/**
 * True when a moving alias's listing says it serves the model `slug` (issue 25 §5, T184): its display
 * name without a `latest` tag is the model's name (`GPT-5.2 Chat`), or its release date is the
 * model's (a date a fixed listing states, or the snapshot date of the slug: `2026-03-16` for
 * `mistral-small-2603`, `2025-12-11` for `gpt-5.2-chat-2025-12-11`).
 */
function servesTarget(listing: Listing, slug: string, target: Described | undefined): boolean {
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
