import { AmountError, scaleAmount } from "../../domain/amount.js";
import type { Dimension, Modality, Tier } from "../../domain/dimension.js";
import { lookupTable } from "../../domain/lookup-table.js";
import { EMPTY_LISTING_META, type Listing, type PriceObservation } from "../../domain/observation.js";
import { canonicalSeller, isMaker } from "../../domain/sellers.js";
import { ruleDimension, UnmappedTally } from "../field-map.js";
import { sourceAdapter } from "../shared/adapter.js";
import { jsonKind, payloadJson } from "../shared/payload-json.js";
import { type ParseReport, type SourceInfo, type SourcePayload, SourcePayloadError } from "../source.js";
import { filesNamed, type LiveUpstream } from "../upstream.js";
import { COST_RULES, COST_STRUCTURE, sideModality } from "./field-map.js";
import {
  ModelsDevApi,
  type ModelsDevCost,
  type ModelsDevCostFields,
  ModelsDevCostTier,
  ModelsDevModel,
  ModelsDevProvider,
} from "./schema.js";

/** Name of the one file of a models.dev payload. */
export const MODELS_DEV_FILE = "api.json";

/** Registry record of models.dev (MIT, community-maintained, broad but not authoritative for any seller). */
export const modelsDevInfo: SourceInfo = {
  name: "models.dev",
  license: "MIT",
  homepage: "https://models.dev",
  weight: 0.8,
  authoritativeFor: [],
  makerSpellings: true,
};

/** The live payload: `https://models.dev/api.json`. */
const UPSTREAM: LiveUpstream = { baseUrl: "https://models.dev/", files: filesNamed(MODELS_DEV_FILE) };

/** Threshold of the legacy `cost.context_over_200k` bracket, in prompt tokens. */
const LEGACY_BRACKET_MIN = 200_000;

/** Experimental request modes that are a service tier (D27 tier vocabulary); other modes stay `standard`. */
const MODE_TIERS: Readonly<Record<string, Tier>> = lookupTable({ fast: "priority" });

/** The parts of a dimension a group of cost fields shares (tier, bracket, qualifiers), and the modalities of the model's two sides. */
interface DimensionContext extends Pick<Dimension, "tier" | "contextMin" | "contextMax" | "qualifiers"> {
  readonly inputModality: Modality;
  readonly outputModality: Modality;
  readonly unmapped: UnmappedTally;
}

/**
 * Adapter for models.dev `api.json`: one listing per (provider, model), prices in USD per 1M tokens.
 *
 * Seller = `canonicalSeller(provider id)` (D1/D2); cost fields map to dimensions as in the README;
 * `cost.tiers` (context brackets) win over the legacy `cost.context_over_200k`; the experimental
 * `fast` mode is tier `priority`, unqualified (T374); other modes are qualified `mode: <slug>`. Models without `cost` keep their
 * metadata with no prices. Malformed providers, models, tiers or amounts are skipped one by one.
 * One listing per (seller, model): when provider ids alias one seller, the canonical id's entry wins.
 * @throws SourcePayloadError when `api.json` is missing, not JSON, not an object keyed by provider
 * id, or holds no valid provider at all
 */
export const modelsDevSource = sourceAdapter("models-dev", modelsDevInfo, UPSTREAM, parseReport);

function parseReport(payload: SourcePayload): ParseReport {
  // Providers already spelled canonically go first, so when two provider ids collapse into one
  // seller (`azure` + `azure-cognitive-services`) the canonical provider's entry is the one kept.
  const providers = readProviders(payload).sort(
    ([a], [b]) => Number(canonicalSeller(b) === b) - Number(canonicalSeller(a) === a),
  );
  const listings = new Map<string, Listing>();
  const unmapped = new UnmappedTally();
  for (const [providerId, provider] of providers) {
    const seller = canonicalSeller(providerId);
    for (const [modelId, raw] of Object.entries(provider.models)) {
      const key = `${seller}\u0000${modelId}`;
      if (listings.has(key)) continue; // same (seller, model) already listed by an alias provider id
      const model = ModelsDevModel.safeParse(raw);
      if (!model.success) continue; // malformed model entry: skipped (README "Skipped")
      const listing = toListing(seller, modelId, model.data, unmapped);
      // The provider's API base URL tells a renamed seller from a new one (issue 52 §1, T515).
      listings.set(key, provider.api ? { ...listing, sellerApi: provider.api } : listing);
    }
  }
  return { listings: [...listings.values()], unmapped: unmapped.toRecord() };
}

