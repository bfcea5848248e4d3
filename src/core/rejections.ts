import type { SourceId } from "../domain/observation.js";
import type { SourceInput } from "./build-input.js";
import type { BoundaryReason } from "./listing-boundary.js";
import type { RejectReason } from "./plausibility.js";
import type { SourceRejections } from "./screen-listings.js";

/** Adds the prices the adapter boundary dropped (T252) to the guards' rejections, per fresh source. */
export function withBoundary(
  rejected: ReadonlyMap<SourceId, SourceRejections>,
  sources: readonly SourceInput[],
): Map<SourceId, SourceRejections> {
  const out = new Map(rejected);
  for (const s of sources) {
    if (!s.fresh || !s.boundaryRejected) continue;
    for (const [reason, n] of Object.entries(s.boundaryRejected) as [BoundaryReason, number][]) {
      const r = out.get(s.source);
      out.set(s.source, {
        total: (r?.total ?? 0) + n,
        byReason: { ...(r?.byReason ?? {}), [reason]: (r?.byReason[reason] ?? 0) + n },
      });
    }
  }
  return out;
}

/**
 * Adds the rows held back after reconciliation — by the jump guard (T176, `unexplained_jump`) or as a
 * discount above its standard price (T331, `above_standard`) — to the guards' rejections, per source.
 */
export function withHeld(
  rejected: ReadonlyMap<SourceId, SourceRejections>,
  held: ReadonlyMap<SourceId, number>,
  reason: RejectReason,
): Map<SourceId, SourceRejections> {
  const out = new Map(rejected);
  for (const [source, n] of held) {
    const r = out.get(source);
    out.set(source, {
      total: (r?.total ?? 0) + n,
      byReason: { ...(r?.byReason ?? {}), [reason]: (r?.byReason[reason] ?? 0) + n },
    });
  }
  return out;
}
