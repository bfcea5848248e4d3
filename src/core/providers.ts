import type { PublishedModel, PublishedPrice, PublishedProvider } from "../domain/dataset.js";
import { MAKERS } from "../domain/sellers.js";
import { cmp } from "./byte-order.js";
import { PUBLISHER_NAMES } from "./identity/maker-rules.js";

/**
 * The run's providers (makers and publishers) with listed models, sorted by slug: the name of a
 * known maker, else the publisher's name the rules or a source gave, else the slug in title case;
 * `official` when any price of theirs is sold in the maker's own channel (`direct`). Pure.
 */
export function buildProviders(
  models: readonly PublishedModel[],
  prices: readonly PublishedPrice[],
  publisherNames: ReadonlyMap<string, string>,
): PublishedProvider[] {
  const counts = new Map<string, number>();
  for (const m of models) if (m.listed) counts.set(m.provider, (counts.get(m.provider) ?? 0) + 1);
  const official = new Set<string>();
  for (const p of prices) if (p.channel === "direct") official.add(p.modelId.split("/")[0]!);
  return [...counts.entries()]
    .sort(([a], [b]) => cmp(a, b))
    .map(([slug, n]) => {
      const known = MAKERS[slug];
      return {
        slug,
        name: known?.name ?? PUBLISHER_NAMES[slug] ?? publisherNames.get(slug) ?? titleCase(slug),
        website: known?.website ?? null,
        pricingUrl: known?.pricingUrl ?? null,
        official: official.has(slug),
        models: n,
      };
    });
}

function titleCase(slug: string): string {
  return slug
    .split("-")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
}