/** Validates the top level of the payload and returns the well-formed providers. */
function readProviders(payload: SourcePayload): Array<[string, ModelsDevProvider]> {
  const json = payloadJson("models-dev", payload, MODELS_DEV_FILE);
  const top = ModelsDevApi.safeParse(json);
  if (!top.success) {
    throw new SourcePayloadError(
      `models-dev: ${MODELS_DEV_FILE}: expected an object keyed by provider id, got ${jsonKind(json)}`,
    );
  }
  const providers: Array<[string, ModelsDevProvider]> = [];
  let firstProblem: string | null = null;
  for (const [providerId, raw] of Object.entries(top.data)) {
    const provider = ModelsDevProvider.safeParse(raw);
    if (provider.success) {
      providers.push([providerId, provider.data]);
    } else if (firstProblem === null) {
      const issue = provider.error.issues[0];
      const path = [providerId, ...(issue?.path ?? []).map(String)].join(".");
      firstProblem = `at ${path}: ${issue?.message ?? "invalid"}`;
    }
  }
  if (providers.length === 0) {
    throw new SourcePayloadError(
      `models-dev: ${MODELS_DEV_FILE}: no provider with a "models" object${firstProblem ? ` (${firstProblem})` : " (empty object)"}`,
    );
  }
  return providers;
}

/** Maps one validated model entry to a listing. */
function toListing(seller: string, modelId: string, model: ModelsDevModel, unmapped: UnmappedTally): Listing {
  return {
    ...EMPTY_LISTING_META,
    seller,
    model: modelId,
    makerHint: makerHintOf(seller, modelId, model.provider),
    name: model.name ?? null,
    family: model.family ?? null,
    contextWindow: model.limit?.context ?? null,
    maxOutputTokens: model.limit?.output ?? null,
    openWeights: model.open_weights ?? null,
    releasedOn: isoDateOrNull(model.release_date),
    status: statusOf(model.status),
    ...reviewedOn(model.last_updated),
    prices: model.cost ? pricesOf(model, unmapped) : [],
  };
}

/**
 * Maker slug the source states for a listing, or null.
 *
 * - A `vendor/` prefix of the model id that `isMaker(canonicalSeller(vendor))` confirms names the maker.
 * - A maker selling under its own id (no foreign `vendor/` prefix) is the maker. A maker provider
 *   whose model id carries another vendor's prefix (models.dev `nvidia` hosts `meta/llama-…`) is a
 *   reseller for that model: the prefix decides, and an unknown prefix gives null.
 * - A reseller: a string model-level `provider` naming a maker, else the confirmed prefix.
 */
export function makerHintOf(seller: string, modelId: string, provider: unknown): string | null {
  const slash = modelId.indexOf("/");
  const prefix = slash > 0 ? canonicalSeller(modelId.slice(0, slash)) : null;
  const prefixMaker = prefix !== null && isMaker(prefix) ? prefix : null;
  if (isMaker(seller)) return prefix === null || prefix === seller ? seller : prefixMaker;
  if (typeof provider === "string" && isMaker(canonicalSeller(provider))) return canonicalSeller(provider);
  return prefixMaker;
}

/**
 * models.dev's `last_updated` (the day the entry was last edited) as the source's statement of how
 * current its prices are (T170): evidence the amounts were the entry's then, not that they moved.
 */
function reviewedOn(lastUpdated: string | undefined): Pick<Listing, "pricesDated"> {
  const on = isoDateOrNull(lastUpdated);
  return on ? { pricesDated: { on, kind: "reviewed" } } : {};
}

/** models.dev `status` → our hint: alpha/beta/preview → preview, deprecated → deprecated, else null. */
function statusOf(status: string | undefined): Listing["status"] {
  switch (status?.toLowerCase()) {
    case "alpha":
    case "beta":
    case "preview":
      return "preview";
    case "deprecated":
      return "deprecated";
    default:
      return null;
  }
}

