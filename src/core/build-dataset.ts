import type { Dataset, PublishedPrice, RunRecord } from "../domain/dataset.js";
import type { SourceId } from "../domain/observation.js";
import type { BuildInput } from "./build-input.js";
import { boundEvidenceAge, evidenceTimes } from "./freshness.js";
import { buildHealth } from "./health.js";
import { knownSpellingsOf } from "./identity/canonical-id.js";
import { type IdentityResult, movingAliasesOf, resolveIdentities } from "./identity/resolve.js";
import { ListedIndex } from "./listed-index.js";
import { disambiguateNames } from "./model-names.js";
import { buildModels } from "./models.js";
import { indexListings } from "./moved-listings.js";
import { priceListings, pricingContext } from "./pricing/reconcile-all.js";
import { carryPriorIds } from "./prior-ids.js";
import { buildProviders } from "./providers.js";
import { withBoundary, withHeld } from "./rejections.js";
import { withRemovalGrace } from "./removal-grace.js";
import { type SourceRejections, screenListings } from "./screen-listings.js";

export type { BuildInput, PriorState, SourceInput } from "./build-input.js";

/**
 * Builds one dataset version from the sources' listings of a run, in this order (D1–D9, D27–D29;
 * issue 45 §1): identity (`identity/resolve.ts`) → the plausibility screen (`screen-listings.ts`) →
 * pricing (`pricing/reconcile-all.ts`) → models (`models.ts`, `prior-ids.ts`) → prices' removal
 * grace and evidence age (`removal-grace.ts`, `freshness.ts`) → providers (`providers.ts`) → source
 * health (`health.ts`). Pure: all inputs are values, time included.
 */

/** Builds the dataset. Never throws on data: odd listings are skipped and counted. */
export function buildDataset(input: BuildInput): Dataset {
  return buildDatasetWithIdentity(input).dataset;
}

/** Where each source spelling landed: `source|seller|model` → model id and channel. */
export type SpellingIndex = ReadonlyMap<
  string,
  { readonly modelId: string; readonly channel: PublishedPrice["channel"] }
>;

/** {@link buildDataset}, also returning where every source spelling resolved (for dated upstream history). */
export function buildDatasetWithIdentity(input: BuildInput): {
  dataset: Dataset;
  spellings: SpellingIndex;
  /** Ids of the previous version that now answer as another model (old → new), T66. */
  renames: ReadonlyMap<string, string>;
  /** Which source listings and prices this run's payloads still hold, placed or not (T175). */
  listed: ListedIndex;
} {
  const identity = identityOf(input);
  const fresh = new Set(input.sources.filter((s) => s.fresh).map((s) => s.source));
  // Plausibility guards (T73/T74, T171–T173): quarantined rows never reach reconciliation.
  const screened = screenListings(identity.resolved, fresh, input.prior?.prices);
  const listed = new ListedIndex(identity.resolved, identity.unmatched, fresh);
  const current = buildModels(identity.resolved, identity.aliases, input);
  const openWeights = new Set(current.filter((m) => m.openWeights).map((m) => m.id));
  const priced = priceListings(
    identity,
    screened,
    pricingContext({ build: input, coherent: screened.coherent, openWeights }),
  );
  const listings = indexListings(priced.prices);
  const carried = carryPriorIds(current, identity, input, listings);
  const models = disambiguateNames(carried.models);
  const evidenceAt = evidenceTimes(input.runTime, input.sources, input.prior?.sources); // T224
  const kept = withRemovalGrace(priced.prices, models, input, listings, listed);
  const prices = boundEvidenceAge(kept.prices, evidenceAt, input.runTime);
  const providers = buildProviders(models, prices, identity.publisherNames);
  // What pricing held back, per source and reason, after the guards' own rejections.
  const heldInPricing = [
    [priced.held, "unexplained_jump"],
    [priced.aboveStandard, "above_standard"],
    [priced.loneMoves, "lone_move"],
    [priced.windowsUnstated, "window_unstated"],
  ] as const;
  const screenedAndHeld = heldInPricing.reduce((acc, [held, reason]) => withHeld(acc, held, reason), screened.rejected);
  const rejected = withHeld(withBoundary(screenedAndHeld, input.sources), kept.held, "removal_held");
  const sources = buildHealth(input, rejected, identity.unresolved);
  const run = runRecord(input, identity, rejected, { models, prices });
  return {
    dataset: { run, providers, models, prices, sources },
    spellings: spellingsOf(identity),
    renames: carried.renames,
    listed,
  };
}

/** Identity resolution of the run's listings, with what the previous version tells it (T184, T316). */
function identityOf(input: BuildInput): IdentityResult {
  return resolveIdentities(
    input.sources.map((s) => ({ source: s.source, listings: s.listings, makerSpellings: s.makerSpellings ?? false })),
    {
      movingAliases: movingAliasesOf(input.prior?.catalogue ?? []),
      // A lookalike of last run's ids is refused too, listed this run or not (T316).
      knownSpellings: knownSpellingsOf(input.prior?.catalogue ?? []),
    },
  );
}

/** Where every source spelling resolved: `source|seller|model` → model id and channel. */
function spellingsOf(identity: IdentityResult): Map<string, { modelId: string; channel: PublishedPrice["channel"] }> {
  const spellings = new Map<string, { modelId: string; channel: PublishedPrice["channel"] }>();
  for (const r of identity.resolved)
    spellings.set(`${r.source}|${r.listing.seller}|${r.listing.model}`, { modelId: r.modelId, channel: r.channel });
  return spellings;
}

/** The run's record (D9): its status and the summary of what it read, rejected and published. */
function runRecord(
  input: BuildInput,
  identity: IdentityResult,
  rejected: ReadonlyMap<SourceId, SourceRejections>,
  built: Pick<Dataset, "models" | "prices">,
): RunRecord {
  const failed: Record<string, string> = {};
  for (const s of input.sources) if (s.error) failed[s.source] = s.error.message;
  const observations: Record<string, number> = {};
  for (const s of input.sources)
    if (s.fresh) observations[s.source] = s.listings.reduce((n, l) => n + l.prices.length, 0);
  return {
    id: input.runId,
    datasetVersion: input.runTime,
    status: input.sources.some((s) => s.error) ? "partial" : "succeeded",
    startedAt: input.runTime,
    finishedAt: input.finishedAt,
    summary: {
      observations,
      rejected: Object.fromEntries(
        input.sources.filter((s) => s.fresh).map((s) => [s.source, rejected.get(s.source)?.total ?? 0]),
      ),
      unresolved: Object.fromEntries(identity.unresolved),
      unmatched: identity.unmatched,
      failed,
      models: built.models.filter((m) => m.listed).length,
      prices: built.prices.length,
      disputed: built.prices.filter((p) => p.disputed).length,
    },
  };
}
