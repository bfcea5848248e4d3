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
  slugFor,
} from "./placement.js";
import { isDated, isMoving, sortedKey, strippedForms } from "./spelling.js";
import { VERSION_TAG } from "./spelling-rules.js";

/**
 * Founds one maker's models from its own listings (rule 2). Keys group by base; each dated key is a
 * model; an undated key joins the newest snapshot whose prices it repeats in every source that lists
 * both, else the undated keys that agree form one model. A key that is another own key with a seller
 * prefix or serving suffix joins that key. The slug is the preferred spelling: undated before dated
 * before moving, a models.dev spelling, the shortest, then byte order.
 */
export function foundOwn(
  catalogue: MakerCatalogue,
  own: readonly Item[],
  placements: Map<Item, Placement>,
  namesFamily: (key: string) => boolean,
): void {
  const ownKeys = new Set(own.map((i) => i.spelling.key));
  const keyed = own.map((item) => {
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
  const keys = [...new Set(keyed.map((k) => k.key))];
  const signatures = new Map<string, string>();
  for (const { item, key, qualifiers } of keyed) {
    // A fine-tuned model's serving price (`ft:gpt-4o`) is no evidence of the base model's prices.
    if (item.spelling.qualifiers.fine_tuning || qualifiers.fine_tuning) continue;
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
        // A spelling the key reads without orthography (`grok-4.20`, not `grok-4.20-beta`).
        Number(plainly(b.item.spelling.core, b.key)) - Number(plainly(a.item.spelling.core, a.key)) ||
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
