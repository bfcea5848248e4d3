import type { PublishedPrice } from "../domain/dataset.js";
import { dimensionKey } from "../domain/dimension.js";

/**
 * Identical prices repeated per region collapse into one row (issue 13 §6, T76). Pure.
 *
 * Within one model, channel and seller, prices that differ only in a where-served qualifier
 * (`region`, `backend`) and say the same — same amount, unit and money, neither disputed — are one
 * price: the row without the qualifier stays, the repeats go. When every row of such a group
 * carries the qualifier and all say the same, one row without it stands for them (the most
 * confident). Rows that differ, or whose sources disagree, stay as they are. `seller` is never
 * collapsed: D2 requires it in multi-seller channels.
 */
export const COLLAPSIBLE_QUALIFIERS: readonly string[] = ["region", "backend"];

type Row = Omit<PublishedPrice, "label">;

/** The input without repeated regional rows; order of the kept rows is preserved. */
export function collapseRepeatedRegions<T extends Row>(prices: readonly T[]): T[] {
  const groups = new Map<string, number[]>();
  prices.forEach((p, i) => {
    const key = groupKey(p);
    const list = groups.get(key);
    if (list) list.push(i);
    else groups.set(key, [i]);
  });
  const drop = new Set<number>();
  const replace = new Map<number, T>();
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const base = members.find((i) => !COLLAPSIBLE_QUALIFIERS.some((k) => prices[i]!.qualifiers[k] !== undefined));
    if (base !== undefined) {
      for (const i of members) if (i !== base && same(prices[i]!, prices[base]!)) drop.add(i);
      continue;
    }
    const first = prices[members[0]!]!;
    if (!members.every((i) => same(prices[i]!, first))) continue;
    const best = [...members].sort((a, b) => prices[b]!.confidenceScore - prices[a]!.confidenceScore || a - b)[0]!;
    for (const i of members) if (i !== best) drop.add(i);
    replace.set(best, { ...prices[best]!, qualifiers: withoutCollapsible(prices[best]!.qualifiers) });
  }
  return prices.flatMap((p, i) => (drop.has(i) ? [] : [replace.get(i) ?? p]));
}

function withoutCollapsible(q: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(q).filter(([k]) => !COLLAPSIBLE_QUALIFIERS.includes(k)));
}

function groupKey(p: Row): string {
  return `${p.modelId}|${p.channel}|${p.seller}|${dimensionKey({ ...p, qualifiers: withoutCollapsible(p.qualifiers) })}|${p.unit}`;
}

function same(a: Row, b: Row): boolean {
  return (
    !a.disputed &&
    !b.disputed &&
    a.unit === b.unit &&
    a.denomination === b.denomination &&
    a.currency === b.currency &&
    a.amount === b.amount
  );
}