/** A real calendar date `YYYY-MM-DD`, else null (models.dev also has month-only `2025-01`). */
export function isoDateOrNull(value: string | undefined): string | null {
  if (value === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const [y, m, d] = value.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d ? value : null;
}

/** All prices of a model with a `cost`: base, context brackets, and experimental modes. */
function pricesOf(model: ModelsDevModel, unmapped: UnmappedTally): PriceObservation[] {
  const prices: PriceObservation[] = [];
  const BASE_CONTEXT: DimensionContext = {
    tier: "standard",
    contextMin: 0,
    contextMax: null,
    qualifiers: {},
    inputModality: sideModality(model.modalities?.input),
    outputModality: sideModality(model.modalities?.output),
    unmapped,
  };
  if (model.cost) prices.push(...costPrices(model.cost, BASE_CONTEXT));
  const experimental = model.experimental;
  if (typeof experimental === "object" && experimental.modes) {
    for (const [modeName, mode] of Object.entries(experimental.modes)) {
      if (!mode.cost) continue;
      const slug = slugify(modeName);
      if (slug === "") continue;
      // A mode that is a tier is that tier, unqualified: the maker's own price of it is the same
      // dimension (Anthropic's page states fast mode as Opus 4.6's priority tier, T370, T374).
      const tier = MODE_TIERS[slug];
      prices.push(
        ...costPrices(mode.cost, {
          ...BASE_CONTEXT,
          tier: tier ?? "standard",
          qualifiers: tier ? {} : { mode: slug },
        }),
      );
    }
  }
  return prices;
}

/**
 * Prices of one `cost` object in a given tier/qualifier context: its flat fields in the [0, open)
 * bracket, then its context brackets (`tiers` when it has a usable one, else `context_over_200k`).
 */
function costPrices(cost: ModelsDevCost, context: DimensionContext): PriceObservation[] {
  const prices = fieldPrices(cost, context);
  const tiers = contextTiers(cost.tiers);
  if (tiers.length > 0) {
    tiers.forEach((tier, index) => {
      const contextMax = tiers[index + 1]?.tier.size ?? null;
      prices.push(...fieldPrices(tier, { ...context, contextMin: tier.tier.size, contextMax }));
    });
  } else if (cost.context_over_200k) {
    // The legacy field states 200K for every model: a threshold models.dev does not state for this
    // one, dropped when another source states the model's own (T173).
    prices.push(
      ...fieldPrices(cost.context_over_200k, { ...context, contextMin: LEGACY_BRACKET_MIN, contextMax: null }).map(
        (p) => ({ ...p, thresholdDerived: true }),
      ),
    );
  }
  return prices;
}

/** The well-formed `type: "context"` tiers, ascending by size (one per size; malformed entries skipped). */
function contextTiers(raw: readonly unknown[] | undefined): ModelsDevCostTier[] {
  const bySize = new Map<number, ModelsDevCostTier>();
  for (const entry of raw ?? []) {
    const tier = ModelsDevCostTier.safeParse(entry);
    if (!tier.success || tier.data.tier.type !== "context" || tier.data.tier.size <= 0) continue;
    if (!bySize.has(tier.data.tier.size)) bySize.set(tier.data.tier.size, tier.data);
  }
  return [...bySize.values()].sort((a, b) => a.tier.size - b.tier.size);
}

/**
 * One observation per numeric, non-negative cost field (USD per 1M tokens, copied exactly) that
 * the field map knows; other keys are counted as unmapped. The plain `input` / `output` bill the
 * side's modality (see {@link sideModality}).
 */
function fieldPrices(fields: ModelsDevCostFields, context: DimensionContext): PriceObservation[] {
  const prices: PriceObservation[] = [];
  for (const key of Object.keys(fields))
    if (!Object.hasOwn(COST_RULES, key) && !COST_STRUCTURE.has(key)) context.unmapped.add(`cost.${key}`);
  for (const [field, r] of Object.entries(COST_RULES)) {
    const raw = (fields as Record<string, unknown>)[field];
    if (typeof raw !== "number" || !Number.isFinite(raw) || raw < 0) continue;
    let amount: number;
    try {
      amount = scaleAmount(raw, r.factor);
    } catch (error) {
      if (error instanceof AmountError) continue;
      throw error;
    }
    const modality =
      field === "input" ? context.inputModality : field === "output" ? context.outputModality : r.modality;
    const { tier, contextMin, contextMax, qualifiers } = context;
    prices.push({
      dimension: ruleDimension({ ...r, modality }, { tier, contextMin, contextMax, qualifiers }),
      amount,
      unit: r.unit,
      denomination: "currency",
      currency: "USD",
    });
  }
  return prices;
}

/** Lower-case slug of a mode name (`Fast Mode` → `fast-mode`). */
function slugify(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
