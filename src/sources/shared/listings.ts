import { dimensionKey } from "../../domain/dimension.js";
import type { Listing } from "../../domain/observation.js";
import { canonicalSeller, isMaker } from "../../domain/sellers.js";

/**
 * The maker a model id names by its vendor prefix (`anthropic/claude-…`, Bedrock's
 * `us.anthropic.claude-…`), or null when the prefix is no maker (T151: shared by the aggregator
 * adapters, LiteLLM and Portkey).
 */
export function vendorOf(model: string): string | null {
  const slash = model.indexOf("/");
  if (slash > 0) {
    const v = canonicalSeller(model.slice(0, slash));
    return isMaker(v) ? v : null;
  }
  for (const part of model.split(".").slice(0, 2)) {
    if (!/^[a-z][a-z0-9-]*$/i.test(part)) continue;
    const v = canonicalSeller(part);
    if (isMaker(v)) return v;
  }
  return null;
}

/** `a` completed by `b`: the metadata `a` lacks, and the prices of dimensions `a` lacks. */
export function mergeListings(a: Listing, b: Listing): Listing {
  const have = new Set(a.prices.map((p) => dimensionKey(p.dimension)));
  return {
    ...a,
    makerHint: a.makerHint ?? b.makerHint,
    contextWindow: a.contextWindow ?? b.contextWindow,
    maxOutputTokens: a.maxOutputTokens ?? b.maxOutputTokens,
    deprecatedOn: a.deprecatedOn ?? b.deprecatedOn,
    status: a.status ?? b.status,
    prices: [...a.prices, ...b.prices.filter((p) => !have.has(dimensionKey(p.dimension)))],
  };
}

/**
 * One listing per (seller, model): when two upstream keys or files name the same one (a routing
 * alias, `azure-openai` and `azure-ai` both selling as `azure`), the first added wins per field and
 * per dimension and the later ones add what it lacks ({@link mergeListings}).
 */
export class ListingsBySeller {
  readonly #byId = new Map<string, Listing>();

  add(listing: Listing): void {
    const id = `${listing.seller}\u0000${listing.model}`;
    const prior = this.#byId.get(id);
    this.#byId.set(id, prior ? mergeListings(prior, listing) : listing);
  }

  /** The merged listings, in the order their (seller, model) first came. */
  values(): Listing[] {
    return [...this.#byId.values()];
  }
}
