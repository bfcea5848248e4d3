import type { MakerCatalogue } from "./catalogue.js";
import {
  cmp,
  type Item,
  normalizeName,
  omit,
  type Placement,
  plainly,
  rank,
  signatureOf,
  signaturesAgree,
  slugFor,
} from "./placement.js";
import { baseKey, isDated, isMoving, keyOf, looseKey, sortedKey, strippedForms } from "./spelling.js";
import { SIZE_TOKEN, SNAPSHOT_DATE, VERSION_TAG } from "./spelling-rules.js";

/**
 * Founds one maker's models from its own listings (rule 2). Keys group by base; each dated key is a
 * model (one date in two word orders is one); an undated key joins the newest snapshot whose prices it
 * repeats in every source that lists both, else the undated keys that agree form one model. A key
 * that is another own key with a seller prefix or serving suffix joins that key; a family id joins
 * its dated API id (`mergeFamilyIds`). A moving alias follows the newest snapshot of its name and
 * never an older one than `pointers` says it pointed at (moving key → the key of its last model):
 * when that snapshot is not listed in the run, the alias is held back. Returns the held moving keys
 * → the key they pointed at (their listings are the caller's to count unmatched).
 * The slug is the preferred spelling: undated before dated before moving, a models.dev spelling, the
 * shortest, then byte order.
 */
export function foundOwn(
  catalogue: MakerCatalogue,
  own: readonly Item[],
  placements: Map<Item, Placement>,
  namesFamily: (key: string) => boolean,
  pointers: ReadonlyMap<string, string> = new Map(),
  familyIds: Readonly<Record<string, readonly [snapshot: string, reason: string]>> = {},
): ReadonlyMap<string, string> {
  const held = new Map<string, string>();
  const keyed = keyedOf(own, namesFamily);
  const prices = priceEvidence(keyed, own);
  const { clusters, movingByGroup } = clustersOf([...new Set(keyed.map((k) => k.key))], prices);
  mergeFamilyIds(clusters, namesOf(keyed), prices.compatible);
  mergeReviewedFamilyIds(clusters, familyIds, prices.compatible);
  for (const moving of movingByGroup) placeMoving(clusters, moving, pointers, prices, held);
  const slugOfKey = new Map<string, string>();
  for (const cluster of clusters) {
    const best = preferred(keyed, cluster);
    const slug = slugFor(best.item.spelling.core, best.key);
    // Undated first, so a base-key lookup finds the model that holds the maker's undated alias.
    for (const key of [...cluster].sort((a, b) => rank(a) - rank(b))) {
      catalogue.add(key, slug);
      slugOfKey.set(key, slug);
    }
  }
  for (const { item, key, qualifiers } of keyed) {
    if (held.has(key)) continue;
    const slug = slugOfKey.get(key)!;
    placements.set(item, { slug, key, qualifiers });
    // (a moving alias's name is whatever it pointed at when the source wrote it: no name of the model)
    if (item.listing.name && !isMoving(key)) catalogue.addName(normalizeName(item.listing.name), slug);
  }
  return held;
}

/** An own listing with the key it founds under and the qualifiers its spelling's suffixes became. */
interface Keyed {
  readonly item: Item;
  readonly key: string;
  readonly qualifiers: Record<string, string>;
}

/** What the sources' prices say of two own keys (each a function of two keys). */
interface PriceEvidence {
  /** No source prices the two apart (a source that lists only one is no objection). */
  readonly compatible: (a: string, b: string) => boolean;
  /** Some source prices `a` exactly as some source prices `b`: positive evidence they are one model. */
  readonly confirmed: (a: string, b: string) => boolean;
}

