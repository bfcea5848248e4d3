import type { LifecycleState, PublishedModel } from "../domain/dataset.js";
import type { Listing } from "../domain/observation.js";
import type { BuildInput } from "./build-input.js";
import { cmp } from "./byte-order.js";
import type { ResolvedListing } from "./identity/resolve.js";
import { keyOf } from "./identity/spelling.js";
import { modelName } from "./model-names.js";
import { hasOpenWeights } from "./open-weights.js";

const STATE_ORDER: readonly LifecycleState[] = ["preview", "active", "deprecated", "retired"];

/**
 * The run's models, one per model id the resolved listings landed on (D1, D3, D4), sorted by id:
 * names, family, limits and lifecycle read from the maker's own listing first, then the canonical
 * spelling, a source of the makers' own spellings (T160), the heavier source, the source id. A
 * lifecycle state only moves forward from the previous version's (D3). Pure.
 */
export function buildModels(
  resolved: readonly ResolvedListing[],
  aliases: ReadonlyMap<string, readonly string[]>,
  input: BuildInput,
): PublishedModel[] {
  const byModel = new Map<string, ResolvedListing[]>();
  for (const r of resolved) byModel.set(r.modelId, [...(byModel.get(r.modelId) ?? []), r]);
  const weight = new Map(input.sources.map((s) => [s.source, s.weight]));
  const makerSpellings = new Set(input.sources.filter((s) => s.makerSpellings).map((s) => s.source));
  const runDate = input.runTime.slice(0, 10);
  const models: PublishedModel[] = [];
  for (const [id, listings] of byModel) {
    // Metadata preference: the maker's own listing, canonical spelling, heavier source, then source id.
    const ordered = [...listings].sort(
      (a, b) =>
        Number(b.channel === "direct") - Number(a.channel === "direct") ||
        Number(b.canonicalSpelling) - Number(a.canonicalSpelling) ||
        // A source of the makers' own spellings carries their display names and limits (T160); then weight.
        Number(makerSpellings.has(b.source)) - Number(makerSpellings.has(a.source)) ||
        (weight.get(b.source) ?? 0) - (weight.get(a.source) ?? 0) ||
        cmp(a.source, b.source),
    );
    const pick = <T>(f: (l: Listing) => T | null): T | null => {
      for (const r of ordered) {
        const v = f(r.listing);
        if (v !== null && v !== undefined) return v;
      }
      return null;
    };
    const [provider, ...rest] = id.split("/");
    const slug = rest.join("/");
    const direct = ordered.filter((r) => r.channel === "direct");
    const metaSource = direct.length > 0 ? direct : ordered;
    const deprecatedOn = firstOf(metaSource, (l) => l.deprecatedOn);
    const retiresOn = firstOf(metaSource, (l) => l.retiresOn);
    const status = firstOf(metaSource, (l) => l.status);
    let state: LifecycleState = status === "preview" ? "preview" : status === "deprecated" ? "deprecated" : "active";
    if (deprecatedOn && deprecatedOn <= runDate) state = max(state, "deprecated");
    if (retiresOn && retiresOn <= runDate) state = "retired";
    const prior = input.prior?.models.get(id);
    if (prior) state = max(state, prior.state); // D3: transitions only move forward
    models.push({
      id,
      provider: provider!,
      slug,
      name: modelName(
        ordered.map((r) => ({ name: r.listing.name, model: r.listing.model, official: r.channel === "direct" })),
        slug,
      ),
      family: pick((l) => l.family),
      // D4: unknown is null, never 0 (issue 12 §9)
      contextWindow: pick((l) => (l.contextWindow ? l.contextWindow : null)),
      maxOutputTokens: pick((l) => (l.maxOutputTokens ? l.maxOutputTokens : null)),
      // A family whose maker published the weights is open weights whatever a reseller says (T183);
      // a reviewed API-only model is closed whatever a reseller says (T344).
      openWeights: hasOpenWeights(provider!, keyOf(slug), ordered),
      firstSeenAt: prior?.firstSeenAt ?? input.runTime,
      lifecycle: { state, releasedOn: pick((l) => l.releasedOn), deprecatedOn, retiresOn },
      aliases: aliases.get(id) ?? [],
      formerIds: [],
      listed: true,
    });
  }
  return models.sort((a, b) => cmp(a.id, b.id));
}

function firstOf<T>(listings: readonly ResolvedListing[], f: (l: Listing) => T | null): T | null {
  for (const r of listings) {
    const v = f(r.listing);
    if (v !== null && v !== undefined) return v;
  }
  return null;
}

function max(a: LifecycleState, b: LifecycleState): LifecycleState {
  return STATE_ORDER.indexOf(a) >= STATE_ORDER.indexOf(b) ? a : b;
}
