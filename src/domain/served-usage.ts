import { TIERS, type Tier } from "./dimension.js";

/**
 * What a usage record says it was served as, against what the request names (issue 49 §1, T480):
 * the record's own tier (OpenAI `service_tier`, Anthropic `speed` / `service_tier`) and region
 * (Anthropic `inference_geo`) price it when the request leaves them out; a request that names a
 * different one is refused, naming both. `/cost`, MCP `estimate_cost` and `tariff cost` all read
 * this one rule, so they price a record alike. Pure.
 */

/** A request naming a tier or region the usage record contradicts; the message names both. */
export class ServedMismatchError extends Error {
  override name = "ServedMismatchError";
}

/** The tier and region a record is priced in. */
export interface Served {
  readonly tier: Tier;
  /** The region, or null for the global price. */
  readonly region: string | null;
}

/**
 * The tier and region to price a record in (T480): the request's where it names one, else the
 * record's, else `standard` and global.
 * @param record what the mapped record states (null: it states nothing)
 * @param asked what the request names (null or undefined: it names nothing)
 * @throws ServedMismatchError when both state a tier, or a region, and they differ
 */
export function servedAs(
  record: { readonly tier: Tier | null; readonly region: string | null },
  asked: { readonly tier?: Tier | null | undefined; readonly region?: string | null | undefined },
): Served {
  const tier = asked.tier ?? null;
  const region = asked.region ?? null;
  if (record.tier !== null && tier !== null && record.tier !== tier)
    throw new ServedMismatchError(
      `tier=${tier} was asked, but the usage record was served in the ${record.tier} tier (its service_tier or ` +
        `speed): leave tier out to price the record as served, or give a record served in ${tier}`,
    );
  if (record.region !== null && region !== null && record.region !== region)
    throw new ServedMismatchError(
      `region=${region} was asked, but the usage record was processed in region ${record.region} (its ` +
        `inference_geo): leave region out to price the record where it was served`,
    );
  return { tier: record.tier ?? tier ?? TIERS[0], region: record.region ?? region };
}