/** Each own listing's key: another own id it is with a seller prefix or quantization suffix off, or its bare spelling. */
function keyedOf(own: readonly Item[], namesFamily: (key: string) => boolean): Keyed[] {
  const ownKeys = new Set(own.map((i) => i.spelling.key));
  return own.map((item) => {
    // A maker's own id that is another own id with a seller prefix or a quantization suffix joins it;
    // a variant suffix (`gpt-4-turbo`, `grok-4-fast`) on the maker's own id names a model of its own.
    const forms = strippedForms(item.spelling.key, namesFamily).filter((f) => f.qualifiers.variant === undefined);
    const form =
      forms.find((f) => ownKeys.has(f.key)) ??
      // Without such a twin, the id is still the model under its bare spelling (issue 25 §1): Meta's
      // `llama-4-maverick-17b-128e-instruct-fp8` and `cerebras-llama-4-maverick-…` name one model.
      forms
        .filter((f) => Object.keys(f.qualifiers).every((q) => q === "quantization"))
        .sort((a, b) => a.key.length - b.key.length)[0];
    // The maker's own quantized id is its product, no qualifier of its price.
    const qualifiers = form ? omit(form.qualifiers, "quantization") : {};
    return { item, key: form?.key ?? item.spelling.key, qualifiers };
  });
}

/** The price evidence of the own listings: each key's base text signature per source. */
function priceEvidence(keyed: readonly Keyed[], own: readonly Item[]): PriceEvidence {
  const signatures = new Map<string, string>();
  for (const { item, key, qualifiers } of keyed) {
    // A fine-tuned model's serving price (`ft:gpt-4o`) is no evidence of the base model's prices.
    if (item.spelling.qualifiers.fine_tuning || qualifiers.fine_tuning) continue;
    const s = signatureOf(item.listing);
    if (s) signatures.set(`${key}|${item.source}`, s);
  }
  const sources = [...new Set(own.map((i) => i.source))];
  return {
    compatible: (a, b) =>
      sources.every((s) => {
        const x = signatures.get(`${a}|${s}`);
        const y = signatures.get(`${b}|${s}`);
        return x === undefined || y === undefined || signaturesAgree(x, y);
      }),
    // Positive evidence that an alias is that snapshot: some source prices the alias exactly as some
    // source prices the snapshot (a stale `mistral-small` at 0.1 / 0.3 is not `mistral-small-2603`).
    confirmed: (a, b) =>
      sources.some((s) => {
        const x = signatures.get(`${a}|${s}`);
        return x !== undefined && sources.some((t) => signatures.get(`${b}|${t}`) === x);
      }),
  };
}

/** The spelling a cluster's model is named by (see {@link foundOwn}'s slug preference). */
function preferred(keyed: readonly Keyed[], cluster: readonly string[]): Keyed {
  const spellings = keyed.filter((k) => cluster.includes(k.key));
  return [...spellings].sort(
    (a, b) =>
      // Never a moving alias while a fixed spelling exists; then models.dev's spelling (the maker's
      // API id), then plain before dated.
      Number(isMoving(a.key)) - Number(isMoving(b.key)) ||
      Number(b.item.makerSpellings) - Number(a.item.makerSpellings) ||
      rank(a.key) - rank(b.key) ||
      Number(b.key === b.item.spelling.key) - Number(a.key === a.item.spelling.key) ||
      // A spelling the key reads without orthography (`grok-4.20`, not `grok-4.20-beta`).
      Number(plainly(b.item.spelling.core, b.key)) - Number(plainly(a.item.spelling.core, a.key)) ||
      // The maker's version orthography: `qwen2.5-72b-instruct` over `qwen2-5-72b-instruct`.
      Number(b.item.spelling.core.includes(".")) - Number(a.item.spelling.core.includes(".")) ||
      a.key.length - b.key.length ||
      cmp(a.key, b.key),
  )[0]!;
}

/** Display names the maker's own listings give each key (`mistral-small-2506` → "Mistral Small 3.2"). */
function namesOf(keyed: readonly Keyed[]): Map<string, Set<string>> {
  const names = new Map<string, Set<string>>();
  for (const { item, key } of keyed)
    if (item.listing.name) names.set(key, (names.get(key) ?? new Set<string>()).add(nameKey(item.listing.name)));
  return names;
}

/**
 * The fixed keys in clusters of one model each, by group of word-order-insensitive key (groups in
 * order of their first key), and each group's moving keys, placed later ({@link placeMoving}).
 */
