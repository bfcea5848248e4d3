import { DAY_MS, VERIFIED_PAGE_MAX_AGE_DAYS } from "../../domain/freshness.js";
import type { SourceId } from "../../domain/observation.js";
import type { BuildInput } from "../build-input.js";
import { evidenceTimes } from "../freshness.js";

/**
 * The sources whose statement is current in this run (T292): those that parsed now, and the makers'
 * own pages whose last good copy was captured at most {@link VERIFIED_PAGE_MAX_AGE_DAYS} days
 * before the run. Only a current statement speaks for its seller (`authoritative`). Pure.
 */
export function currentStatements(input: BuildInput): ReadonlySet<SourceId> {
  const evidenceAt = evidenceTimes(input.runTime, input.sources, input.prior?.sources);
  const oldest = Date.parse(input.runTime) - VERIFIED_PAGE_MAX_AGE_DAYS * DAY_MS;
  return new Set(
    input.sources
      .filter((s) => {
        if (s.fresh) return true;
        const at = evidenceAt.get(s.source);
        return s.firstPartyPage === true && typeof at === "string" && Date.parse(at) >= oldest;
      })
      .map((s) => s.source),
  );
}
