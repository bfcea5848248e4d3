import type { MakerCatalogue } from "../catalogue.js";
import { type Item, namesAKind, normalizeName, type Placement, slugFor } from "../placement.js";
import { isMoving, type Spelling, strippedForms } from "../spelling.js";
import { SIZE_TOKEN, SNAPSHOT_DATE } from "../spelling-rules.js";
import { catalogueOf, type IdentityState, namesFamily, type Orphan } from "./state.js";

/**
 * The moves the passes of identity resolution place listings with (issue 12 §3, issue 25; T280):
 * attach to a model a maker's catalogue already holds, found a new one, learn a spelling, place
 * across makers. Each reads and writes the shared {@link IdentityState}. Pure.
 */

/**
 * Where `item` attaches among `maker`'s models, or null: by the maker's weights the source names,
 * by its spelling (as spelled, then with serving suffixes off), by a preview-only release, by its
 * spelling or display name read as the model's name. `loose` allows dropping a snapshot date, and
 * `sizeless` (by default as `loose`) the sizeless level (`MakerCatalogue.find`).
 */
export function attach(
  state: IdentityState,
  item: Item,
  maker = item.maker,
  loose = true,
  sizeless = loose,
): Placement | null {
  const catalogue = state.catalogues.get(maker);
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
  const named = byName(catalogue, item);
  return named ? { slug: named, key: item.spelling.key, qualifiers: {} } : null;
}

/**
 * The model of a maker's `catalogue` the spelling or display name of `item` names as a name, or undefined: a
 * family id with sizes (`mistral-large-3-675b-instruct`) names the model its maker calls "Mistral
 * Large 3" (issue 25 §1); a display name names its model unless the spelling's snapshot date says
 * otherwise (io-net's R1-0528 named "DeepSeek R1" is no R1).
 */
function byName(catalogue: MakerCatalogue, item: Item): string | undefined {
  const tokens = item.spelling.key.split("-");
  const spelled = tokens.some((t) => SIZE_TOKEN.test(t))
    ? catalogue.byName(tokens.filter((t) => !SIZE_TOKEN.test(t) && t !== "instruct").join(""))
    : undefined;
  if (spelled) return spelled;
  const named = item.listing.name ? catalogue.byName(normalizeName(item.listing.name)) : undefined;
  const date = SNAPSHOT_DATE.exec(item.spelling.key)?.[1];
  const dated = (slug: string) => [...(catalogue.keysOf.get(slug) ?? [])].some((k) => !date || k.endsWith(date));
  return named && dated(named) ? named : undefined;
}

/**
 * Founds a model of `item`'s maker for it: under the spelling with every serving suffix off (the
 * shortest such form; a `-thinking` or `-turbo` model founds under its own name), or under the
 * maker's weights when the source names them (the short id becomes a spelling of it).
 */
export function found(state: IdentityState, item: Item): Placement {
  const catalogue = catalogueOf(state, item.maker);
  const bare = (spelling: Spelling) =>
    strippedForms(spelling.key, namesFamily(item.maker))
      .filter((f) => !namesAKind(f))
      .sort((a, b) => a.key.length - b.key.length)[0];
  const form = bare(item.spelling);
  const key = form?.key ?? item.spelling.key;
  const weights = item.weights ? (bare(item.weights)?.key ?? item.weights.key) : null;
  const slug = weights && item.weights ? slugFor(item.weights.core, weights) : slugFor(item.spelling.core, key);
  if (weights) catalogue.add(weights, slug);
  catalogue.add(key, slug);
  if (item.listing.name) catalogue.addName(normalizeName(item.listing.name), slug);
  return { slug, key, qualifiers: form?.qualifiers ?? {} };
}

/**
 * An org listing that attaches teaches the catalogue its spelling, as founding does, so a reseller's
 * shorter spelling of it finds it (`mistral-large-3:675b` after `mistral-large-3-675b-instruct-2512`);
 * never onto a model only a moving alias names (its vote still needs a fixed spelling, T64).
 * @returns `placed`
 */
export function learn(state: IdentityState, item: Item, placed: Placement): Placement {
  const catalogue = catalogueOf(state, item.maker);
  const fixed = [...(catalogue.keysOf.get(placed.slug) ?? [])].some((k) => !isMoving(k));
  if (placed.key === item.spelling.key && fixed) catalogue.add(placed.key, placed.slug);
  return placed;
}

/** True when `item` may found a model: the source says open weights, or names the weights, or its maker sells nothing itself. */
export function mayFound(state: IdentityState, item: Item): boolean {
  return item.listing.openWeights === true || Boolean(item.listing.huggingFaceId) || !state.ownMakers.has(item.maker);
}

/**
 * The one model id of any maker (but `except`) a spelling names, or null: exactly, or with `exact`
 * false also by `find` without the sizeless level. A third party's fine-tune named after its base
 * family (nano-gpt's `QwQ-32B-ArliAI-RpR-v1` is ArliAI's).
 */
export function elsewhere(state: IdentityState, key: string, exact: boolean, except?: string): string | null {
  const hits = new Set<string>();
  for (const [maker, catalogue] of state.catalogues) {
    if (maker === except) continue;
    const slug = catalogue.exactly(key) ?? (exact ? undefined : catalogue.find(key, true, false));
    if (slug) hits.add(`${maker}/${slug}`);
  }
  const [only] = hits;
  return hits.size === 1 && only ? only : null;
}

/** Places a listing on model `id` of another maker than the one read for it (a `family` reading from then on). */
export function placeElsewhere(state: IdentityState, item: Orphan, id: string): void {
  const maker = id.slice(0, id.indexOf("/"));
  const moved: Item = { ...item, maker, evidence: "family", weights: null };
  state.placements.set(moved, { slug: id.slice(maker.length + 1), key: item.spelling.key, qualifiers: {} });
}