function clustersOf(
  keys: readonly string[],
  prices: PriceEvidence,
): { clusters: string[][]; movingByGroup: string[][] } {
  const groups = new Map<string, string[]>();
  for (const key of keys) groups.set(sortedKey(key), [...(groups.get(sortedKey(key)) ?? []), key]);
  const clusters: string[][] = [];
  const movingByGroup: string[][] = [];
  for (const group of [...groups.values()].sort((a, b) => cmp(a[0]!, b[0]!))) {
    clusters.push(...groupClusters(group, prices));
    const moving = group.filter(isMoving);
    if (moving.length > 0) movingByGroup.push(moving);
  }
  return { clusters, movingByGroup };
}

/**
 * One group's fixed keys in clusters: each snapshot is a model (one date spelled in two word orders
 * is one snapshot: `claude-opus-4-20250514`, `claude-4-opus-20250514`); undated keys that agree form
 * one, which joins a snapshot only on positive evidence (a source listing both at the same prices, T64).
 */
function groupClusters(group: readonly string[], { compatible, confirmed }: PriceEvidence): string[][] {
  const dated: string[][] = [];
  for (const key of group.filter((k) => isDated(k) || VERSION_TAG.test(k)).sort()) {
    const twin = dated.find((cl) => sameTokens(cl[0]!, key) && compatible(cl[0]!, key));
    if (twin) twin.push(key);
    else dated.push([key]);
  }
  const inGroup: string[][] = [...dated];
  const undated: string[][] = [];
  const fixed = group.filter((k) => !isDated(k) && !VERSION_TAG.test(k) && !isMoving(k));
  for (const key of fixed.sort((a, b) => a.length - b.length || cmp(a, b))) {
    const home = undated.find((cl) => cl.every((k) => compatible(k, key)));
    if (home) home.push(key);
    else undated.push([key]);
  }
  for (const cluster of undated) {
    const target = [...dated]
      .reverse()
      .find(
        (cl) =>
          cl.length === 1 && cluster.every((a) => compatible(a, cl[0]!)) && cluster.some((a) => confirmed(a, cl[0]!)),
      );
    if (target) target.push(...cluster);
    else inGroup.push(cluster);
  }
  return inGroup;
}

/** The reviewed family ids (overrides.ts `FAMILY_IDS`): where two snapshots would claim one. */
function mergeReviewedFamilyIds(
  clusters: string[][],
  familyIds: Readonly<Record<string, readonly [snapshot: string, reason: string]>>,
  compatible: (a: string, b: string) => boolean,
): void {
  for (const [family, [snapshot]] of Object.entries(familyIds)) {
    const from = clusters.find((cl) => cl.includes(family));
    const to = clusters.find((cl) => cl.includes(snapshot));
    if (!from || !to || from === to || !from.every((a) => to.every((b) => compatible(a, b)))) continue;
    to.push(...from);
    clusters.splice(clusters.indexOf(from), 1);
  }
}

/** The newest snapshot marker of a cluster ({@link snapshotOrder}), or null when it holds no snapshot. */
function newestOf(cl: readonly string[]): string | null {
  return (
    cl
      .filter((k) => isDated(k) || VERSION_TAG.test(k))
      .map(snapshotOrder)
      .sort()
      .at(-1) ?? null
  );
}

/**
 * Places one group's moving aliases (`-latest`): each follows the newest snapshot the maker lists
 * under its name, else the cluster its prices confirm, and never moves back to an older one than it
 * pointed at before (issue 25 §5, T184). When the snapshot it pointed at is not listed in this run
 * and what is listed is older, it is held back (`held`: counted unmatched by the caller).
 */
function placeMoving(
  clusters: string[][],
  moving: readonly string[],
  pointers: ReadonlyMap<string, string>,
  { compatible, confirmed }: PriceEvidence,
  held: Map<string, string>,
): void {
  const base = sortedKey(moving[0]!);
  const candidates = clusters.filter((cl) => cl.some((k) => !isMoving(k) && sortedKey(k) === base));
  for (const key of moving) {
    const newest = candidates
      .filter((cl) => newestOf(cl) !== null)
      .sort((a, b) => cmp(newestOf(a)!, newestOf(b)!))
      .at(-1);
    const before = pointers.get(key);
    const kept = before ? clusters.find((cl) => cl.includes(before)) : undefined;
    const byPrice =
      [...candidates]
        .reverse()
        .find((cl) => cl.every((k) => compatible(key, k)) && cl.some((k) => confirmed(key, k))) ??
      [...candidates].reverse().find((cl) => cl.some((k) => confirmed(key, k))) ??
      (candidates.length === 1 ? candidates[0] : undefined);
    let target = newest ?? byPrice;
    if (kept && target && kept !== target && (newestOf(kept) ?? "") > (newestOf(target) ?? "")) target = kept;
    else if (kept && !target) target = kept;
    else if (before && !kept && target && snapshotOrder(before) > (newestOf(target) ?? "")) {
      held.set(key, before);
      continue;
    }
    if (target) target.push(key);
    else clusters.push([key]);
  }
}

