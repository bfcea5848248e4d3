import type { PublishedModel } from "../domain/dataset.js";
import type { BuildInput } from "./build-input.js";
import { cmp } from "./byte-order.js";
import { type ListingIndex, movedTo } from "./moved-listings.js";

/**
 * Permanent ids (issue 12 §8, T66): each id of the previous version that is no model now answers
 * on: as a former id of the model its slug names now (its first sighting kept, D17 history merged by
 * the view), else as a tombstone (`listed: false`, no prices). Former ids accumulate.
 */
export function carryPriorIds(
  current: readonly PublishedModel[],
  identity: { lookup(maker: string, slug: string): string | null },
  input: BuildInput,
  listings: ListingIndex,
): { models: PublishedModel[]; renames: Map<string, string> } {
  const byId = new Map(current.map((m) => [m.id, { ...m }]));
  const renames = new Map<string, string>();
  // T85: a model gone from every source stays listed one more run (its prices graced), then rests;
  // one whose listings all moved to other models (T87) has nothing to grace.
  const freshLastRun = new Set(
    (input.prior?.published ?? [])
      .filter((p) => p.observations.some((o) => o.fresh) && movedTo(p, listings) === null)
      .map((p) => p.modelId),
  );
  const tombstones: PublishedModel[] = [];
  for (const prior of input.prior?.catalogue ?? []) {
    const now = byId.get(prior.id);
    if (now) {
      now.formerIds = [...new Set([...now.formerIds, ...prior.formerIds])].sort();
      if (prior.firstSeenAt < now.firstSeenAt) now.firstSeenAt = prior.firstSeenAt;
      continue;
    }
    const target = identity.lookup(prior.provider, prior.slug);
    const into = target ? byId.get(target) : undefined;
    if (into) {
      into.formerIds = [...new Set([...into.formerIds, prior.id, ...prior.formerIds])].sort();
      if (prior.firstSeenAt < into.firstSeenAt) into.firstSeenAt = prior.firstSeenAt;
      into.aliases = [...new Set([...into.aliases, prior.slug])].filter((a) => a !== into.slug).sort();
      renames.set(prior.id, into.id);
      for (const f of prior.formerIds) renames.set(f, into.id);
    } else tombstones.push({ ...prior, listed: prior.listed && freshLastRun.has(prior.id) });
  }
  const all = [...byId.values(), ...tombstones];
  const slugs = new Set(all.filter((m) => m.listed).map((m) => m.id));
  const models = all
    .map((m) => ({
      ...m,
      formerIds: m.formerIds.filter((f) => f !== m.id),
      // an alias never names another listed model (D1), a graced one included
      aliases: m.aliases.filter((a) => !slugs.has(`${m.provider}/${a}`)),
    }))
    .sort((a, b) => cmp(a.id, b.id));
  return { models, renames };
}
