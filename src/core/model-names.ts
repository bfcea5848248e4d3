import type { PublishedModel } from "../domain/dataset.js";
import { DISTINCT } from "./identity/overrides.js";
import { keyOf } from "./identity/spelling.js";
import { SNAPSHOT_DATE } from "./identity/spelling-rules.js";

/**
 * One display name per model of a maker (issue 12 §10, T68). Sources give one name to several
 * models (`GPT-4o` to `gpt-4o` and `gpt-4o-2024-05-13`; `Phi-3-mini instruct (128k)` to the 4k
 * model too): of the models sharing a name, the one whose slug the name spells keeps it; a dated
 * snapshot gets its date (`GPT-4o 2024-05-13`); any other falls back to its slug. Names compare
 * as a reader does: case, punctuation and parentheses ignored. Pure.
 */
export function disambiguateNames(models: readonly PublishedModel[]): PublishedModel[] {
  const groups = new Map<string, number[]>();
  models.forEach((m, i) => {
    if (!m.listed) return;
    const k = `${m.provider}|${comparableName(m.name)}`;
    groups.set(k, [...(groups.get(k) ?? []), i]);
  });
  const out = [...models];
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const nameKey = new Set(keyOf(out[members[0]!]!.name.replace(/\(.*?\)/g, "")).split("-"));
    const score = (i: number) => {
      const tokens = keyOf(out[i]!.slug).split("-");
      const hits = tokens.filter((t) => nameKey.has(t)).length;
      return hits / (tokens.length + nameKey.size - hits);
    };
    const dated = (i: number) => Number(SNAPSHOT_DATE.test(keyOf(out[i]!.slug)));
    const owner = [...members].sort(
      (a, b) => dated(a) - dated(b) || score(b) - score(a) || out[a]!.slug.length - out[b]!.slug.length,
    )[0]!;
    for (const i of members) {
      if (i === owner) continue;
      const m = out[i]!;
      const date = SNAPSHOT_DATE.exec(keyOf(m.slug))?.[1];
      const base = m.name.replace(/\s*\(.*?\)\s*/g, " ").trim();
      out[i] = { ...m, name: date && !base.includes(date) ? `${base} ${date}` : m.slug };
    }
  }
  return out;
}

/** A name as a reader compares it: lower case, parentheses and punctuation off. */
export function comparableName(name: string): string {
  return name
    .toLowerCase()
    .replace(/\(.*?\)/g, "")
    .replace(/[^a-z0-9]/g, "");
}

/** The pairs the override file keeps apart although they share a name (they keep both names). */
export function distinctPairs(): ReadonlySet<string> {
  return new Set(DISTINCT.flatMap(([a, b]) => [`${a}|${b}`, `${b}|${a}`]));
}