/** True when two keys hold the same tokens in any order, dates included. */
function sameTokens(a: string, b: string): boolean {
  return a.split("-").sort().join("-") === b.split("-").sort().join("-");
}

/** A display name as a key, parentheses off (`Mistral Small 3.2` → `mistral-small-3-2`). */
function nameKey(name: string): string {
  return keyOf(name.replace(/^[^:]{1,40}:\s+/, "").replace(/\(.*?\)/g, " "));
}

/**
 * A sortable form of a key's snapshot marker within one family (`2506` < `2603`; `-001` < `-002`);
 * the format leads so that only markers written alike compare by their digits.
 */
function snapshotOrder(key: string): string {
  const tag = VERSION_TAG.exec(key)?.[0];
  if (tag) return `tag:${tag}`;
  const raw = SNAPSHOT_DATE.exec(key)?.[1] ?? "";
  const digits = raw.replace(/-/g, "");
  if (/^\d{2}-20\d{2}$/.test(raw)) return `ymd:${raw.slice(3)}${raw.slice(0, 2)}00`;
  if (digits.length === 8) return `ymd:${digits}`;
  if (digits.length === 6) return `ymd:20${digits}`;
  return `${digits.length}:${digits}`;
}

/**
 * Tokens a maker's family id adds to its dated API id: version numbers, sizes, `instruct` (never a
 * product token: `gpt-5.2-chat-2025-12-11` is no spelling of `gpt-5.2-2025-12-11`).
 */
function addsOnlyVersion(extra: readonly string[]): boolean {
  return extra.every((t) => /^\d{1,2}$/.test(t) || SIZE_TOKEN.test(t) || t === "instruct");
}

/**
 * Where a maker lists both a dated API id and a family id of one model (issue 25 §1, T182), the
 * family id's cluster joins the dated one: `mistral-small-3-2-2506` (the same date, a version and a
 * size more) joins `mistral-small-2506`; an undated `mistral-large-3` joins the snapshot the maker
 * names "Mistral Large 3" (`mistral-large-2512`). Never when one source prices both apart, never
 * where two snapshots would claim it.
 */
function mergeFamilyIds(
  clusters: string[][],
  namesOf: ReadonlyMap<string, ReadonlySet<string>>,
  compatible: (a: string, b: string) => boolean,
): void {
  const tokens = (k: string) => k.split("-");
  const dateOf = (k: string) => SNAPSHOT_DATE.exec(k)?.[1] ?? null;
  for (const cluster of [...clusters]) {
    if (!clusters.includes(cluster)) continue;
    const targets = clusters.filter((target) => {
      if (target === cluster) return false;
      return cluster.some((k) =>
        target.some((t) => {
          // (against the snapshot itself: an undated alias a source prices otherwise is no objection)
          if (!cluster.every((c) => compatible(c, t))) return false;
          const dk = dateOf(k);
          const dt = dateOf(t);
          if (dt === null) return false;
          const core = tokens(baseKey(t));
          const mine = tokens(dk === null ? k : baseKey(k));
          const extra = mine.filter((x) => !core.includes(x));
          if (!core.every((x) => mine.includes(x)) || extra.length === 0 || !addsOnlyVersion(extra)) return false;
          // The same date: the family id is that snapshot. No date: the snapshot's own name says so.
          if (dk !== null) return dk === dt;
          const names = [...(namesOf.get(t) ?? [])];
          return names.some((n) => n === k || looseKey(n) === looseKey(k));
        }),
      );
    });
    if (targets.length !== 1) continue;
    const target = targets[0]!;
    target.push(...cluster);
    clusters.splice(clusters.indexOf(cluster), 1);
  }
}
