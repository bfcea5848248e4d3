import { CHANGE_KINDS } from "../domain/change.js";
import { CHANNELS } from "../domain/channel.js";
import { splitList } from "./endpoint.js";
import { badRequest } from "./errors.js";

/**
 * Bounds of the endpoints' parameters (D13, D15, D18), shared by the endpoint descriptors and the
 * tool descriptions that quote them.
 */
export const MODEL_LIST_LIMIT = { default: 50, min: 1, max: 500 } as const;
export const SEARCH_LIMIT = { default: 10, min: 1, max: 50 } as const;
export const CHANGES_LIMIT = { default: 100, min: 1, cap: 500 } as const;
export const CHANGES_DAYS = { default: 30, min: 1, max: 3650 } as const;
export const COMPARE_IDS = { min: 2, max: 8 } as const;
export const RATES_MAX_PROVIDERS = 50;
/** Largest token count (and `requests`) /cost accepts: 10^12 (issue 17). */
export const MAX_TOKENS = 1_000_000_000_000;
/** /cost `channel`: a channel of D2, or `all` for every channel selling the model (issue 17). */
export const COST_CHANNELS = [...CHANNELS, "all"] as const;

/**
 * The comma-separated `kind` filter of /changes; empty entries are ignored.
 * @throws CatalogueError bad_request naming an unknown kind and the allowed ones
 */
export function parseKinds(value: string | undefined): (typeof CHANGE_KINDS)[number][] | null {
  const kinds = splitList(value);
  if (kinds.length === 0) return null;
  for (const k of kinds)
    if (!(CHANGE_KINDS as readonly string[]).includes(k))
      throw badRequest(`kind ${JSON.stringify(k)} is not one of: ${CHANGE_KINDS.join(", ")}`);
  return kinds as (typeof CHANGE_KINDS)[number][];
}
