import type { MakerCatalogue } from "./catalogue.js";
import { DISTINCT } from "./overrides.js";
import { cmp, type Item, modelOf, normalizeName, type Placement, rank } from "./placement.js";
import { keyOf, sortedKey } from "./spelling.js";
import { SELLER_PREFIXES, SNAPSHOT_DATE } from "./spelling-rules.js";

/**
 * Rule 5: models of one maker whose display names normalize alike and whose keys agree but for word
 * order or loose tokens become one (the preferred slug survives). Returns old id → surviving id.
 */
export function mergeByName(
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
